/// The changes a context holds until `save()` or `rollback()`, in the order they were
/// made (Core Data's inserted, updated and deleted objects). The context holds these
/// objects strongly; every other object is held only by whoever uses it.
struct PendingChanges {
    var inserted: [ManagedObject] = []
    var updated: [ObjectIdentifier: ManagedObject] = [:]
    var deleted: [ObjectIdentifier: ManagedObject] = [:]
    /// Link-table changes (many-to-many), in the order made.
    var links: [PendingLink] = []
    /// What each change touched (see `ObjectContext.objectsTouched(after:)`).
    var touches = PendingTouches()
    /// Numbers unsaved objects until they get keys (their IDs, and the stand-in keys
    /// predicates compare them by).
    private var nextTemporaryNumber = 1

    mutating func takeTemporaryNumber() -> Int {
        defer { nextTemporaryNumber += 1 }
        return nextTemporaryNumber
    }

    /// Forgets every change (saved or rolled back); the touches and the numbering go on.
    mutating func clear() {
        inserted = []
        updated = [:]
        deleted = [:]
        links = []
    }

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && links.isEmpty }

    /// Whether any pending object satisfies `test` (an entity's own, say).
    func contains(where test: (ManagedObject) -> Bool) -> Bool {
        inserted.contains(where: test) || updated.values.contains(where: test) || deleted.values.contains(where: test)
    }
}
