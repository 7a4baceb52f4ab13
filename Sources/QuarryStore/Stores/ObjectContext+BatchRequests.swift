import GRDB

/// What a store wrote for `updateall`: the rows' keys, by their own entity too, and the
/// values as they read back (a foreign file's formats).
struct BatchUpdateWritten {
    var keys: [Int64]
    var byEntity: [String: [Int64]]
    var assignments: [(String, Value)]
    /// The rows of objects in use as the store holds them after the change, where it may
    /// differ from `assignments` (a server's types and triggers), by key.
    var stored: [Int64: [String: Value]] = [:]
}

/// A WHERE clause for a batch change, with its arguments (built by the predicate layer).
public struct BatchFilter {
    public var sql: String
    public var arguments: [Value]
    public init(sql: String, arguments: [Value]) { self.sql = sql; self.arguments = arguments }
}

extension ObjectContext {
    /// `Item:updateall(...)`: one UPDATE statement, no objects loaded. Registered objects
    /// take the new stored values (their own unsaved edits stay), and listeners hear it.
    public func batchUpdate(_ entityName: String, where filter: BatchFilter?, set values: [String: Value]) throws -> Int {
        if isReadOnly { throw StoreError.readOnly(operation: "updateall") }
        try store.refuseUnfaithfulWrite("updateall", in: self)
        try store.willWrite("updateall", in: self)
        let entity = try entity(named: entityName)
        if mapped(entity).isView { throw StoreError.viewIsReadOnly(entity: entity.name) }
        try store.refuseSetting(values.keys, of: entity.name, operation: "updateall")
        // The key column is the objects' identity (see `ManagedObject.setValue`).
        if values[mapped(entity).keyColumn] != nil, entity.attribute(named: mapped(entity).keyColumn) != nil {
            throw StoreError.during(operation: "updateall", .database(message: "\(entity.name).\(mapped(entity).keyColumn) is the key of \(entity.name)'s objects, which saved objects keep; nothing was written"))
        }
        var assignments: [(String, Value)] = []
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.writableAttribute(named: key) else { throw entity.unknownKey(key) }
            switch attribute.type.coerce(value) {
            case .success(let v):
                noteDayColumn(entity, key, v)
                if v.isNull, !attribute.isOptional {
                    throw StoreError.typeMismatch(entity: entity.name, key: key, expected: "\(attribute.type.rawValue) (not optional)", given: "nil")
                }
                assignments.append((key, v))
            case .failure(let f):
                throw StoreError.typeMismatch(entity: entity.name, key: key, expected: f.expected, given: describe(f.given))
            }
        }
        guard !assignments.isEmpty else { return 0 }
        let written = try store.writeBatchUpdate(entity, where: filter, set: assignments, context: self)
        let keys = written.keys, byEntity = written.byEntity
        assignments = written.assignments
        guard !keys.isEmpty else { return 0 }
        var changes = ChangeSet()
        for k in keys {
            guard let object = registeredObject(entity: entity.name, primaryKey: k) else { continue }
            changes.oldValues[ObjectIdentifier(object)] = object.committed
            var changed = Set(assignments.map(\.0))
            if let stored = written.stored[k] {
                changed.formUnion(stored.keys.filter { !Value.sameStored(stored[$0] ?? .null, object.committed[$0] ?? .null) })
                object.committed.merge(stored) { _, new in new }
            } else {
                for (name, value) in assignments { object.committed[name] = value }
            }
            changes.updated.append((object, changed))
        }
        for (name, keys) in byEntity { changes.batchUpdated[name] = Set(keys) }
        bumpGeneration()
        notify(changes)
        return keys.count
    }

    /// An object for a row that a batch delete removed while no object held it: its ID
    /// only, already deleted, so that entity observers hear of every row (as Core Data's
    /// merge of a batch delete gives the deleted objects' IDs).
    public func deletedObject(entityName: String, primaryKey: Int64) -> ManagedObject? {
        guard let entity = managedObjectModel.entitiesByName[entityName] else { return nil }
        let object = ManagedObject(entity: entity, primaryKey: primaryKey, temporaryNumber: 0, committed: [:], context: self)
        object.isDeleted = true
        object.context = nil
        return object
    }

    /// `Item:deleteall(...)`: DELETE statements, no objects loaded, with the delete rules
    /// applied in SQL: `deny` refuses (naming what blocks), `cascade` deletes the related
    /// rows too, `nullify` clears their keys. All in one transaction.
    public func batchDelete(_ entityName: String, where filter: BatchFilter?) throws -> Int {
        if isReadOnly { throw StoreError.readOnly(operation: "deleteall") }
        try store.refuseUnfaithfulWrite("deleteall", in: self)
        try store.willWrite("deleteall", in: self)
        let entity = try entity(named: entityName)
        if mapped(entity).isView { throw StoreError.viewIsReadOnly(entity: entity.name) }
        let deleted = try store.writeBatchDelete(entity, where: filter, context: self)
        var changes = ChangeSet()
        for (name, keys) in deleted {
            changes.batchDeleted[name] = Set(keys)
            for k in keys {
                guard let object = registeredObject(entity: name, primaryKey: k) else { continue }
                changes.deleted.append(object)
                markDeleted(object)
                unsaved.deleted[ObjectIdentifier(object)] = nil
                unregister(object)
                object.context = nil
            }
        }
        try takeClearedLinks(after: deleted, into: &changes)
        bumpGeneration()
        notify(changes)
        return deleted.filter { isKind($0.key, of: entity.name) }.reduce(0) { $0 + $1.value.count }
    }

    /// After a batch delete: the objects in use that its nullify and set-default rules
    /// reached (the store changed their link columns, SQL or the server) take their rows
    /// as stored now, and observers hear them updated. Otherwise they would keep the old
    /// key, and their next save would meet the delete's change as a conflict.
    private func takeClearedLinks(after deleted: [String: [Int64]], into changes: inout ChangeSet) throws {
        var reached: Set<String> = []
        for name in deleted.keys {
            for relationship in managedObjectModel.entitiesByName[name]?.relationships ?? []
            where relationship.deleteRule == .nullify || relationship.deleteRule == .setdefault {
                reached.insert(relationship.destination)
            }
        }
        for name in reached.sorted() {
            guard let target = managedObjectModel.entitiesByName[name], let held = registeredKeysByEntity()[name], !held.isEmpty else { continue }
            let rows = try storedRows(of: target, keys: held)
            for key in held {
                guard let object = registeredObject(entity: name, primaryKey: key), let row = rows[key] else { continue }
                let fresh = values(of: currentEntity(of: object), row: row)
                let moved = Set(fresh.keys.filter { !Value.sameStored(fresh[$0] ?? .null, object.committed[$0] ?? .null) })
                guard !moved.isEmpty else { continue }
                changes.oldValues[ObjectIdentifier(object)] = object.committed
                object.committed.merge(fresh) { _, new in new }
                changes.updated.append((object, moved))
            }
        }
    }

    /// The SQLite side of `batchUpdate`, in one transaction: the keys the filter matches,
    /// one UPDATE per 500, each value in its column's format (objects take the values as
    /// they read back), and the store's history.
    func writeSQLiteBatchUpdate(_ entity: EntityDescription, where filter: BatchFilter?, set given: [(String, Value)],
                                store: some SQLiteStore) throws -> BatchUpdateWritten {
        let table = mapped(entity).table, key = mapped(entity).key
        var written = BatchUpdateWritten(keys: [], byEntity: [:], assignments: given)
        do {
            try database.write { db in
                written.keys = try matchingKeys(entity, filter, in: db)
                guard !written.keys.isEmpty else { return }
                written.byEntity = try keysByOwnEntity(entity, written.keys, in: db)
                let set = given.map { "\(quoteIdentifier($0.0)) = ?" }.joined(separator: ", ")
                // In a file Quarry did not create, each value in its column's format; objects
                // take the values as they read back.
                var formats = ColumnFormats()
                let values: [DatabaseValue]
                do { values = try given.map { try storedValue($0.1, entity, $0.0, in: db, cache: &formats) } }
                catch let error as StoreError { throw StoreError.during(operation: "updateall", error) }
                written.assignments = zip(given, values).map { ($0.0, $0.1.databaseValue == $1 ? $0.1 : readBack($1, entity, $0.0)) }
                try forEachChunk(written.keys) { chunk in
                    try db.execute(sql: "UPDATE \(table) SET \(set) WHERE \(key) IN (\(marks(chunk.count)))",
                                   arguments: StatementArguments(values + chunk.map { $0.databaseValue }))
                }
                try store.recordBatchChange(BatchChange(updated: written.byEntity, updatedKeys: Set(given.map(\.0))), in: db, context: self)
            }
        } catch let error as DatabaseError { throw StoreError(error) }
        return written
    }

    /// The SQLite side of `batchDelete`, in one transaction: the rows the filter matches
    /// and what their delete rules reach (`deleteRows`), and the store's history; returns
    /// the rows deleted, by their own entity.
    func writeSQLiteBatchDelete(_ entity: EntityDescription, where filter: BatchFilter?, store: some SQLiteStore) throws -> [String: [Int64]] {
        var batch = BatchChange()
        do {
            try database.write { db in
                batch = BatchChange()
                let keys = try matchingKeys(entity, filter, in: db)
                try deleteRows(entity, keys, in: db, batch: &batch, store: store)
                try store.recordBatchChange(batch, in: db, context: self)
            }
        } catch let error as DatabaseError { throw StoreError(error) }
        return batch.deleted
    }

    /// Deletes the rows and, level by level, what their delete rules reach: a worklist,
    /// not recursion, since a cascade may run thousands of rows deep. Each level's related
    /// keys are read before its rows go.
    private func deleteRows(_ entity: EntityDescription, _ keys: [Int64], in db: Database, batch: inout BatchChange,
                            store: some SQLiteStore) throws {
        var pending: [(EntityDescription, [Int64])] = [(entity, keys)]
        while !pending.isEmpty {
            let (entity, keys) = pending.removeFirst()
            let cascaded = try deleteLevel(entity, keys, in: db, batch: &batch, store: store)
            pending += cascaded
        }
    }

    /// One level of `deleteRows`: these rows, their nullified and linked rows; returns
    /// the rows their cascade rules reach.
    private func deleteLevel(_ entity: EntityDescription, _ keys: [Int64], in db: Database,
                             batch: inout BatchChange, store: some SQLiteStore) throws -> [(EntityDescription, [Int64])] {
        // A hierarchy's rows share one table and one run of keys, named by their own entity.
        let root = rootName(of: entity.name)
        let already = Set(batch.deleted.filter { rootName(of: $0.key) == root }.flatMap(\.value))
        let keys = keys.filter { !already.contains($0) }
        guard !keys.isEmpty else { return [] }
        for (own, ownKeys) in try keysByOwnEntity(entity, keys, in: db) {
            batch.deleted[own, default: []] += ownKeys
            // Read while the rows are there, before any rule changes them.
            let kept = try store.keptAfterDeletion(of: own, keys: ownKeys, in: db, context: self)
            batch.tombstones[own, default: [:]].merge(kept) { first, _ in first }
        }
        var cascaded: [(EntityDescription, [Int64])] = []
        for relationship in entity.relationships {
            guard let storage = storage(of: relationship, in: entity.name),
                  let destination = managedObjectModel.entitiesByName[relationship.destination] else { continue }
            let related = try relatedKeys(storage, from: entity, to: destination, of: keys, in: db)
            switch relationship.deleteRule {
            case .deny where !related.isEmpty:
                let names = related.prefix(5).map { "\(destination.name)/\($0)" }.joined(separator: ", ")
                throw StoreError.validation(message: "deleteall: '\(relationship.name)' denies deleting \(entity.name) rows while they hold \(names)"
                                            + foreignKeyNote(relationship, of: entity.name))
            case .cascade:
                if !related.isEmpty { cascaded.append((destination, related)) }
            case .nullify:
                if case .inverseForeignKey(_, let column, nil, _) = storage {
                    try forEachChunk(keys) { chunk in
                        try db.execute(sql: "UPDATE \(mapped(destination).table) SET \(quoteIdentifier(column)) = NULL WHERE \(quoteIdentifier(column)) IN (\(marks(chunk.count)))",
                                       arguments: StatementArguments(chunk))
                    }
                }
            case .setdefault:
                if case .inverseForeignKey(_, let column, let ownerKey, _) = storage, !related.isEmpty {
                    // As SQLite does: the children's column takes its default, which must
                    // name a parent row that stays.
                    let value = try columnDefault(column, of: destination, in: db)
                    let going = Set(keys + (batch.deleted[entity.name] ?? []))
                    try checkDefaultParent(value, parent: entity, matchedBy: ownerKey, child: destination.name, column: column, doomed: going, in: db)
                    try forEachChunk(related) { chunk in
                        try db.execute(sql: "UPDATE \(mapped(destination).table) SET \(quoteIdentifier(column)) = ? WHERE \(mapped(destination).key) IN (\(marks(chunk.count)))",
                                       arguments: StatementArguments([value.databaseValue] + chunk.map(\.databaseValue)))
                    }
                }
            default:
                break
            }
            if case .linkTable(let table, let sourceColumn, _) = storage {
                try forEachChunk(keys) { chunk in
                    try db.execute(sql: "DELETE FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) IN (\(marks(chunk.count)))", arguments: StatementArguments(chunk))
                }
            }
        }
        try forEachChunk(keys) { chunk in
            try db.execute(sql: "DELETE FROM \(mapped(entity).table) WHERE \(mapped(entity).key) IN (\(marks(chunk.count)))",
                           arguments: StatementArguments(chunk))
        }
        return cascaded
    }

    private func relatedKeys(_ storage: RelationshipStorage, from source: EntityDescription, to destination: EntityDescription,
                             of keys: [Int64], in db: Database) throws -> [Int64] {
        var result: [Int64] = []
        try forEachChunk(keys) { chunk in
            let sql: String
            switch storage {
            case .inverseForeignKey(_, _, _?, _):
                return  // matched by value (relate): the rules act through objects only
            case .inverseForeignKey(_, let column, nil, _):
                sql = "SELECT \(mapped(destination).key) FROM \(mapped(destination).table) WHERE \(quoteIdentifier(column)) IN (\(marks(chunk.count)))"
            case .linkTable(let table, let sourceColumn, let targetColumn):
                sql = "SELECT \(targetColumn) FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) IN (\(marks(chunk.count)))"
            case .foreignKey(_, _?):
                return
            case .foreignKey(let column, nil):
                sql = "SELECT \(quoteIdentifier(column)) FROM \(mapped(source).table) WHERE \(mapped(source).key) IN (\(marks(chunk.count))) AND \(quoteIdentifier(column)) IS NOT NULL"
            }
            result += try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(chunk))
        }
        return Array(Set(result)).sorted()
    }

    private func matchingKeys(_ entity: EntityDescription, _ filter: BatchFilter?, in db: Database) throws -> [Int64] {
        var sql = "SELECT \(mapped(entity).key) FROM \(mapped(entity).table)"
        if let filter { sql += " WHERE " + filter.sql }
        return try Int64.fetchAll(db, sql: sql, arguments: StatementArguments((filter?.arguments ?? []).map(\.databaseValue)))
    }
}

private func marks(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ",") }

/// Keys 500 at a time: as many as one statement's `IN (?, ...)` takes comfortably.
func forEachChunk(_ keys: [Int64], _ body: ([Int64]) throws -> Void) rethrows {
    var start = 0
    while start < keys.count {
        let end = min(keys.count, start + 500)
        try body(Array(keys[start..<end]))
        start = end
    }
}
