import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

extension CoreDataStore {
    /// A change Quarry cannot write as Core Data would is refused whole, before anything
    /// is written: a store's persistent history (which the app's history processing
    /// reads) is written when Quarry can write it as Core Data does (see
    /// `refuseUnwritableHistory`, and `recordBatchChange` for batch changes); a trigger
    /// that calls a function of Core Data's Quarry lacks cannot run; derived attributes
    /// are the store's to compute.
    package func refuseUnfaithfulWrite(_ operation: String, in session: StoreSession) throws {
        let store = self
        if store.mirrorsToCloudKit, !store.keepsPersistentHistory {
            throw StoreError.during(operation: operation, .database(message: CloudKitMirroring.refusal))
        }
        if store.keepsPersistentHistory {
            if operation == "save" { try refuseUnwritableHistory(in: session) } else { try refuseUnwritableBatchHistory(operation, in: session) }
        }
        if let trigger = try store.triggersMissingFunctions(in: session).first {
            throw StoreError.during(
                operation: operation,
                .database(
                    message:
                        "the store's trigger \(trigger) calls a function of Core Data's that Quarry does not provide, so it cannot run; nothing was written"
                ))
        }
        guard operation == "save" else { return }
        try refuseExhaustedKeys(in: session)
        guard !store.derivedAttributes.isEmpty else { return }
        for object in session.pendingChanges.updated {
            try refuseSetting(object.pending.keys, of: object.entity.name, operation: operation)
        }
    }

    /// Derived attributes are computed by the store's triggers: setting one is refused,
    /// naming it (a new object's are left to the triggers, as Core Data leaves them).
    package func refuseSetting(_ keys: some Sequence<String>, of entity: String, operation: String) throws {
        guard let derived = derivedAttributes[entity] else { return }
        for key in keys.sorted() {
            guard let expression = derived[key] else { continue }
            let how = expression.isEmpty ? "" : " (\(expression))"
            throw StoreError.during(
                operation: operation, .database(message: "\(entity).\(key) is derived by the store\(how) and cannot be set; nothing was written"))
        }
    }
}

extension CoreDataStore {
    /// After a save, the values the store's triggers derived reach the objects in use, as
    /// Core Data's trigger notices bring them to its objects: the derived attributes of
    /// every registered object of an entity that has some are read again. (The save has
    /// committed: should this read fail, the objects keep their values until refreshed.)
    func refreshDerivedAttributes(in session: StoreSession) {
        guard !derivedAttributes.isEmpty else { return }
        for (entityName, keys) in session.registeredKeysByEntity() {
            guard let derived = derivedAttributes[entityName], let entity = session.managedObjectModel.entitiesByName[entityName] else { continue }
            let storage = session.mapped(entity)
            let names = derived.keys.sorted()
            let columns = ([storage.keyColumn] + names).map(quoteIdentifier).joined(separator: ", ")
            for start in stride(from: 0, to: keys.count, by: 500) {
                let chunk = Array(keys[start..<min(keys.count, start + 500)])
                let sql =
                    "SELECT \(columns) FROM \(storage.table) WHERE \(storage.key) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                guard let rows = try? session.connection.read({ db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)) }) else {
                    continue
                }
                for row in rows {
                    guard let key = Int64.fromDatabaseValue(row[0] as DatabaseValue),
                        let object = session.registeredObject(entity: entityName, primaryKey: key)
                    else { continue }
                    for (i, name) in names.enumerated() {
                        guard let attribute = entity.attribute(named: name) else { continue }
                        let value = attribute.type.decode(Value(row[i + 1] as DatabaseValue))
                        if object.committedValue(name) != value { object.committed[name] = value }
                    }
                }
            }
        }
    }
}

extension CoreDataStore {
    /// A save into a store with persistent history writes that history (see
    /// `PersistentHistoryWriter`), or is refused before anything is written when it could
    /// not be written as Core Data writes it: history tables that are not the ones Core
    /// Data makes; a delete of an object whose entity preserves more attributes after
    /// deletion than the store has tombstone columns for; with an inferred model, a delete when the
    /// store keeps tombstones (which attributes they hold is the model's) and an update
    /// (it records its properties by their place in the model's property list).
    func refuseUnwritableHistory(in session: StoreSession) throws {
        let pending = session.pendingChanges
        let updates = !pending.updated.isEmpty || session.hasPendingLinks || session.hasPendingOrders
        let layout = try refuseUnwritableHistory("save", updates: updates, deletes: !pending.deleted.isEmpty, in: session)
        for object in pending.deleted { try refuseUnwritableTombstones(of: object.entity.name, layout: layout, operation: "save") }
    }

    /// The history tables as Core Data makes them, else the refusal; with an inferred
    /// model, refused for deletes when the store keeps tombstones, and for updates.
    @discardableResult
    func refuseUnwritableHistory(_ operation: String, updates: Bool, deletes: Bool, in session: StoreSession) throws -> PersistentHistoryLayout {
        let layout = try session.connection.read { db in try historyLayout(operation: operation, in: db) }
        guard modelSource == "inferred" else { return layout }
        if layout.tombstoneColumns > 0, deletes {
            throw unwritableHistory(
                "keeps tombstones of deleted objects (\(PersistentHistoryLayout.changeTable).ZTOMBSTONE0...) whose attributes an inferred model does not say (give --model MODEL)",
                operation: operation)
        }
        if updates {
            throw unwritableHistory(
                "records an update's properties in the model's order, and this store's model was inferred (give --model MODEL)", operation: operation)
        }
        return layout
    }

    /// A delete of `entity` whose tombstones Quarry cannot write as Core Data does: more
    /// preserved attributes than the store has tombstone columns for.
    func refuseUnwritableTombstones(of entity: String, layout: PersistentHistoryLayout, operation: String) throws {
        let preserved = tombstonedAttributes(of: entity)
        if preserved.count > layout.tombstoneColumns {
            throw unwritableHistory(
                "has no tombstone column for \(entity).\(preserved[layout.tombstoneColumns]), which the model preserves after deletion",
                operation: operation)
        }
    }

    /// The attributes of `entity` the model preserves after deletion, in the order of
    /// their tombstone columns: the model's (inherited first), as Core Data's own rows in
    /// photos/ have them (Album: cloudDeleteState, cloudGUID, uuid in ZTOMBSTONE0...2;
    /// InternalResource: cloudDeleteAssetUUIDWithResourceType, then cloudDeleteState).
    func tombstonedAttributes(of entity: String) -> [String] {
        guard let model else { return [] }
        return model.allAttributes(of: entity).filter { $0.preservesValueInHistoryOnDeletion && !$0.isTransient }.map(\.name)
    }

    /// Inside the save's transaction, before its deletes: each deleted object's tombstone
    /// values, read from its row as Core Data's delete copies them (the raw column values).
    func tombstones(_ deleted: [ManagedObject], in db: Database) throws -> [ObjectIdentifier: [Value]] {
        var result: [ObjectIdentifier: [Value]] = [:]
        for object in deleted {
            guard let key = object.primaryKey else { continue }
            if let values = try tombstones(of: object.entity.name, keys: [key], operation: "save", in: db)[key] {
                result[ObjectIdentifier(object)] = values
            }
        }
        return result
    }

    /// The tombstone values of rows of `entity` (their own entity), by key: the raw values
    /// of the attributes it preserves after deletion, in its columns (suffixed for a
    /// sibling's). Empty when the store keeps no history or the entity preserves nothing.
    func tombstones(of entity: String, keys: [Int64], operation: String, in db: Database) throws -> [Int64: [Value]] {
        let store = self
        guard keepsPersistentHistory else { return [:] }
        let preserved = tombstonedAttributes(of: entity)
        guard !preserved.isEmpty, !keys.isEmpty, let table = store.table(of: entity) else { return [:] }
        let columns = try db.columns(in: table).map(\.name)
        let selected = try preserved.map { name in
            guard let column = store.attributeColumns[entity]?[name] ?? columns.first(where: { $0.uppercased() == "Z" + name.uppercased() }) else {
                throw StoreError.during(
                    operation: operation,
                    .database(message: "\(entity).\(name) is preserved after deletion but \(table) has no column for it; nothing was written"))
            }
            return quoteIdentifier(column)
        }
        var result: [Int64: [Value]] = [:]
        try forEachChunk(keys) { chunk in
            let sql =
                "SELECT Z_PK, \(selected.joined(separator: ", ")) FROM main.\(quoteIdentifier(table)) WHERE Z_PK IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)) {
                guard let key = Int64.fromDatabaseValue(row[0] as DatabaseValue) else { continue }
                result[key] = (1...selected.count).map { Value(row[$0] as DatabaseValue) }
            }
        }
        return result
    }

    /// The rows a save updated, by entity number and key, with the entity their history's
    /// bit vector is of and the keys changed: each updated object's written keys, and the
    /// to-many relationships whose members changed (join rows, positions, or a to-one whose
    /// inverse is a to-many). `written` are the rows the save wrote columns of.
    struct ChangedRows {
        var updates: [RowKey: (entity: String, keys: Set<String>)] = [:]
        var written: Set<RowKey> = []
    }

    /// What `request`'s save changed, as `ChangedRows` says. `links` the join rows added and
    /// removed (each end not inserted or deleted is updated in its to-many relationship, as
    /// the save's observers hear it); `orders` the relationships whose members were placed
    /// by position (their owner is updated in that relationship).
    func changedRows(
        inserted: [(ManagedObject, Int64)], updated: [ManagedObject], deleted: [ManagedObject],
        links: [PendingLink], orders: [PendingOrder], in db: Database, session: StoreSession
    ) throws -> ChangedRows {
        let store = self
        func code(_ object: ManagedObject) -> Int64? { store.mapped(object.entity.name)?.code }
        var result = ChangedRows()
        var changedKeys: [ObjectIdentifier: (object: ManagedObject, keys: Set<String>)] = [:]
        for object in updated {
            let own = Set(session.currentEntity(of: object).ownKeyColumns.map(\.name))
            let keys = Set(object.pending.keys).union(object.pendingToOne.keys.filter(own.contains))
            guard !keys.isEmpty else { continue }
            changedKeys[ObjectIdentifier(object), default: (object, [])].keys.formUnion(keys)
            if let entity = code(object), let key = object.primaryKey { result.written.insert(RowKey(entity: entity, key: key)) }
        }
        let gone = Set((inserted.map(\.0) + deleted).map(ObjectIdentifier.init))
        for link in links {
            for object in [link.source, link.target] where !gone.contains(ObjectIdentifier(object)) && object.primaryKey != nil {
                let names = session.currentEntity(of: object).relationships.filter { relationship in
                    guard case .linkTable(let table, _, _)? = session.storage(of: relationship, in: object.entity.name) else { return false }
                    return table == link.table
                }.map(\.name)
                changedKeys[ObjectIdentifier(object), default: (object, [])].keys.formUnion(names)
            }
        }
        for order in orders where !gone.contains(ObjectIdentifier(order.owner)) && order.owner.primaryKey != nil {
            changedKeys[ObjectIdentifier(order.owner), default: (order.owner, [])].keys.insert(order.name)
        }
        for (object, keys) in changedKeys.values {
            guard let entity = code(object), let key = object.primaryKey else { continue }
            result.updates[RowKey(entity: entity, key: key), default: (object.entity.name, [])].keys.formUnion(keys)
        }
        for (row, owner) in try toManyOwners(of: inserted.map(\.0) + updated, gone: gone, in: db) {
            result.updates[row, default: (owner.entity, [])].keys.insert(owner.name)
        }
        return result
    }

    /// Core Data's optimistic locking counts a change to an object's to-many as a write of
    /// it: its `Z_OPT` goes up by 1 though none of its columns changed, as the SwiftData
    /// store of a trial shows (a recipe's `Z_OPT` rose with each component added to it).
    /// The rows the save wrote columns of went up already, through their views.
    func raiseVersionsOfToManyOwners(_ changed: ChangedRows, in db: Database) throws {
        for row in changed.updates.keys.sorted(by: { ($0.key, $0.entity) < ($1.key, $1.entity) }) where !changed.written.contains(row) {
            guard let table = entities.first(where: { $0.code == row.entity })?.table else { continue }
            try db.execute(sql: "UPDATE main.\(quoteIdentifier(table)) SET Z_OPT = coalesce(Z_OPT, 0) + 1 WHERE Z_PK = ?", arguments: [row.key])
        }
    }

    /// Inside the save's transaction, once its rows are written: the history Core Data
    /// would write for it, when the store keeps history. `inserted` are the new objects
    /// with their keys; `changed` the rows updated (`changedRows`); `deleted` the deleted ones.
    func writeHistory(
        inserted: [(ManagedObject, Int64)], changed: ChangedRows, deleted: [ManagedObject],
        tombstones: [ObjectIdentifier: [Value]], in db: Database, session: StoreSession
    ) throws {
        let store = self
        guard keepsPersistentHistory else { return }
        let layout = try historyLayout(operation: "save", in: db)
        func code(_ object: ManagedObject) -> Int64? { store.mapped(object.entity.name)?.code }
        var changes: [PersistentHistoryWriter.Change] = []
        for (object, key) in inserted.sorted(by: { $0.1 < $1.1 }) {
            guard let entity = code(object) else { continue }
            changes.append(.init(type: .insert, entity: entity, key: key))
        }
        for (row, update) in changed.updates.sorted(by: { ($0.key.key, $0.key.entity) < ($1.key.key, $1.key.entity) }) {
            guard let model = store.model else { continue }
            let columns = PersistentHistoryColumns.columns(changed: update.keys, of: update.entity, in: model)
            changes.append(.init(type: .update, entity: row.entity, key: row.key, columns: columns))
        }
        for object in deleted.sorted(by: { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }) {
            guard let entity = code(object), let key = object.primaryKey else { continue }
            changes.append(.init(type: .delete, entity: entity, key: key, tombstones: tombstones[ObjectIdentifier(object)] ?? []))
        }
        try writeHistory(changes, layout: layout, operation: "save", in: db, session: session)
    }

    /// A row of the store: its entity number (`Z_ENT`) and key (`Z_PK`).
    struct RowKey: Hashable {
        var entity: Int64
        var key: Int64
    }

    /// The owners whose to-many a save's to-one assignments changed (issue 81): a to-one
    /// whose inverse is a to-many (`UsageCountedItem.block`, inverse `UsageBlock.countedItems`)
    /// moves its object out of the old owner's to-many and into the new one's, and Core Data
    /// records an update of both owners with that to-many's bit set, as Screen Time's own
    /// rows show. Owners inserted or deleted by the save (`gone`) have no update.
    private func toManyOwners(of objects: [ManagedObject], gone: Set<ObjectIdentifier>, in db: Database) throws -> [(
        RowKey, (entity: String, name: String)
    )] {
        guard let model else { return [] }
        var owners: [(RowKey, (entity: String, name: String))] = []
        for object in objects where !object.pendingToOne.isEmpty {
            let relationships = model.allRelationships(of: object.entity.name)
            for (name, target) in object.pendingToOne {
                guard let relationship = relationships.first(where: { $0.name == name && !$0.isToMany }),
                    let inverseName = relationship.inverse,
                    let destination = mapped(relationship.destination)
                else { continue }
                let old: Int64? = { if case .integer(let k)? = object.committedValue(name) { return k } else { return nil } }()
                // Set to the owner it had: no to-many changed.
                if let target, target.primaryKey != nil, target.primaryKey == old { continue }
                // The new owner, when it was saved before this save.
                if let target, !gone.contains(ObjectIdentifier(target)), let key = target.primaryKey, let code = mapped(target.entity.name)?.code,
                    isToMany(inverseName, of: target.entity.name, in: model)
                {
                    owners.append((RowKey(entity: code, key: key), (target.entity.name, inverseName)))
                }
                // The old owner, as the object last read it; its entity is the row's own.
                guard let old,
                    let number = try Int64.fetchOne(
                        db, sql: "SELECT Z_ENT FROM main.\(quoteIdentifier(destination.table)) WHERE Z_PK = ?", arguments: [old]),
                    let entity = entities.first(where: { $0.code == number })?.entity.name,
                    isToMany(inverseName, of: entity, in: model)
                else { continue }
                owners.append((RowKey(entity: number, key: old), (entity, inverseName)))
            }
        }
        return owners
    }

    private func isToMany(_ name: String, of entity: String, in model: CoreDataModel) -> Bool {
        model.allRelationships(of: entity).contains { $0.name == name && $0.isToMany }
    }

    /// The store's history tables, or the refusal that says how they differ from Core Data's.
    func historyLayout(operation: String, in db: Database) throws -> PersistentHistoryLayout {
        switch try PersistentHistoryLayout.read(db) {
        case .success(let found): return found
        case .failure(let problem): throw unwritableHistory(problem.text, operation: operation)
        }
    }

    func unwritableHistory(_ reason: String, operation: String) -> StoreError {
        StoreError.during(
            operation: operation,
            .database(
                message: "this Core Data store's persistent history \(reason), so Quarry cannot write it as Core Data does; nothing was written"))
    }

    /// Writes one transaction of `changes`, as this context's author.
    func writeHistory(
        _ changes: [PersistentHistoryWriter.Change], layout: PersistentHistoryLayout, operation: String,
        in db: Database, session: StoreSession
    ) throws {
        do {
            // This context's own transaction is no outside change when it next looks for some.
            if let token = try PersistentHistoryWriter(layout: layout, author: session.author ?? "quarry").write(changes, in: db) {
                session.noteOwnHistory(token)
            }
        } catch let problem as PersistentHistoryLayout.Problem {
            throw unwritableHistory(problem.text, operation: operation)
        }
    }
}

extension CoreDataStore {
    /// `history{}` on a Core Data store reads the store's own persistent history (the app's
    /// saves and Quarry's alike): tokens are Core Data's transaction numbers, times are
    /// seconds since 1970 as for Quarry's own history, and changes name objects by the
    /// row's own entity. Rows of entities the model does not map are left out.
    /// The app prunes its own persistent history (`NSPersistentHistoryChangeRequest
    /// .deleteHistory`), when every reader of it (its other processes, the CloudKit mirror
    /// exporting from it) has seen the changes: Quarry cannot know that, so it deletes none
    /// and says so, rather than answering that nothing was there to prune.
    package func pruneHistory(through token: Int64, session: StoreSession) throws -> Int {
        throw StoreError.during(
            operation: "history.prune",
            .database(
                message:
                    "a Core Data store's persistent history is the app's to prune (NSPersistentHistoryChangeRequest.deleteHistory), once its readers have seen it; nothing was deleted"
            ))
    }

    package func history(since: Int64?, author: String?, session: StoreSession) throws -> [HistoryTransaction] {
        let store = self
        let names = Dictionary(store.entities.map { ($0.code, $0.entity.name) }, uniquingKeysWith: { first, _ in first })
        let transactions = try session.connection.read { db in try PersistentHistoryReader.transactions(after: since ?? 0, author: author, in: db) }
        return transactions.map { transaction in
            var result = HistoryTransaction(
                token: transaction.token, time: transaction.timestamp + CoreDataStore.epochOffset,
                author: transaction.author, inserted: [], updated: [], deleted: [])
            for change in transaction.changes {
                guard let name = names[change.entity] else { continue }
                let id = "\(name)/\(change.key)"
                switch change.type {
                case .insert: result.inserted.append(id)
                case .update: result.updated.append(id)
                case .delete: result.deleted.append(id)
                }
            }
            return result
        }
    }
}
