/// The changes a context holds until `save()` or `rollback()`, in the order they were
/// made (Core Data's inserted, updated and deleted objects). The context holds these
/// objects strongly; every other object is held only by whoever uses it.
struct PendingChanges {
    var inserted: [ManagedObject] = []
    var updated: [ObjectIdentifier: ManagedObject] = [:]
    var deleted: [ObjectIdentifier: ManagedObject] = [:]
    /// Link-table changes (many-to-many), in the order made.
    var links: [PendingLink] = []
    /// Ordered relationships whose members were placed by position (`insert`, `move`).
    var orders: [PendingOrder] = []
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
        orders = []
    }

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && links.isEmpty && orders.isEmpty }

    /// Whether any pending object satisfies `test` (an entity's own, say).
    func contains(where test: (ManagedObject) -> Bool) -> Bool {
        inserted.contains(where: test) || updated.values.contains(where: test) || deleted.values.contains(where: test)
    }
}

/// The objects each unsaved change touched, in order, so that results holding a merge of
/// the changes into their saved rows (QuarryFetch's `PendingMerge`) re-place only those
/// objects after a change rather than all of them. Kept from one save or rollback to the
/// next, and dropped whole once long (a reader then re-places every pending object).
struct PendingTouches {
    /// The `pendingGeneration` from which `touched` is complete (changes after it are logged).
    private(set) var since = 0
    private var touched: [(generation: Int, object: ManagedObject)] = []
    private static let longest = 1 << 20

    mutating func note(_ objects: [ManagedObject], at generation: Int) {
        if touched.count + objects.count > Self.longest {
            restart(at: generation)
            return
        }
        for object in objects { touched.append((generation, object)) }
    }

    /// `note` of one object, without an array made for it (every assignment notes one).
    mutating func note(_ object: ManagedObject, at generation: Int) {
        guard touched.count < Self.longest else { return restart(at: generation) }
        touched.append((generation, object))
    }

    /// Forgets the log: it is complete from `generation` on.
    mutating func restart(at generation: Int) {
        since = generation
        touched = []
    }

    /// The objects touched by changes after `generation` (repeats included), or nil when
    /// the log does not reach back that far.
    func objects(after generation: Int) -> [ManagedObject]? {
        guard generation >= since else { return nil }
        // Entries are in generation order: the first one after `generation` by bisection.
        var low = 0
        var high = touched.count
        while low < high {
            let mid = (low + high) / 2
            if touched[mid].generation <= generation { low = mid + 1 } else { high = mid }
        }
        return touched[low...].map(\.object)
    }
}

/// An ordered to-many relationship whose members were placed by position since the last
/// save: their order as placed. Members added afterwards follow them (in the order added)
/// and members removed afterwards drop out, as in an `NSMutableOrderedSet`.
package struct PendingOrder {
    package let owner: ManagedObject
    package let name: String
    var members: [ManagedObject]

    /// `current` (the relationship's members without this order) in this order.
    func arranged(_ current: [ManagedObject]) -> [ManagedObject] {
        let present = Set(current.map(ObjectIdentifier.init))
        let placed = members.filter { present.contains(ObjectIdentifier($0)) }
        let known = Set(placed.map(ObjectIdentifier.init))
        return placed + current.filter { !known.contains(ObjectIdentifier($0)) }
    }
}
