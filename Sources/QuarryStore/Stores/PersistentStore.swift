import GRDB

/// One kind of file behind a context, as Core Data's `NSPersistentStore`: what a write
/// must keep beyond the rows themselves (a Core Data store's version counters, ordering
/// columns and persistent history; Quarry's own history table; nothing of Quarry's in a
/// file Quarry did not create). The context keeps the objects and orchestrates a save; it
/// hands the rows to `SQLiteSaveWriter` and asks its store at each of these points, and
/// never asks which kind of store it has.
///
/// Stores are chosen when the file is opened (`ObjectContext.loadModel`). The next kind
/// (another database, another file convention) is one more conformance.
protocol PersistentStore: AnyObject {
    /// Refuses a write (`save`, `updateall`, `deleteall`) that the program owning the file
    /// would not make as Quarry would make it; nothing has been written.
    func refuseUnfaithfulWrite(_ operation: String, in context: ObjectContext) throws

    /// Whether a to-many relationship keeps an order in the store.
    func isOrdered(_ relationship: String, of entity: String) -> Bool

    /// An object's pending changes began (or grew): note what optimistic locking compares.
    func objectChanged(_ object: ManagedObject, in context: ObjectContext)
    /// An object has no pending change left.
    func objectUnchanged(_ object: ManagedObject, in context: ObjectContext)
    /// The pending changes were saved or rolled back.
    func pendingChangesEnded(in context: ObjectContext)

    /// Before the save's transaction: what the store will write besides the rows, decided
    /// from the pending changes (nothing is written yet).
    func prepare(_ request: SaveChangesRequest, in context: ObjectContext) throws -> StoreSaveWork
    /// Whether a row changed in a way the values read cannot show (a version counter).
    func versionMoved(_ object: ManagedObject, in db: Database, context: ObjectContext) throws -> Bool
    /// Inside the transaction, after rows were inserted and updated and links written,
    /// before rows are deleted (which this may still read).
    func willDeleteRows(_ request: SaveChangesRequest, _ work: inout StoreSaveWork, keys: SaveChangesRequest.Keys,
                        in db: Database, context: ObjectContext) throws
    /// Inside the transaction, after rows were deleted.
    func didWriteRows(_ request: SaveChangesRequest, _ work: StoreSaveWork, keys: SaveChangesRequest.Keys,
                      in db: Database, context: ObjectContext) throws
    /// After the save committed and the objects took their new state.
    func didSave(in context: ObjectContext)
    /// An error SQLite raised while writing, in the model's names.
    func inModelNames(_ error: StoreError) -> StoreError

    /// Keeps an entity's declaration (`StoredDefinition` text), inside the transaction that
    /// defines it.
    func keepDeclaration(_ name: String, definition: String, in db: Database, context: ObjectContext) throws

    /// Records a batch change or save in the store's own history, where it keeps one.
    func recordHistory(inserted: [String], updated: [String], deleted: [String], in db: Database, context: ObjectContext) throws
}

/// What a store decided to write besides the rows, from `prepare` to the end of the save.
struct StoreSaveWork {
    /// Ordered relationships' positions to write (a Core Data store).
    var order = ObjectContext.CoreDataSavePlan()
    /// Values of deleted rows kept in the store's history (Core Data's tombstones).
    var tombstones: [ObjectIdentifier: [DatabaseValue]] = [:]
}

extension PersistentStore {
    func refuseUnfaithfulWrite(_ operation: String, in context: ObjectContext) throws {}
    func isOrdered(_ relationship: String, of entity: String) -> Bool { false }
    func objectChanged(_ object: ManagedObject, in context: ObjectContext) {}
    func objectUnchanged(_ object: ManagedObject, in context: ObjectContext) {}
    func pendingChangesEnded(in context: ObjectContext) {}
    func prepare(_ request: SaveChangesRequest, in context: ObjectContext) throws -> StoreSaveWork { StoreSaveWork() }
    func versionMoved(_ object: ManagedObject, in db: Database, context: ObjectContext) throws -> Bool { false }
    func willDeleteRows(_ request: SaveChangesRequest, _ work: inout StoreSaveWork, keys: SaveChangesRequest.Keys,
                        in db: Database, context: ObjectContext) throws {
        try recordHistory(inserted: keys.insertedIDs(request), updated: request.updates.map(\.objectID),
                          deleted: request.deletes.map(\.objectID), in: db, context: context)
    }
    func didWriteRows(_ request: SaveChangesRequest, _ work: StoreSaveWork, keys: SaveChangesRequest.Keys,
                      in db: Database, context: ObjectContext) throws {}
    func didSave(in context: ObjectContext) {}
    func inModelNames(_ error: StoreError) -> StoreError { error }
    func recordHistory(inserted: [String], updated: [String], deleted: [String], in db: Database, context: ObjectContext) throws {}
}
