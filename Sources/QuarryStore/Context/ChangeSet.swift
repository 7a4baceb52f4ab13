import QuarryModel

/// What one save changed: objects inserted, updated (with the keys that changed) and
/// deleted, in the order the save wrote them.
public struct ChangeSet {
    public var inserted: [ManagedObject] = []
    public var updated: [(object: ManagedObject, keys: Set<String>)] = []
    public var deleted: [ManagedObject] = []
    /// Updated objects' values before the save, by object.
    public var oldValues: [ObjectIdentifier: [String: Value]] = [:]
    /// Rows changed by `updateall`/`deleteall`, by entity, including rows no object holds.
    public var batchUpdated: [String: Set<Int64>] = [:]
    public var batchDeleted: [String: Set<Int64>] = [:]
    /// The keys that changed of rows in `batchUpdated`, by entity and row, where known:
    /// another connection's change of a row an observer watches (`RowHashes`).
    public var batchUpdatedKeys: [String: [Int64: Set<String>]] = [:]
    /// True when another connection made the change.
    public var isExternal = false

    /// An outside change is never empty: even with nothing known about it, results must
    /// be read again.
    public var isEmpty: Bool {
        !isExternal && inserted.isEmpty && updated.isEmpty && deleted.isEmpty && batchUpdated.isEmpty && batchDeleted.isEmpty
    }
}

/// An unsaved change of one relationship of an object, as Core Data's `changedValues()`
/// and `committedValues(forKeys:)` give it: the members it had when last saved and the
/// ones it has now (none or one for a to-one), each in the relationship's order.
public struct RelationshipChange {
    public let key: String
    public let isToMany: Bool
    public let old: [ManagedObject]
    public let new: [ManagedObject]

    public init(key: String, isToMany: Bool, old: [ManagedObject], new: [ManagedObject]) {
        self.key = key
        self.isToMany = isToMany
        self.old = old
        self.new = new
    }
}

/// Removes a change listener when cancelled.
public final class ChangeListenerToken {
    /// The context's link (`ContextLink`): the token does not keep the context alive.
    private let link: ContextLink
    private let id: Int
    init(context: ObjectContext, id: Int) {
        self.link = context.link
        self.id = id
    }
    public func cancel() { link.context?.observers.changeListeners.remove(id) }
}
