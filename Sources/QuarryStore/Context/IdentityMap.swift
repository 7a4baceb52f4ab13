/// The context's identity map: one object per stored row while anyone holds it (Core
/// Data's uniquing). Objects are held weakly, by their hierarchy's root entity and key
/// (rows of one hierarchy share their root's keys), so a row fetched as a `Car` and as a
/// `SportCar` is one object.
struct IdentityMap {
    /// An object's entry, which the object empties as it goes (`ManagedObject.deinit`),
    /// as a `weak` reference would be emptied; one per object, however many keys name it.
    /// Not `weak`: a weak reference gives its object a side table, through which every
    /// retain and release of the object then goes the slow way (a save of 20,000 changed
    /// objects retains and releases each some twenty times). The objects of a context are
    /// made, used and released on one thread (the import's second thread makes none).
    final class WeakObject {
        unowned(unsafe) var object: ManagedObject?
        init(_ o: ManagedObject) { object = o }
    }

    /// One hierarchy's entries by key. A class, so that the last one used is kept at hand
    /// (`last`) and changed in place: finding it by its root's name hashed the name for
    /// each object, twice for each of 20,000 objects a loop made and changed (issue 84).
    private final class Keys {
        var entries: [Int64: WeakObject] = [:]
    }

    private var byRoot: [String: Keys] = [:]
    /// The hierarchy last registered in: objects come in runs of one hierarchy.
    private var last: (root: String, keys: Keys)?
    private var count = 0
    private var countAfterSweep = 1024

    /// The entries of the hierarchy rooted at `root`, if it has any.
    private func keys(_ root: String) -> Keys? {
        if let last, last.root == root { return last.keys }
        return byRoot[root]
    }

    /// The object registered for key `key` of the hierarchy rooted at `root`, if still held.
    func object(root: String, key: Int64) -> ManagedObject? { keys(root)?.entries[key]?.object }

    /// A hierarchy's registrations (their objects may be gone).
    func registrations(root: String) -> [Int64: WeakObject]? { keys(root)?.entries }

    mutating func register(_ object: ManagedObject, root: String, key: Int64) {
        let entry = object.registration ?? WeakObject(object)
        object.registration = entry
        let keys: Keys
        if let found = self.keys(root) {
            keys = found
        } else {
            keys = Keys()
            byRoot[root] = keys
        }
        // Set only when it changes: assigning the same pair again released and retained
        // the name and the entries for each object registered.
        if last?.keys !== keys { last = (root, keys) }
        if keys.entries.updateValue(entry, forKey: key) == nil { count += 1 }
        // Entries of objects no longer in use are swept once the map doubles, so a long
        // read-only session does not keep one per row it ever read.
        if count > countAfterSweep * 2 { prune() }
    }

    mutating func unregister(root: String, key: Int64) {
        if keys(root)?.entries.removeValue(forKey: key) != nil { count -= 1 }
    }

    /// The keys of the objects in use, by their own entity, in order.
    func keysByEntity() -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        for keys in byRoot.values {
            for (key, weak) in keys.entries { if let object = weak.object { result[object.entity.name, default: []].append(key) } }
        }
        return result.mapValues { $0.sorted() }
    }

    /// Forgets registrations whose objects are gone, so the map does not grow without end.
    mutating func prune() {
        for keys in byRoot.values { keys.entries = keys.entries.filter { $0.value.object != nil } }
        byRoot = byRoot.filter { !$0.value.entries.isEmpty }
        // A hierarchy left with no entries is dropped: it is no longer the one at hand.
        if let last, byRoot[last.root] !== last.keys { self.last = nil }
        count = byRoot.values.reduce(0) { $0 + $1.entries.count }
        countAfterSweep = max(1024, count)
    }
}
