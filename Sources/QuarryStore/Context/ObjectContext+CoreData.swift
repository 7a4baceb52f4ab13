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
        if coreData?.keepsPersistentHistory == true {
            throw StoreError.database(message: "\(operation): this Core Data store keeps persistent history, which Quarry does not write yet; nothing was written")
        }
    }
}
