import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// Reads a Core Data store's persistent history back (see `PersistentHistoryLayout` for the
/// format), for Quarry's `history{}`: a transaction's token is its `ATRANSACTION.Z_PK`
/// (the number Core Data's own history tokens count in), its time `ZTIMESTAMP` (seconds
/// since 2001), its author the interned `ZAUTHORTS` string (or the inline `ZAUTHOR` when a
/// store has no interned one), and its changes `ACHANGE` rows by `ZTRANSACTIONID`.
/// Transactions by the app and by Quarry read alike.
public enum PersistentHistoryReader {
    /// One change: its type, the row's entity number and key.
    public struct Change: Equatable, Sendable {
        public var type: PersistentHistoryLayout.ChangeType
        public var entity: Int64
        public var key: Int64
    }

    public struct Transaction: Equatable, Sendable {
        public var token: Int64
        /// Seconds since 2001-01-01, as stored.
        public var timestamp: Double
        public var author: String?
        public var changes: [Change]
    }

    /// Whether `db` has the tables and columns this reader reads.
    public static func canRead(_ db: Database) throws -> Bool {
        guard try db.hasTable(PersistentHistoryLayout.transactionTable), try db.hasTable(PersistentHistoryLayout.changeTable) else { return false }
        let transaction = try db.columns(in: PersistentHistoryLayout.transactionTable).map(\.name)
        let change = try db.columns(in: PersistentHistoryLayout.changeTable).map(\.name)
        return ["Z_PK", "ZTIMESTAMP"].allSatisfy(transaction.contains)
            && ["Z_PK", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID"].allSatisfy(change.contains)
    }

    /// The latest transaction's token (0 when there is none or the history cannot be read).
    public static func lastToken(_ db: Database) throws -> Int64 {
        guard try canRead(db) else { return 0 }
        return try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM main.\(PersistentHistoryLayout.transactionTable)") ?? 0
    }

    /// Transactions after `since`, optionally by one author, oldest first.
    public static func transactions(after since: Int64, author: String?, in db: Database) throws -> [Transaction] {
        guard try canRead(db) else { return [] }
        let columns = try db.columns(in: PersistentHistoryLayout.transactionTable).map(\.name)
        let interned = try columns.contains("ZAUTHORTS") && db.hasTable(PersistentHistoryLayout.stringTable)
        let inline = columns.contains("ZAUTHOR")
        let authorSQL =
            switch (interned, inline) {
            case (true, true): "coalesce(s.ZNAME, t.ZAUTHOR)"
            case (true, false): "s.ZNAME"
            case (false, true): "t.ZAUTHOR"
            case (false, false): "NULL"
            }
        let join = interned ? "LEFT JOIN main.\(PersistentHistoryLayout.stringTable) s ON s.Z_PK = t.ZAUTHORTS" : ""
        var sql = "SELECT t.Z_PK, t.ZTIMESTAMP, \(authorSQL) FROM main.\(PersistentHistoryLayout.transactionTable) t \(join) WHERE t.Z_PK > ?"
        var arguments: [DatabaseValueConvertible?] = [since]
        if let author {
            sql += " AND \(authorSQL) IS ?"
            arguments.append(author)
        }
        var transactions = try Row.fetchAll(db, sql: sql + " ORDER BY t.Z_PK", arguments: StatementArguments(arguments)).compactMap {
            row -> Transaction? in
            guard let token = Int64.fromDatabaseValue(row[0] as DatabaseValue) else { return nil }
            return Transaction(
                token: token, timestamp: Double.fromDatabaseValue(row[1] as DatabaseValue) ?? 0,
                author: String.fromDatabaseValue(row[2] as DatabaseValue), changes: [])
        }
        guard let first = transactions.first?.token, let last = transactions.last?.token else { return [] }
        var index: [Int64: Int] = [:]
        for (i, transaction) in transactions.enumerated() { index[transaction.token] = i }
        let changes = try Row.fetchAll(
            db,
            sql: """
                SELECT ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK FROM main.\(PersistentHistoryLayout.changeTable)
                WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY ZTRANSACTIONID, Z_PK
                """, arguments: [first, last])
        for row in changes {
            guard let transaction = Int64.fromDatabaseValue(row[0] as DatabaseValue), let i = index[transaction],
                let type = Int64.fromDatabaseValue(row[1] as DatabaseValue).flatMap(PersistentHistoryLayout.ChangeType.init(rawValue:)),
                let entity = Int64.fromDatabaseValue(row[2] as DatabaseValue), let key = Int64.fromDatabaseValue(row[3] as DatabaseValue)
            else { continue }
            transactions[i].changes.append(Change(type: type, entity: entity, key: key))
        }
        return transactions
    }
}
