/// An SQL identifier, quoted so that any entity or attribute name is safe to use.
public func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

import GRDB

/// The version of the SQLite library in use.
public var sqliteVersion: String {
    (try? DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? nil) ?? "unknown"
}
