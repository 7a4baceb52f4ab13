/// An SQL identifier, quoted so that any entity or attribute name is safe to use.
public func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

extension EntityDescription {
    /// The key column, every attribute column, then each to-one relationship's key
    /// column, as `object(for:row:)` reads them.
    public func selectionSQL(qualifier: String? = nil) -> String {
        let prefix = qualifier.map { quoteIdentifier($0) + "." } ?? ""
        return ([primaryKey] + attributeNames + toOneRelationships.map(\.keyColumn)).map { prefix + quoteIdentifier($0) }.joined(separator: ", ")
    }
}

import GRDB

/// The version of the SQLite library in use.
public var sqliteVersion: String {
    (try? DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? nil) ?? "unknown"
}
