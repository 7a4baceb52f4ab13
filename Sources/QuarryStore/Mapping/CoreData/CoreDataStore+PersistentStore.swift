import GRDB

/// A Core Data store's writes keep what Core Data keeps: no write Quarry cannot make as
/// Core Data would, `Z_OPT` versions for optimistic locking, ordered relationships'
/// positions, new rows' `Z_OPT` of 1, and its persistent history with tombstones.
extension CoreDataStore: PersistentStore {
    func refuseUnfaithfulWrite(_ operation: String, in context: ObjectContext) throws {
        try context.refuseUnfaithfulCoreDataWrite(operation)
    }

    func isOrdered(_ relationship: String, of entity: String) -> Bool { ordering(of: entity, relationship) != nil }

    func objectChanged(_ object: ManagedObject, in context: ObjectContext) { context.noteCoreDataVersion(object) }

    func objectUnchanged(_ object: ManagedObject, in context: ObjectContext) { context.forgetCoreDataVersion(object) }

    func pendingChangesEnded(in context: ObjectContext) { context.forgetCoreDataPending() }

    func prepare(_ request: SaveChangesRequest, in context: ObjectContext) throws -> StoreSaveWork {
        StoreSaveWork(order: try context.plannedCoreDataSave(inserts: request.inserts))
    }

    func versionMoved(_ object: ManagedObject, in db: Database, context: ObjectContext) throws -> Bool {
        try context.coreDataVersionMoved(object, in: db)
    }

    func willDeleteRows(_ request: SaveChangesRequest, _ work: inout StoreSaveWork, keys: SaveChangesRequest.Keys,
                        in db: Database, context: ObjectContext) throws {
        try context.finishCoreDataSave(work.order, key: keys.of, in: db)
        // Read before the rows go: Core Data's delete copies them into the history.
        work.tombstones = try context.coreDataTombstones(request.deletes, in: db)
    }

    func didWriteRows(_ request: SaveChangesRequest, _ work: StoreSaveWork, keys: SaveChangesRequest.Keys,
                      in db: Database, context: ObjectContext) throws {
        try context.writeCoreDataHistory(inserted: keys.inserted(request), updated: request.updates, deleted: request.deletes,
                                         tombstones: work.tombstones, links: request.links, in: db)
    }

    func didSave(in context: ObjectContext) { context.refreshDerivedAttributes() }

    /// Never reached: `define` refuses a Core Data store's entities before writing.
    func keepDeclaration(_ name: String, definition: String, in db: Database, context: ObjectContext) throws {
        throw StoreError.invalidSchema(entity: name, reason: "this is a Core Data store: its entities are its own model's")
    }

    /// SQLite names Z-tables and Z-columns: say the model's names.
    func inModelNames(_ error: StoreError) -> StoreError {
        guard case .database(let message) = error else { return error }
        return .database(message: inModelNames(message))
    }
}
