import GRDB

/// A store written by Core Data opens as its model's entities (see `CoreDataStore`):
/// found on open, without a flag, and read through temporary views, so opening changes
/// nothing in the file.
extension ObjectContext {
    /// Maps the entities of a file that is a Core Data store (`CoreDataStore.isCoreDataStore`).
    func loadCoreDataStore(modelPath: String?) throws {
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
        adopt(store)
        openingNotes += store.notes
        for mapped in store.entities { remember(mapped.entity, storage: mapped.storage) }
    }
}

