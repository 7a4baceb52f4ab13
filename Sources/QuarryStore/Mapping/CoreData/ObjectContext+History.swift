import Foundation
import GRDB

/// One recorded transaction: a save or a batch change.
public struct HistoryTransaction {
    public var token: Int64
    public var time: Double
    public var author: String?
    public var inserted: [String]
    public var updated: [String]
    public var deleted: [String]
}

/// Every save and batch change records a transaction in `quarry_history`, inside the
/// same SQLite transaction, so other processes (and later sessions) can tell what
/// changed since a token.
extension ObjectContext {
    static let historyTable = "quarry_history"

    /// Called by Quarry's own files only (`QuarryFileStore`): a Core Data store's history
    /// is Core Data's own, and a file Quarry did not create gets no table of Quarry's.
    func recordQuarryHistory(inserted: [String], updated: [String], deleted: [String], in db: Database) throws {
        guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return }
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(Self.historyTable) (token INTEGER PRIMARY KEY AUTOINCREMENT, time REAL NOT NULL,
                author TEXT, inserted TEXT NOT NULL, updated TEXT NOT NULL, deleted TEXT NOT NULL)
            """)
        // Object IDs are entity names and integers: JSON text by hand needs no encoder that can throw.
        func json(_ ids: [String]) -> String { "[" + ids.map(jsonQuoted).joined(separator: ",") + "]" }
        try db.execute(sql: "INSERT INTO \(Self.historyTable) (time, author, inserted, updated, deleted) VALUES (?, ?, ?, ?, ?)",
                       arguments: [Date().timeIntervalSince1970, author, json(inserted), json(updated), json(deleted)])
        // This context's own transactions are no outside change when it next looks for some.
        ownHistoryTokens.insert(db.lastInsertedRowID)
    }

    /// The token of the latest recorded transaction (0 when there is none).
    public func historyToken() throws -> Int64 {
        try read { db in try historyToken(in: db) }
    }

    /// The latest token: of `quarry_history`, or on a Core Data store its persistent
    /// history's latest transaction number.
    private func historyToken(in db: Database) throws -> Int64 {
        if coreData != nil { return try PersistentHistoryReader.lastToken(db) }
        guard try db.hasTable(Self.historyTable) else { return 0 }
        return try Int64.fetchOne(db, sql: "SELECT max(token) FROM \(Self.historyTable)") ?? 0
    }

    /// Transactions after `since` (all when nil), optionally by one author, oldest first.
    public func history(since: Int64? = nil, author: String? = nil) throws -> [HistoryTransaction] {
        if coreData != nil { return try coreDataHistory(since: since, author: author) }
        return try read { db in
            guard try db.hasTable(Self.historyTable) else { return [] }
            var sql = "SELECT token, time, author, inserted, updated, deleted FROM \(Self.historyTable) WHERE token > ?"
            var arguments: [DatabaseValueConvertible?] = [since ?? 0]
            if let author { sql += " AND author IS ?"; arguments.append(author) }
            return try Row.fetchAll(db, sql: sql + " ORDER BY token", arguments: StatementArguments(arguments)!).map { row in
                func ids(_ text: String) -> [String] { (try? JSONTree(parsing: text))?.strings ?? [] }
                let table = Self.historyTable
                return HistoryTransaction(
                    token: try row.stored(0, table: table, column: "token"), time: try row.stored(1, table: table, column: "time"),
                    author: try row.storedIfPresent(2, table: table, column: "author"),
                    inserted: ids(try row.stored(3, table: table, column: "inserted")),
                    updated: ids(try row.stored(4, table: table, column: "updated")),
                    deleted: ids(try row.stored(5, table: table, column: "deleted")))
            }
        }
    }

    /// Forgets transactions up to and including `token`; returns how many.
    @discardableResult
    public func pruneHistory(through token: Int64) throws -> Int {
        if isReadOnly { throw StoreError.readOnly(operation: "history.prune") }
        do {
            return try database.write { db in
                guard try db.hasTable(Self.historyTable) else { return 0 }
                try db.execute(sql: "DELETE FROM \(Self.historyTable) WHERE token <= ?", arguments: [token])
                return db.changesCount
            }
        } catch let error as DatabaseError { throw StoreError(error) }
    }

    // MARK: Changes by other connections

    /// `o:refresh()`: drops the object's unsaved changes and reads its row again, as Core
    /// Data's `refresh(_:mergeChanges: false)`. An object not yet saved is left as it is;
    /// one whose row is gone is deleted. Returns whether anything changed.
    @discardableResult
    public func refresh(_ object: ManagedObject) throws -> Bool {
        guard object.context === self, let key = object.primaryKey, !object.isInserted else { return false }
        let entity = currentEntity(of: object)
        let sql = "SELECT \(mapped(entity).selection(of: entity)) FROM \(mapped(entity).table) WHERE \(mapped(entity).key) = ?"
        let row = try read { db in try Row.fetchOne(db, sql: sql, arguments: [key]) }
        let hadChanges = object.hasChanges
        object.pending = [:]
        object.pendingToOne = [:]
        unsaved.links.removeAll { $0.source === object || $0.target === object }
        unsaved.updated[ObjectIdentifier(object)] = nil
        unsaved.deleted[ObjectIdentifier(object)] = nil
        forgetCoreDataVersion(object)
        guard let row else {
            unregister(object)
            object.isDeleted = true
            object.context = nil
            bumpPendingGeneration(touching: object)
            return true
        }
        object.isDeleted = false
        let fresh = values(of: entity, row: row)
        let changed = fresh != object.committed
        object.committed = fresh
        bumpPendingGeneration(touching: object)
        return changed || hadChanges
    }

    /// Notices commits by other connections (another process, the sqlite3 shell) through
    /// `PRAGMA data_version`; when there were some, reloads the objects in use and tells
    /// the listeners, with what Quarry's history says changed. Returns whether anything did.
    @discardableResult
    public func refreshFromStore() throws -> Bool {
        let version = try read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        defer { lastDataVersion = version }
        guard let last = lastDataVersion, last != version else { return false }
        outsideChangeNoticed()
        var changes = ChangeSet()
        let token = try historyToken()
        let transactions = try history(since: lastHistoryToken ?? token).filter { !ownHistoryTokens.contains($0.token) }
        lastHistoryToken = token
        ownHistoryTokens = []
        var updatedIDs = Set(transactions.flatMap(\.updated))
        let insertedIDs = Set(transactions.flatMap(\.inserted))
        // Reload every registered object: a writer that keeps no history is seen this way.
        for (entityName, keys) in registeredKeysByEntity() {
            guard let entity = managedObjectModel.entitiesByName[entityName] else { continue }
            let rows = try storedRows(of: entity, keys: keys)
            for key in keys {
                guard let object = registeredObject(entity: entityName, primaryKey: key) else { continue }
                guard let row = rows[key] else {
                    if !object.hasChanges { changes.deleted.append(object); unregister(object); object.isDeleted = true; object.context = nil }
                    continue
                }
                let fresh = values(of: entity, row: row)
                let changedKeys = Set(fresh.keys.filter { fresh[$0] != object.committed[$0] })
                if !changedKeys.isEmpty {
                    changes.oldValues[ObjectIdentifier(object)] = object.committed
                    object.committed = fresh
                    changes.updated.append((object, changedKeys))
                    updatedIDs.remove(object.objectID)
                }
            }
        }
        // Rows the history names as updated but no object holds: by key.
        for id in updatedIDs.sorted() {
            let parts = id.split(separator: "/")
            if parts.count == 2, let key = Int64(parts[1]) { changes.batchUpdated[String(parts[0]), default: []].insert(key) }
        }
        for id in insertedIDs.sorted() {
            let parts = id.split(separator: "/")
            if parts.count == 2, let key = Int64(parts[1]), let object = try? object(entityName: String(parts[0]), primaryKey: key) {
                changes.inserted.append(object)
            }
        }
        addOutsideRowChanges(to: &changes)
        refreshCoreDataVersions()
        changes.isExternal = true
        bumpGeneration()
        notify(changes)
        return true
    }

    func values(of entity: EntityDescription, row: Row) -> [String: Value] {
        var committed: [String: Value] = [:]
        for (index, attribute) in entity.attributes.enumerated() {
            committed[attribute.name] = attribute.type.decode(Value(row[index + 1] as DatabaseValue))
        }
        for (i, relationship) in entity.toOneRelationships.enumerated() {
            committed[relationship.name] = Value(row[1 + entity.attributes.count + i] as DatabaseValue)
        }
        return committed
    }

    /// Starts watching for other connections' commits from now.
    public func startNoticingOtherConnections() throws {
        // One read for both: every read is a transaction of its own, set up and ended.
        (lastDataVersion, lastHistoryToken) = try read { db in
            (try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0, try historyToken(in: db))
        }
    }
}
