import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Quarry's own history: every save and batch change records a transaction in
/// `quarry_history`, inside the same SQLite transaction, so other processes (and later
/// sessions) can tell what changed since a token. Written by Quarry's own files only
/// (`QuarryFileStore`); read wherever the table is.
enum QuarryHistory {
    static let table = "quarry_history"

    /// Records one transaction; returns its token (nil when nothing changed).
    static func record(
        inserted: [(entity: String, key: Int64)], updated: [(entity: String, key: Int64)], deleted: [String], author: String?,
        in db: Database
    ) throws -> Int64? {
        guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return nil }
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(table) (token INTEGER PRIMARY KEY AUTOINCREMENT, time REAL NOT NULL,
                    author TEXT, inserted TEXT NOT NULL, updated TEXT NOT NULL, deleted TEXT NOT NULL)
                """)
        // Object IDs are entity names and integers: JSON text by hand needs no encoder that can throw.
        // An ID with nothing to escape is copied as its bytes: quoting 20,000 new objects'
        // IDs a scalar at a time was 4% of their save (issue 62).
        func json(_ ids: [String]) -> String {
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            for (i, id) in ids.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                quote(id, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
            return String(decoding: bytes, as: UTF8.self)
        }
        // `entity/key` for each inserted or updated object, the entity's name quoted once
        // for a run of its objects: the IDs are never made as strings.
        func json(_ ids: [(entity: String, key: Int64)]) -> String {
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            bytes.reserveCapacity(2 + ids.count * 16)
            var last: (entity: String, quoted: [UInt8])?
            for (i, id) in ids.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                if last?.entity != id.entity {
                    var quoted: [UInt8] = []
                    quote(id.entity + "/", into: &quoted)
                    last = (id.entity, Array(quoted.dropLast()))
                }
                bytes.append(contentsOf: last?.quoted ?? [])
                bytes.append(contentsOf: String(id.key).utf8)
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(UInt8(ascii: "]"))
            return String(decoding: bytes, as: UTF8.self)
        }
        try db.execute(
            sql: "INSERT INTO \(table) (time, author, inserted, updated, deleted) VALUES (?, ?, ?, ?, ?)",
            arguments: [Date().timeIntervalSince1970, author, json(inserted), json(updated), json(deleted)])
        return db.lastInsertedRowID
    }

    /// `text` as a JSON string: copied as its bytes when nothing in it needs escaping.
    private static func quote(_ text: String, into bytes: inout [UInt8]) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(contentsOf: jsonQuoted(text).utf8)
        }
    }

    /// The latest token (0 when there is none).
    static func lastToken(in db: Database) throws -> Int64 {
        guard try db.hasTable(table) else { return 0 }
        return try Int64.fetchOne(db, sql: "SELECT max(token) FROM \(table)") ?? 0
    }

    /// Transactions after `since` (all when nil), optionally by one author, oldest first.
    static func transactions(since: Int64?, author: String?, in db: Database) throws -> [HistoryTransaction] {
        guard try db.hasTable(table) else { return [] }
        var sql = "SELECT token, time, author, inserted, updated, deleted FROM \(table) WHERE token > ?"
        var arguments: [(any DatabaseValueConvertible)?] = [since ?? 0]
        if let author {
            sql += " AND author IS ?"
            arguments.append(author)
        }
        return try Row.fetchAll(db, sql: sql + " ORDER BY token", arguments: StatementArguments(arguments)).map { row in
            func ids(_ text: String) -> [String] { (try? JSONTree(parsing: text))?.strings ?? [] }
            return HistoryTransaction(
                token: try row.stored(0, table: table, column: "token"), time: try row.stored(1, table: table, column: "time"),
                author: try row.storedIfPresent(2, table: table, column: "author"),
                inserted: ids(try row.stored(3, table: table, column: "inserted")),
                updated: ids(try row.stored(4, table: table, column: "updated")),
                deleted: ids(try row.stored(5, table: table, column: "deleted")))
        }
    }

    /// Forgets transactions up to and including `token`; returns how many.
    static func prune(through token: Int64, in db: Database) throws -> Int {
        guard try db.hasTable(table) else { return 0 }
        try db.execute(sql: "DELETE FROM \(table) WHERE token <= ?", arguments: [token])
        return db.changesCount
    }
}
