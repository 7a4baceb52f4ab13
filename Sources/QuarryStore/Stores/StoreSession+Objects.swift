import QuarryModel

/// Objects in use: what a store's bookkeeping still asks of the session's objects (a Core
/// Data store's version counters and ordered relationships, a save's inserted values,
/// `relate()` and `format()` replayed from a sidecar). Each is a question a save's request
/// or the store's own state could answer instead; until then they are listed here.
extension StoreSession {
    /// The objects inserted, updated (links and orders included) and deleted, unsaved.
    package var pendingChanges: (inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        context.pendingChanges
    }
    package var hasPendingLinks: Bool { context.hasPendingLinks }
    package var hasPendingOrders: Bool { context.hasPendingOrders }
    /// The object already registered for a row, if any (no query).
    package func registeredObject(entity: String, primaryKey: Int64) -> ManagedObject? {
        context.registeredObject(entity: entity, primaryKey: primaryKey)
    }
    /// Forgets the objects in use of `entity`, whose rows are known by other keys now.
    package func forgetObjects(of entity: String) { context.forgetObjects(of: entity) }
    /// The keys of the objects in use, by entity.
    package func registeredKeysByEntity() -> [String: [Int64]] { context.registeredKeysByEntity() }
    /// The object for a row in storage form: the registered one, else a new one.
    package func object(for entity: EntityDescription, storedRow values: [Value]) throws -> ManagedObject {
        try context.object(for: entity, storedRow: values)
    }
    /// The value an inserted object's row takes for `name` (its key filled from `keys`).
    package func insertedValue(_ object: ManagedObject, _ name: String, keys: SaveChangesRequest.Keys) -> Value {
        context.insertedValue(object, name, keys: keys)
    }
    /// The members of a to-many relationship as the session sees them.
    package func relatedObjects(_ name: String, of object: ManagedObject) throws -> [ManagedObject] {
        try context.relatedObjects(name, of: object)
    }
    /// `relate()` replayed (not kept again).
    @discardableResult
    package func relate(
        _ source: String, _ sourceColumns: [String], _ destinationName: String, _ destinationColumns: [String],
        name: String? = nil, inverse: String? = nil, keep: Bool = true
    ) throws -> RelationshipDescription {
        try context.relate(source, sourceColumns, destinationName, destinationColumns, name: name, inverse: inverse, keep: keep)
    }
    /// `format()` replayed (not kept again).
    package func declareFormat(_ entityName: String, _ column: String, _ name: String, never: Int64? = nil, keep: Bool = true) throws {
        try context.declareFormat(entityName, column, name, never: never, keep: keep, sampled: false)
    }
}
