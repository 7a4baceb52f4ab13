import Foundation
import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryStore

extension SQLiteEngine: AttachingEngine {
    /// Another SQLite file attached to this connection as `schema` while `body` runs: the
    /// file `other` reads (its private copy, or the URI that reads it immutable, when its
    /// open needed one), through a URI with `mode=ro`, so SQLite opens it read-only and
    /// nothing is written to it; a connection opened read-only writes nothing to its own
    /// file either. Detached after, whatever `body` did. Nil when `other` is no file of
    /// this engine, or when SQLite did not attach it read-only (then detached at once).
    package func withAttached<T>(_ other: any StoreEngine, as schema: String, _ body: () throws -> T) throws -> T? {
        guard let other = other as? SQLiteEngine, !other.isClosed, !isClosed, let opened = other.opened,
            let uri = Self.readOnlyURI(opened)
        else { return nil }
        let name = quoteIdentifier(schema)
        let attached: Bool
        do {
            attached = try database.writeWithoutTransaction { db -> Bool in
                try db.execute(sql: "ATTACH DATABASE ? AS \(name)", arguments: [uri])
                guard sqlite3_db_readonly(db.sqliteConnection, schema) == 1 else {
                    try db.execute(sql: "DETACH DATABASE \(name)")
                    return false
                }
                return true
            }
        } catch is DatabaseError {
            // A file SQLite cannot attach (another text encoding, too many attached): the
            // caller's other way, which reads each file through its own connection.
            return nil
        }
        guard attached else { return nil }
        defer { try? database.writeWithoutTransaction { db in try db.execute(sql: "DETACH DATABASE \(name)") } }
        return try body()
    }

    /// `opened` (a path, or a URI SQLite opened) as a URI that opens it read-only.
    static func readOnlyURI(_ opened: String) -> String? {
        if opened.hasPrefix("file:") { return opened + (opened.contains("?") ? "&" : "?") + "mode=ro" }
        guard let encoded = opened.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return nil }
        return "file:\(encoded)?mode=ro"
    }

    package func holdsTables(_ oldRelation: String, _ newRelation: String, attachedAs schema: String) throws -> Bool {
        // Through the statements' own path (as `diff`'s reads go), on the connection that
        // holds the attachment.
        var row: [Value]?
        let sql =
            "SELECT (SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name = ?1), "
            + "(SELECT count(*) FROM \(quoteIdentifier(schema)).sqlite_master WHERE type = 'table' AND name = ?2), "
            + "(SELECT count(*) FROM temp.sqlite_master WHERE name IN (?1, ?2))"
        try withRows(sql, cached: false, streamed: false) { cursor in
            cursor.bind(values: [.text(oldRelation), .text(newRelation)])
            if try cursor.step() { row = StoreRow(statement: cursor).values }
        }
        let values = row ?? []
        return values == [.integer(1), .integer(1), .integer(0)]
    }
}
