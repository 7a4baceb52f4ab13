import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// Writes one save's persistent history as Core Data writes it for a context's save
/// (fatbobman, "How Core Data saves data in SQLite": take `TRANSACTION`'s `Z_MAX` from
/// `Z_PRIMARYKEY`, write the transaction row at `Z_MAX + 1` and advance `Z_MAX`, then the
/// same for each `CHANGE` row): one `ATRANSACTION` row and one `ACHANGE` row per inserted,
/// updated and deleted object, inside the save's own SQLite transaction, so the history
/// and the rows it describes commit together or not at all. Core Data writes these rows
/// itself, not through triggers: the triggers it uses for history are temporary ones
/// (`ZQ_..._HISTORY...`, for batch deletes and updates) and never live in the file.
public struct PersistentHistoryWriter {
    /// One row of `ACHANGE`.
    public struct Change: Equatable, Sendable {
        public var type: PersistentHistoryLayout.ChangeType
        /// The row's own entity number (`Z_ENT`) and key (`Z_PK`).
        public var entity: Int64
        public var key: Int64
        /// `ZCOLUMNS` for an update; nil otherwise.
        public var columns: Data?
        /// For a delete, the stored values of the attributes the model preserves after
        /// deletion, as `ZTOMBSTONE0`, `ZTOMBSTONE1`, ... (the columns' raw values, as
        /// Core Data copies them from the deleted row). Read by storage class
        /// (`Value(_: DatabaseValue)`), each binds back as the very value SQLite stored.
        public var tombstones: [Value]

        public init(type: PersistentHistoryLayout.ChangeType, entity: Int64, key: Int64, columns: Data? = nil, tombstones: [Value] = []) {
            self.type = type
            self.entity = entity
            self.key = key
            self.columns = columns
            self.tombstones = tombstones
        }
    }

    public var layout: PersistentHistoryLayout
    /// The transaction's author (`NSManagedObjectContext.transactionAuthor`).
    public var author: String
    /// The bundle identifier and process name Core Data records with every transaction
    /// (`NSPersistentHistoryTransaction.bundleID` and `.processID`, which are never nil):
    /// Quarry has no bundle, so both are its own name. No context name is recorded (Core
    /// Data records one only for a context that was given a name).
    public var bundleID = "quarry"
    public var processID = "quarry"

    public init(layout: PersistentHistoryLayout, author: String) {
        self.layout = layout
        self.author = author
    }

    /// Writes the transaction and its changes; returns the transaction's key. Writes
    /// nothing when there are no changes (Core Data records no empty transaction).
    @discardableResult
    public func write(_ changes: [Change], at date: Date = Date(), in db: Database) throws -> Int64? {
        guard !changes.isEmpty else { return nil }
        let authorKey = try interned(author, in: db)
        let bundleKey = try interned(bundleID, in: db)
        let processKey = try interned(processID, in: db)
        let transaction = try nextKeys(of: layout.transactionEntity, count: 1, in: db)
        try db.execute(
            sql: """
                INSERT INTO main.\(PersistentHistoryLayout.transactionTable) (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN)
                VALUES (?, ?, NULL, ?, ?, NULL, ?, ?, NULL, NULL, NULL, NULL, NULL)
                """, arguments: [transaction, layout.transactionEntity, authorKey, bundleKey, processKey, date.timeIntervalSinceReferenceDate])
        let first = try nextKeys(of: layout.changeEntity, count: Int64(changes.count), in: db)
        let tombstoneCount = changes.map(\.tombstones.count).max() ?? 0
        guard tombstoneCount <= layout.tombstoneColumns else {
            throw PersistentHistoryLayout.Problem(
                "table \(PersistentHistoryLayout.changeTable) has \(layout.tombstoneColumns) tombstone columns, fewer than the model preserves (\(tombstoneCount))"
            )
        }
        let tombstoneColumns = (0..<tombstoneCount).map { ", ZTOMBSTONE\($0)" }.joined()
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO main.\(PersistentHistoryLayout.changeTable) (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneColumns))
                VALUES (?, ?, NULL, ?, ?, ?, ?, ?\(String(repeating: ", ?", count: tombstoneCount)))
                """)
        for (offset, change) in changes.enumerated() {
            let tombstones = (0..<tombstoneCount).map { $0 < change.tombstones.count ? change.tombstones[$0].databaseValue : .null }
            let values: [(any DatabaseValueConvertible)?] =
                [
                    first + Int64(offset), layout.changeEntity, change.type.rawValue, change.entity, change.key,
                    transaction, change.columns
                ] + tombstones.map { $0 as DatabaseValueConvertible? }
            try statement.execute(arguments: StatementArguments(values))
        }
        return transaction
    }

    /// The key of `name`'s row in `ATRANSACTIONSTRING`, written when there is none yet
    /// (strings are kept once: the table's names are unique).
    func interned(_ name: String, in db: Database) throws -> Int64 {
        if let key = try Int64.fetchOne(
            db, sql: "SELECT Z_PK FROM main.\(PersistentHistoryLayout.stringTable) WHERE ZNAME = ? ORDER BY Z_PK LIMIT 1",
            arguments: [name])
        {
            return key
        }
        let key = try nextKeys(of: layout.stringEntity, count: 1, in: db)
        try db.execute(
            sql: "INSERT INTO main.\(PersistentHistoryLayout.stringTable) (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)",
            arguments: [key, layout.stringEntity, name])
        return key
    }

    /// Takes `count` keys of a history entity from its `Z_MAX` (advanced by `count`) and
    /// returns the first.
    /// A `Z_MAX` with fewer than `count` keys left (or not an integer) refuses the save,
    /// naming the history entity: `Z_MAX + count` would become a real number in SQLite,
    /// and the keys taken from it would repeat the last one.
    func nextKeys(of entity: Int64, count: Int64, in db: Database) throws -> Int64 {
        let row = try Row.fetchOne(db, sql: "SELECT Z_MAX, Z_NAME FROM main.Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [entity])
        var stored = DatabaseValue.null
        var name = "history entity \(entity)"
        if let row {
            stored = row[0]
            if let text = String.fromDatabaseValue(row[1]) { name = "history entity \(text)" }
        }
        try CoreDataStore.checkKeysLeft(stored, count: count, entity: name)
        let last = (Int64.fromDatabaseValue(stored) ?? 0) + count
        try db.execute(sql: "UPDATE main.Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [last, entity])
        return last - count + 1
    }
}
