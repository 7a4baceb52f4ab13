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

    /// The entity a row of `object`'s entity really is: a fetch of a Core Data parent
    /// entity includes its sub-entities' rows, each of which is its own entity.
    public func ownEntity(of object: ManagedObject) throws -> EntityDescription {
        guard let coreData, let mapped = coreData.mapped(object.entity.name), !mapped.descendantCodes.isEmpty,
              let key = object.primaryKey else { return object.entity }
        let sql = "SELECT \(quoteIdentifier(CoreDataStore.entityColumn)) FROM \(quoteIdentifier(object.entity.name)) WHERE \(quoteIdentifier(object.entity.primaryKey)) = ?"
        guard let code = try read({ db in try Int64.fetchOne(db, sql: sql, arguments: [key]) }),
              let name = coreData.entityName(code: code) else { return object.entity }
        return try entity(named: name)
    }

    /// The SQL condition that keeps only `entity`'s own rows, leaving out its sub-entities'
    /// (`subentities = false`); nil when it has none.
    public func ownRowsCondition(of entity: EntityDescription, qualifier: String) -> String? {
        guard let mapped = coreData?.mapped(entity.name), !mapped.descendantCodes.isEmpty else { return nil }
        return "\(qualifier).\(quoteIdentifier(CoreDataStore.entityColumn)) = \(mapped.code)"
    }
}

extension ObjectContext {
    /// A change Quarry cannot write as Core Data would is refused whole, before anything
    /// is written: the store's persistent history (which the app's history processing
    /// reads) is not written by Quarry yet.
    func refuseUnfaithfulCoreDataWrite(_ operation: String) throws {
        guard coreData != nil else { return }
        if try read({ db in try CoreDataStore.keepsPersistentHistory(db) }) {
            throw StoreError.database(message: "\(operation): this Core Data store keeps persistent history, which Quarry does not write yet; nothing was written")
        }
    }
}
