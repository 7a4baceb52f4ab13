import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// A store written by Core Data opens as its model's entities (see `CoreDataStore`):
/// found on open, without a flag, and read through temporary views, so opening changes
/// nothing in the file. Its Z-tables are not entities, and Quarry never writes its own
/// model into it.
extension CoreDataStore: OpenableStore {
    /// Core Data's bookkeeping tables are there (`isCoreDataStore`).
    package static func recognizes(_ db: Database, path: String?) throws -> Bool { try isCoreDataStore(db) }

    /// The store's layout and model (its cache, else `modelPath`, else inferred), its
    /// temporary views handed to the connection to make when SQL first reads them.
    package static func open(_ connection: StoreConnection, modelPath: String?) throws -> CoreDataStore {
        let store: CoreDataStore
        do {
            store = try connection.database.writeWithoutTransaction { db in
                try CoreDataStore.read(db, path: connection.path ?? ":memory:", modelPath: modelPath)
            }
        } catch let error as ModelFileError {
            throw StoreError.database(message: "\(error)")
        }
        connection.deferredViews = store.views
        for mapped in store.entities { store.remember(mapped.entity, storage: mapped.storage) }
        return store
    }

    /// What could not be mapped is said once; no table of a Core Data store is an entity
    /// of its own.
    package func didOpen(in session: StoreSession) throws {
        session.openingNotes += notes
        // Only a Core Data store with such an attribute lets SQL make or remove its files.
        session.connection.coreData.externalData.isInUse = hasExternalAttributes
    }
}
