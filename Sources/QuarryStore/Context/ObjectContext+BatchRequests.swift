import QuarryModel

/// What a store wrote for `updateall`: the rows' keys, by their own entity too, and the
/// values as they read back (a foreign file's formats).
package struct BatchUpdateWritten {
    var keys: [Int64]
    package var byEntity: [String: [Int64]]
    package var assignments: [(String, Value)]
    /// The rows of objects in use as the store holds them after the change, where it may
    /// differ from `assignments` (a server's types and triggers), by key.
    package var stored: [Int64: [String: Value]] = [:]
}

/// A WHERE clause for a batch change, with its arguments (built by the predicate layer).
public struct BatchFilter {
    public var sql: String
    public var arguments: [Value]
    public init(sql: String, arguments: [Value]) {
        self.sql = sql
        self.arguments = arguments
    }
}

extension ObjectContext {
    /// `Item:updateall(...)`: one UPDATE statement, no objects loaded. Registered objects
    /// take the new stored values (their own unsaved edits stay), and listeners hear it.
    public func batchUpdate(_ entityName: String, where filter: BatchFilter?, set values: [String: Value]) throws -> Int {
        try checkWrite("updateall")
        let entity = try entity(named: entityName)
        if mapped(entity).isView { throw StoreError.viewIsReadOnly(entity: entity.name) }
        try store.refuseSetting(values.keys, of: entity.name, operation: "updateall")
        // The key column is the objects' identity (see `ManagedObject.setValue`).
        if values[mapped(entity).keyColumn] != nil, entity.attribute(named: mapped(entity).keyColumn) != nil {
            throw StoreError.during(
                operation: "updateall",
                .database(
                    message:
                        "\(entity.name).\(mapped(entity).keyColumn) is the key of \(entity.name)'s objects, which saved objects keep; nothing was written"
                ))
        }
        var assignments: [(String, Value)] = []
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.writableAttribute(named: key) else { throw entity.unknownKey(key) }
            switch attribute.coerce(value) {
            case .success(let v):
                noteDayColumn(entity, key, v)
                if v.isNull, !attribute.isOptional {
                    throw StoreError.typeMismatch(entity: entity.name, key: key, expected: "\(attribute.type.rawValue) (not optional)", given: "nil")
                }
                assignments.append((key, v))
            case .failure(let f):
                throw StoreError.typeMismatch(entity: entity.name, key: key, expected: f.expected, given: describe(f.given) + f.accepted)
            }
        }
        guard !assignments.isEmpty else { return 0 }
        try refuseInexactDecimals(assignments, of: entity, operation: "updateall")
        let written = try store.writeBatchUpdate(entity, where: filter, set: assignments, session: session)
        let keys = written.keys
        let byEntity = written.byEntity
        assignments = written.assignments
        guard !keys.isEmpty else { return 0 }
        var changes = ChangeSet()
        for k in keys {
            guard let object = registeredObject(entity: entity.name, primaryKey: k) else { continue }
            changes.oldValues[ObjectIdentifier(object)] = object.committed
            var changed = Set(assignments.map(\.0))
            if let stored = written.stored[k] {
                changed.formUnion(stored.keys.filter { !Value.sameStored(stored[$0] ?? .null, object.committedValue($0) ?? .null) })
                object.committed.merge(stored) { _, new in new }
            } else {
                for (name, value) in assignments { object.committed[name] = value }
            }
            changes.updated.append((object, changed))
        }
        for (name, keys) in byEntity { changes.batchUpdated[name] = Set(keys) }
        addReloadedViews(to: &changes)
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
        try batchDeleteRows(entityName, where: filter).count
    }

    /// What `deleteall` removed: `count` rows of the entity asked for (its sub-entities'
    /// included), and by entity the rows its cascade rules took from others, which the
    /// count leaves out and the REPL names in a note.
    public struct BatchDeleted {
        public var count: Int
        public var cascaded: [String: Int]
    }

    /// `batchDelete`, saying also what the delete rules took from other entities.
    public func batchDeleteRows(_ entityName: String, where filter: BatchFilter?) throws -> BatchDeleted {
        try checkWrite("deleteall")
        let entity = try entity(named: entityName)
        if mapped(entity).isView { throw StoreError.viewIsReadOnly(entity: entity.name) }
        let deleted = try store.writeBatchDelete(entity, where: filter, session: session)
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
        addReloadedViews(to: &changes)
        bumpGeneration()
        notify(changes)
        let own = deleted.filter { isKind($0.key, of: entity.name) }.reduce(0) { $0 + $1.value.count }
        let cascaded = deleted.filter { !isKind($0.key, of: entity.name) && !$0.value.isEmpty }.mapValues(\.count)
        return BatchDeleted(count: own, cascaded: cascaded)
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
                let moved = Set(fresh.keys.filter { !Value.sameStored(fresh[$0] ?? .null, object.committedValue($0) ?? .null) })
                guard !moved.isEmpty else { continue }
                changes.oldValues[ObjectIdentifier(object)] = object.committed
                object.committed.merge(fresh) { _, new in new }
                changes.updated.append((object, moved))
            }
        }
    }
}
