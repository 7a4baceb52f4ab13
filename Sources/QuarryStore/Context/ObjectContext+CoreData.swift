import GRDB

/// A store written by Core Data opens as its model's entities (see `CoreDataStore`):
/// found on open, without a flag, and read through temporary views, so opening changes
/// nothing in the file.
extension ObjectContext {
    /// Maps a Core Data store's entities when the file is one; returns whether it was.
    func loadCoreDataStore() throws -> Bool {
        let isCoreData = try read { db in try CoreDataStore.isCoreDataStore(db) }
        guard isCoreData else { return false }
        let store: CoreDataStore
        do {
            store = try database.writeWithoutTransaction { db in
                let store = try CoreDataStore.read(db, path: path ?? ":memory:", modelPath: modelPath)
                try store.install(db)
                return store
            }
        } catch let error as ModelFileError {
            throw StoreError.database(message: "\(error)")
        }
        coreData = store
        openingNotes += store.notes
        for mapped in store.entities { remember(mapped.entity) }
        return true
    }
}

extension ObjectContext {
    /// A change Quarry cannot write as Core Data would is refused whole, before anything
    /// is written: the store's persistent history (which the app's history processing
    /// reads) is not written by Quarry yet.
    func refuseUnfaithfulCoreDataWrite(_ operation: String) throws {
        guard let store = coreData else { return }
        if store.keepsPersistentHistory {
            throw StoreError.database(message: "\(operation): this Core Data store keeps persistent history, which Quarry does not write yet; nothing was written")
        }
        if let trigger = store.triggersMissingFunctions.first {
            throw StoreError.database(message: "\(operation): the store's trigger \(trigger) calls a function of Core Data's that Quarry does not provide, so it cannot run; nothing was written")
        }
        guard operation == "save", !store.derivedAttributes.isEmpty else { return }
        for object in updatedObjects.values.sorted(by: { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }) {
            try refuseDerivedAttributes(object.entity.name, keys: object.pending.keys, operation: operation)
        }
    }

    /// Derived attributes are computed by the store's triggers: setting one is refused,
    /// naming it (a new object's are left to the triggers, as Core Data leaves them).
    public func refuseDerivedAttributes(_ entity: String, keys: some Sequence<String>, operation: String) throws {
        guard let derived = coreData?.derivedAttributes[entity] else { return }
        for key in keys.sorted() {
            guard let expression = derived[key] else { continue }
            let how = expression.isEmpty ? "" : " (\(expression))"
            throw StoreError.database(message: "\(operation): \(entity).\(key) is derived by the store\(how) and cannot be set; nothing was written")
        }
    }
}

/// What the context keeps for a Core Data store: when each object was last pointed at an
/// owner (members added to an ordered one-to-many come in the order they were added, as
/// an ordered set appends), the order values read until the store changes, and the
/// `Z_OPT` of each changed object when it was first changed (optimistic locking).
struct CoreDataBookkeeping {
    var versions: [ObjectIdentifier: Int64] = [:]
    var stamps: [ObjectIdentifier: Int] = [:]
    var nextStamp = 0
    var generation = -1
    var positions: [String: [Int64: Int64]] = [:]
}

/// One ordered relationship a save rewrites the order of: its members in their new order,
/// and the order values they had under this owner before the save.
struct OrderedRewrite {
    let ordering: CoreDataStore.Ordering
    let owner: ManagedObject
    let members: [ManagedObject]
    let old: [Int64: Int64]
}

extension ObjectContext {
    /// Notes that `member` was just pointed at a new owner through a to-one relationship.
    func noteOrderedAddition(_ member: ManagedObject) {
        guard coreData?.orderings.isEmpty == false else { return }
        coreDataState.nextStamp += 1
        coreDataState.stamps[ObjectIdentifier(member)] = coreDataState.nextStamp
    }

    /// Members not yet saved in the relationship, in the order they were added.
    func inAdditionOrder(_ members: [ManagedObject]) -> [ManagedObject] {
        members.enumerated().sorted { a, b in
            let x = coreDataState.stamps[ObjectIdentifier(a.element)] ?? Int.max, y = coreDataState.stamps[ObjectIdentifier(b.element)] ?? Int.max
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// The saved members of `owner.name`, in Core Data's order when the relationship is
    /// ordered (by `Z_FOK_`, then by key for members without a value), else as given.
    func inStoredOrder(_ saved: [ManagedObject], _ name: String, of owner: ManagedObject) throws -> [ManagedObject] {
        guard let ordering = coreData?.ordering(of: owner.entity.name, name), let key = owner.primaryKey, saved.count > 1 else { return saved }
        let positions = try storedPositions(ordering, owner: key)
        return saved.sorted { a, b in
            let x = a.primaryKey.flatMap { positions[$0] } ?? Int64.max, y = b.primaryKey.flatMap { positions[$0] } ?? Int64.max
            return x != y ? x < y : (a.primaryKey ?? 0) < (b.primaryKey ?? 0)
        }
    }

    private func storedPositions(_ ordering: CoreDataStore.Ordering, owner: Int64) throws -> [Int64: Int64] {
        if coreDataState.generation != generation {
            coreDataState.positions = [:]
            coreDataState.generation = generation
        }
        let cacheKey = "\(ordering.table).\(ordering.orderColumn).\(owner)"
        if let known = coreDataState.positions[cacheKey] { return known }
        guard let store = coreData else { return [:] }
        let positions = try read { db in try store.positions(ordering, owner: owner, in: db) }
        coreDataState.positions[cacheKey] = positions
        return positions
    }

    /// Before a save: every ordered relationship whose members change, with its members
    /// in their new order (read now, while the context can still read).
    func plannedOrderRewrites() throws -> [OrderedRewrite] {
        guard let store = coreData, !store.orderings.isEmpty else { return [] }
        var touched: [(ManagedObject, String)] = []
        func touch(_ owner: ManagedObject, _ name: String) {
            if !touched.contains(where: { $0.0 === owner && $0.1 == name }) { touched.append((owner, name)) }
        }
        // One-to-many: members pointed at an owner.
        for member in insertedObjects + updatedObjects.values.sorted(by: { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }) {
            for (name, target) in member.pendingToOne {
                guard let owner = target ?? nil, !owner.isDeleted,
                      let inverse = currentEntity(of: member).relationship(named: name)?.inverse,
                      store.ordering(of: owner.entity.name, inverse) != nil else { continue }
                touch(owner, inverse)
            }
        }
        // Many-to-many: join rows added, seen from each end.
        for link in pendingLinks where link.isAdd {
            for owner in [link.source, link.target] where !owner.isDeleted {
                for r in currentEntity(of: owner).relationships where r.isToMany && store.ordering(of: owner.entity.name, r.name) != nil {
                    guard case .linkTable(let table, let sourceColumn, _)? = storage(of: r, in: owner.entity.name), table == link.table,
                          (sourceColumn == "source" ? link.source : link.target) === owner else { continue }
                    touch(owner, r.name)
                }
            }
        }
        return try touched.compactMap { owner, name in
            guard let ordering = store.ordering(of: owner.entity.name, name) else { return nil }
            let members = try relatedObjects(name, of: owner)
            let old = try owner.primaryKey.map { try storedPositions(ordering, owner: $0) } ?? [:]
            return OrderedRewrite(ordering: ordering, owner: owner, members: members, old: old)
        }
    }

    /// What a save into a Core Data store does once its rows are written, planned before
    /// its transaction (while the context can still read).
    struct CoreDataSavePlan {
        var rewrites: [OrderedRewrite] = []
        var inserts: [ManagedObject] = []
    }

    func plannedCoreDataSave(inserts: [ManagedObject]) throws -> CoreDataSavePlan {
        guard coreData != nil else { return CoreDataSavePlan() }
        return CoreDataSavePlan(rewrites: try plannedOrderRewrites(), inserts: inserts)
    }

    /// Inside the save's transaction, once every row and join row is written: the order
    /// values of the planned relationships, as Core Data keeps them; and a new row's
    /// `Z_OPT` is 1, as Core Data writes it, even when the save pointed it at a row
    /// inserted after it (a second write through its view, which counted as an update).
    func finishCoreDataSave(_ plan: CoreDataSavePlan, key: (ManagedObject?) -> DatabaseValue, in db: Database) throws {
        guard let store = coreData else { return }
        for object in plan.inserts {
            guard let table = store.table(of: object.entity.name), let key = Int64.fromDatabaseValue(key(object)) else { continue }
            try db.execute(sql: "UPDATE main.\(quoteIdentifier(table)) SET Z_OPT = 1 WHERE Z_PK = ? AND Z_OPT IS NOT 1", arguments: [key])
        }
        for rewrite in plan.rewrites {
            guard let owner = Int64.fromDatabaseValue(key(rewrite.owner)) else { continue }
            let members = rewrite.members.compactMap { Int64.fromDatabaseValue(key($0)) }
            for change in CoreDataStore.newPositions(members, old: rewrite.old) {
                try store.writePosition(rewrite.ordering, owner: owner, member: change.member, position: change.position, in: db)
            }
        }
    }
}

/// Optimistic locking as Core Data does it: every write of a row adds 1 to its `Z_OPT`, so
/// a row whose `Z_OPT` moved since this context took it up was written by someone else,
/// even in columns the model does not map (which the comparison of values cannot see).
extension ObjectContext {
    /// Notes the `Z_OPT` of an object as it is first changed or deleted (when the store
    /// cannot be read now, the comparison of values alone guards it).
    func noteCoreDataVersion(_ object: ManagedObject) {
        guard let store = coreData, let key = object.primaryKey, coreDataState.versions[ObjectIdentifier(object)] == nil,
              let table = store.table(of: object.entity.name) else { return }
        if let version = try? read({ db in try CoreDataStore.version(in: table, key: key, db) }) {
            coreDataState.versions[ObjectIdentifier(object)] = version
        }
    }

    /// An object whose changes were dropped starts from its row's version when next changed.
    func forgetCoreDataVersion(_ object: ManagedObject) {
        coreDataState.versions[ObjectIdentifier(object)] = nil
    }

    /// Whether the row's `Z_OPT` differs from the one noted (inside the save's transaction).
    func coreDataVersionMoved(_ object: ManagedObject, in db: Database) throws -> Bool {
        guard let store = coreData, let key = object.primaryKey, let noted = coreDataState.versions[ObjectIdentifier(object)],
              let table = store.table(of: object.entity.name) else { return false }
        return try CoreDataStore.version(in: table, key: key, db) != noted
    }

    /// After the context took in the store's current values (`refreshFromStore`), their
    /// versions are the ones its changes start from.
    func refreshCoreDataVersions() {
        let pending = Array(updatedObjects.values) + Array(deletedObjects.values)
        coreDataState.versions = [:]
        for object in pending { noteCoreDataVersion(object) }
    }

    /// Once a save committed or changes were rolled back, nothing is pending.
    func forgetCoreDataPending() {
        coreDataState.versions = [:]
        coreDataState.stamps = [:]
    }
}

extension ObjectContext {
    /// After a save, the values the store's triggers derived reach the objects in use, as
    /// Core Data's trigger notices bring them to its objects: the derived attributes of
    /// every registered object of an entity that has some are read again. (The save has
    /// committed: should this read fail, the objects keep their values until refreshed.)
    func refreshDerivedAttributes() {
        guard let store = coreData, !store.derivedAttributes.isEmpty else { return }
        for (entityName, keys) in registeredKeysByEntity() {
            guard let derived = store.derivedAttributes[entityName], let entity = entitiesByName[entityName] else { continue }
            let names = derived.keys.sorted()
            let columns = ([entity.primaryKey] + names).map(quoteIdentifier).joined(separator: ", ")
            for start in stride(from: 0, to: keys.count, by: 500) {
                let chunk = Array(keys[start..<min(keys.count, start + 500)])
                let sql = "SELECT \(columns) FROM \(quoteIdentifier(entity.name)) WHERE \(quoteIdentifier(entity.primaryKey)) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                guard let rows = try? read({ db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)) }) else { continue }
                for row in rows {
                    guard let key = Int64.fromDatabaseValue(row[0] as DatabaseValue), let object = registeredObject(entity: entityName, primaryKey: key) else { continue }
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
