import QuarryModel

/// What one `rollback()` discarded, so whoever watches the context can say what went
/// back: objects whose unsaved inserts were forgotten, objects whose unsaved deletes were
/// undone, and objects whose unsaved values were dropped, each key with the value it had
/// and the stored one it has again. Nothing stored changed: only objects in memory did.
public struct RolledBack {
    /// Unsaved inserts, now forgotten (they have no context).
    public var inserted: [ManagedObject]
    /// Unsaved deletes, undone.
    public var deleted: [ManagedObject]
    /// Objects whose values went back, with each key's unsaved and stored value (a to-one
    /// relationship's as the key of its target, as a save's old values hold it).
    public var reverted: [(object: ManagedObject, values: [String: (old: Value, new: Value)])] = []

    public var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && reverted.isEmpty }

    /// The pending changes as `rollback()` is about to discard them, saved objects in key
    /// order as `ObjectContext.pendingChanges` gives them.
    init(discarding pending: (inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject])) {
        inserted = pending.inserted
        deleted = pending.deleted
        var seen = Set<ObjectIdentifier>()
        for object in pending.updated + pending.deleted where seen.insert(ObjectIdentifier(object)).inserted {
            var values: [String: (old: Value, new: Value)] = [:]
            for (key, value) in object.pending {
                let stored = object.committedValue(key) ?? .null
                if value != stored { values[key] = (value, stored) }
            }
            for (name, target) in object.pendingToOne {
                let old = target.flatMap { $0.primaryKey }.map(Value.integer) ?? .null
                let stored = object.committedValue(name) ?? .null
                if old != stored { values[name] = (old, stored) }
            }
            if !values.isEmpty { reverted.append((object, values)) }
        }
    }
}
