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
    /// reads) is not written by Quarry yet; a trigger that calls a function of Core
    /// Data's Quarry lacks cannot run; derived attributes are the store's to compute.
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
