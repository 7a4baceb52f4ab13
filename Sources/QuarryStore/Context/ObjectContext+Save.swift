import GRDB

/// How `save` settles a conflict with another connection's change (Core Data's policies).
public enum MergePolicy: String {
    /// Refuse, name the objects and keys, write nothing.
    case error
    /// Store trump: keys the other connection changed keep its values.
    case store
    /// Object trump: this context's changes are written over theirs.
    case mine
}

/// What one `save()` wrote.
public struct SaveSummary: Equatable, Sendable {
    public var inserted = 0, updated = 0, deleted = 0
    public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
        self.inserted = inserted; self.updated = updated; self.deleted = deleted
    }
}

extension ObjectContext {
    /// Writes every pending insert, update and delete in one transaction. Validation runs
    /// first over every pending object; on any error nothing is written and the pending
    /// changes stay as they were.
    @discardableResult
    public func save(merge policy: MergePolicy = .error) throws -> SaveSummary {
        guard hasChanges else { return SaveSummary() }
        if isReadOnly { throw StoreError.readOnly(operation: "save") }
        try refuseUnfaithfulCoreDataWrite("save")
        let inserts = unsaved.inserted
        var updates = unsaved.updated.values.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }
        var deletes = unsaved.deleted.values.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }
        try validateForSave(inserts + updates)
        let coreDataPlan = try plannedCoreDataSave(inserts: inserts)

        var newKeys: [Int64] = []
        let links = unsaved.links
        // What the merge policy did, applied to the objects only once the save commits.
        var adopted: [(ManagedObject, [String: Value])] = []
        var dropped: [(ManagedObject, Set<String>)] = []
        // Values a file Quarry did not create keeps in another form: the objects take them as
        // they read back, once the save commits.
        var readBacks: [(ManagedObject, String, Value)] = []
        do {
            try database.write { db in
                // Optimistic locking: a row changed by another connection since it was read
                // is a conflict, settled by the policy or refused with nothing written.
                let conflicts = try findConflicts(updates + deletes, in: db)
                if !conflicts.isEmpty {
                    if policy == .error {
                        throw StoreError.conflict(conflicts.map { ConflictedObject(objectID: $0.object.objectID, keys: $0.keys.sorted(), deleted: $0.stored == nil) })
                    }
                    // Both policies take the stored row as the new snapshot; store trump also
                    // gives up this context's edits of the keys the other side changed. A row
                    // the other side deleted is neither updated nor deleted again.
                    for conflict in conflicts {
                        guard let stored = conflict.stored else { continue }
                        adopted.append((conflict.object, stored))
                        if policy == .store { dropped.append((conflict.object, conflict.keys)) }
                    }
                    let gone = Set(conflicts.filter { $0.stored == nil }.map { ObjectIdentifier($0.object) })
                    updates.removeAll { gone.contains(ObjectIdentifier($0)) }
                    deletes.removeAll { gone.contains(ObjectIdentifier($0)) }
                }
                // Under "store", their values win for the keys they changed.
                let droppedKeys = Dictionary(dropped.map { (ObjectIdentifier($0.0), $0.1) }, uniquingKeysWith: { $0.union($1) })
                for object in updates {
                    for key in droppedKeys[ObjectIdentifier(object)] ?? [] { object.pending[key] = nil }
                }
                // Keys of objects inserted in this transaction, for links that point at them.
                var inserted: [ObjectIdentifier: Int64] = [:]
                func key(_ object: ManagedObject?) -> DatabaseValue {
                    guard let object else { return .null }
                    return (object.primaryKey ?? inserted[ObjectIdentifier(object)])?.databaseValue ?? .null
                }
                var laterLinks: [ManagedObject] = []
                var formats = ColumnFormats()
                func stored(_ object: ManagedObject, _ name: String, _ value: Value) throws -> DatabaseValue {
                    let entity = currentEntity(of: object)
                    let written: DatabaseValue
                    do { written = try storedValue(value, entity, name, in: db, cache: &formats) }
                    catch let error as StoreError { throw StoreError.during(operation: "save", error) }
                    if written != value.databaseValue { readBacks.append((object, name, readBack(written, entity, name))) }
                    return written
                }
                for object in inserts {
                    let entity = currentEntity(of: object)
                    let toOne = entity.ownKeyColumns.map(\.name)
                    let names = entity.attributeNames + toOne
                    let columns = names.map(quoteIdentifier).joined(separator: ", ")
                    let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
                    let sql = names.isEmpty
                        ? "INSERT INTO \(mapped(entity).table) DEFAULT VALUES"
                        : "INSERT INTO \(mapped(entity).table) (\(columns)) VALUES (\(marks))"
                    var values = try entity.attributeNames.map { try stored(object, $0, object.currentValue($0)) }
                    for name in toOne {
                        let target = object.pendingToOne[name] ?? nil
                        if let target, target.primaryKey == nil, inserted[ObjectIdentifier(target)] == nil { laterLinks.append(object) }
                        values.append(key(target))
                    }
                    // Cached: compiling an insert through a sub-entity's view compiles its trigger too.
                    try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values))
                    // A WITHOUT ROWID table sets no last rowid: its key is the one the row was given.
                    let given: Int64? = { if case .integer(let k) = object.currentValue(mapped(entity).keyColumn) { return k } else { return nil } }()
                    let newKey = try mapped(entity).keyMayHoldOthers ? (given ?? insertedKey(of: entity, in: db)) : insertedKey(of: entity, in: db)
                    newKeys.append(newKey)
                    inserted[ObjectIdentifier(object)] = newKey
                }
                // Inserted objects pointing at objects inserted after them.
                for object in laterLinks { try writeToOne(object, key: key, in: db) }
                for object in updates {
                    // Attributes and to-one keys in one statement: one change of a row is one
                    // UPDATE (a Core Data store's Z_OPT goes up once per save, as Core Data's).
                    let changed = object.pending.keys.sorted()
                    let ownKeys = Set(currentEntity(of: object).ownKeyColumns.map(\.name))
                    let links = object.pendingToOne.keys.sorted().filter(ownKeys.contains)
                    guard let primaryKey = object.primaryKey, !(changed.isEmpty && links.isEmpty) else { continue }
                    let assignments = (changed + links).map { "\(quoteIdentifier($0)) = ?" }.joined(separator: ", ")
                    let values = try changed.map { try stored(object, $0, object.pending[$0] ?? .null) }
                        + links.map { key(object.pendingToOne[$0] ?? nil) } + [primaryKey.databaseValue]
                    try db.execute(sql: "UPDATE \(mapped(object.entity).table) SET \(assignments) WHERE \(mapped(object.entity).key) = ?",
                                   arguments: StatementArguments(values))
                }
                // A file Quarry did not create keeps a link in an attribute column (author_id),
                // which held no key while its target was unsaved: it learns the new key here.
                for object in inserts + updates {
                    let entity = currentEntity(of: object)
                    for (name, target) in object.pendingToOne {
                        guard let target, target.primaryKey == nil, let newKey = inserted[ObjectIdentifier(target)],
                              let relationship = entity.relationship(named: name), relationship.targetKey == nil,
                              let column = relationship.column, entity.attribute(named: column) != nil else { continue }
                        try db.execute(sql: "UPDATE \(mapped(object.entity).table) SET \(quoteIdentifier(column)) = ? WHERE \(mapped(object.entity).key) = ?",
                                       arguments: [newKey, key(object)])
                    }
                }
                for link in links {
                    let sql = link.isAdd
                        ? "INSERT OR IGNORE INTO \(quoteIdentifier(link.table)) (source, target) VALUES (?, ?)"
                        : "DELETE FROM \(quoteIdentifier(link.table)) WHERE source = ? AND target = ?"
                    try db.execute(sql: sql, arguments: [key(link.source), key(link.target)])
                }
                try finishCoreDataSave(coreDataPlan, key: key, in: db)
                try recordHistory(inserted: inserts.compactMap { object in inserted[ObjectIdentifier(object)].map { "\(object.entity.name)/\($0)" } },
                                  updated: updates.map(\.objectID), deleted: deletes.map(\.objectID), in: db)
                let tombstones = try coreDataTombstones(deletes, in: db)
                for object in deletes {
                    try db.execute(sql: "DELETE FROM \(mapped(object.entity).table) WHERE \(mapped(object.entity).key) = ?",
                                   arguments: [object.primaryKey!])
                    // Its links go with it, whatever the rules did to the objects.
                    for relationship in currentEntity(of: object).relationships {
                        guard case .linkTable(let table, let sourceColumn, _)? = storage(of: relationship, in: object.entity.name) else { continue }
                        try db.execute(sql: "DELETE FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) = ?", arguments: [object.primaryKey!])
                    }
                }
                // A Core Data store's persistent history, in the same transaction.
                try writeCoreDataHistory(inserted: inserts.compactMap { o in inserted[ObjectIdentifier(o)].map { (o, $0) } },
                                         updated: updates, deleted: deletes, tombstones: tombstones, links: links, in: db)
            }
        } catch let error as DatabaseError {
            // Over a Core Data store, SQLite names Z-tables and Z-columns: say the model's names.
            if let store = coreData, case .database(let message) = StoreError(error) { throw StoreError.database(message: store.inModelNames(message)) }
            throw StoreError(error)
        }

        var changes = ChangeSet()
        changes.inserted = inserts
        changes.updated = updates.map { ($0, Set($0.pending.keys).union($0.pendingToOne.keys)) }
        for object in updates { changes.oldValues[ObjectIdentifier(object)] = object.committed }
        changes.deleted = deletes
        // Link changes are changes of both ends' to-many keys.
        for link in links {
            for (object, other) in [(link.source, link.target), (link.target, link.source)] where !object.isInserted && !deletes.contains(where: { $0 === object }) {
                let keys = currentEntity(of: object).relationships.filter { r in
                    r.destination == other.entity.name && r.isToMany
                }.map(\.name)
                if let i = changes.updated.firstIndex(where: { $0.object === object }) { changes.updated[i].keys.formUnion(keys) }
                else if !changes.inserted.contains(where: { $0 === object }) { changes.updated.append((object, Set(keys))) }
            }
        }
        // The transaction committed: only now does the in-memory graph change.
        for (object, stored) in adopted { object.committed.merge(stored) { _, theirs in theirs } }
        for (object, key) in zip(inserts, newKeys) {
            object.primaryKey = key
            object.committed = object.pending
            // A key column that is also an attribute (a file Quarry did not create: `id`)
            // reads the key SQLite gave the row.
            if (object.pending[mapped(object.entity).keyColumn] ?? .null).isNull, currentEntity(of: object).attribute(named: mapped(object.entity).keyColumn) != nil {
                object.committed[mapped(object.entity).keyColumn] = .integer(key)
            }
            // Read before `pending` is cleared here (updates below read it the same way).
            object.commitLinkColumns(of: currentEntity(of: object))
            object.pending = [:]
            object.isInserted = false
            register(object)
        }
        for object in inserts + updates {
            object.committed.merge(object.pending) { _, new in new }
            let entity = currentEntity(of: object)
            object.commitLinkColumns(of: entity)
            object.pending = [:]
            for (name, target) in object.pendingToOne {
                let targetKey = entity.relationship(named: name)?.targetKey
                object.committed[name] = target.flatMap { t in targetKey.map { t.currentValue($0) } ?? t.primaryKey.map(Value.integer) } ?? .null
                // Its attribute column too, when the target was inserted in this save.
                if let relationship = entity.relationship(named: name), targetKey == nil, let column = relationship.column,
                   entity.attribute(named: column) != nil, let t = target, let k = t.primaryKey {
                    object.committed[column] = .integer(k)
                }
            }
            object.pendingToOne = [:]
        }
        for (object, name, value) in readBacks { object.committed[name] = value }
        unsaved.links = []
        forgetCoreDataPending()
        for object in deletes {
            unregister(object)
            object.context = nil
        }
        unsaved.inserted = []
        unsaved.updated = [:]
        unsaved.deleted = [:]
        pruneRegistrations()
        refreshDerivedAttributes()
        bumpGeneration()
        // The user wrote to the file: closing may now checkpoint it.
        allowCheckpointOnClose()
        notify(changes)
        return SaveSummary(inserted: inserts.count, updated: updates.count, deleted: deletes.count)
    }

    private struct Conflict {
        let object: ManagedObject
        let keys: Set<String>
        /// The row as stored now; nil when another connection deleted it.
        let stored: [String: Value]?
    }

    /// Rows that differ from what this context read (Core Data's snapshots).
    private func findConflicts(_ objects: [ManagedObject], in db: Database) throws -> [Conflict] {
        var conflicts: [Conflict] = []
        for object in objects {
            guard let key = object.primaryKey else { continue }
            let entity = currentEntity(of: object)
            let sql = "SELECT \(mapped(entity).selection(of: entity)) FROM \(mapped(entity).table) WHERE \(mapped(entity).key) = ?"
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [key]) else {
                conflicts.append(Conflict(object: object, keys: [], stored: nil))
                continue
            }
            let stored = values(of: entity, row: row)
            let changed = Set(stored.keys.filter { stored[$0] != (object.committed[$0] ?? .null) })
            if !changed.isEmpty { conflicts.append(Conflict(object: object, keys: changed, stored: stored)) }
            // Core Data's version counter also sees writes to columns the model does not map.
            else if try coreDataVersionMoved(object, in: db) { conflicts.append(Conflict(object: object, keys: ["Z_OPT"], stored: stored)) }
        }
        return conflicts
    }

    /// Writes an object's pending to-one keys.
    private func writeToOne(_ object: ManagedObject, key: (ManagedObject?) -> DatabaseValue, in db: Database) throws {
        let own = Set(currentEntity(of: object).ownKeyColumns.map(\.name))
        let names = object.pendingToOne.keys.sorted().filter(own.contains)
        guard !names.isEmpty, let ownKey = object.primaryKey.map({ $0.databaseValue }) ?? Optional(key(object)), !ownKey.isNull else { return }
        let assignments = names.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: ", ")
        let values = names.map { key(object.pendingToOne[$0] ?? nil) } + [ownKey]
        try db.execute(sql: "UPDATE \(mapped(object.entity).table) SET \(assignments) WHERE \(mapped(object.entity).key) = ?",
                       arguments: StatementArguments(values))
    }

    /// Whether a to-one relationship has a target that is not being deleted, without
    /// loading it (a stored link to a row deleted in this save counts as none).
    private func hasTarget(_ name: String, _ object: ManagedObject) -> Bool {
        if let pending = object.pendingToOne[name] { return pending.map { !$0.isDeleted } ?? false }
        guard let value = object.committedValue(name), !value.isNull else { return false }
        guard case .integer(let key) = value, let relationship = currentEntity(of: object).relationship(named: name),
              relationship.targetKey == nil, let target = registeredObject(entity: relationship.destination, primaryKey: key) else { return true }
        return !target.isDeleted
    }

    private func validateForSave(_ objects: [ManagedObject]) throws {
        var problems: [String] = []
        for object in objects {
            for attribute in object.entity.attributes where !attribute.isOptional {
                if object.currentValue(attribute.name).isNull {
                    problems.append("\(object.objectID).\(attribute.name) is required but nil")
                }
            }
            for relationship in currentEntity(of: object).relationships where relationship.isRequired == true && !relationship.isToMany {
                if !hasTarget(relationship.name, object) {
                    problems.append("\(object.objectID).\(relationship.name) is required but nil")
                }
            }
        }
        guard problems.isEmpty else {
            let shown = problems.prefix(5).joined(separator: "; ") + (problems.count > 5 ? "; and \(problems.count - 5) more" : "")
            throw StoreError.validation(message: "save: " + shown)
        }
    }

    /// Discards every pending change: inserted objects are forgotten, changed ones go
    /// back to their stored values, deleted ones come back. Returns what was discarded,
    /// for observers (nothing stored changed, so change listeners hear nothing).
    @discardableResult
    public func rollback() -> RolledBack {
        let discarded = changesToDiscard()
        for object in unsaved.inserted {
            object.isInserted = false
            object.isDeleted = true
            object.context = nil
        }
        for object in unsaved.updated.values { object.pending = [:]; object.pendingToOne = [:] }
        for object in unsaved.deleted.values {
            object.isDeleted = false
            object.pending = [:]
            object.pendingToOne = [:]
        }
        unsaved.links = []
        forgetCoreDataPending()
        unsaved.inserted = []
        unsaved.updated = [:]
        unsaved.deleted = [:]
        bumpGeneration()
        return discarded
    }
}
