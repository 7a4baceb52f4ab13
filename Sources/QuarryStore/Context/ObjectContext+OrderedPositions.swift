import QuarryModel

/// Placing members of an ordered to-many relationship by position, as
/// `NSMutableOrderedSet`'s `insertObject:atIndex:` and `moveObjectsAtIndexes:toIndex:`
/// do (positions count from 1 here, as Lua's do). Only a relationship whose store keeps
/// an order has positions; the save writes them (a Core Data store's `Z_FOK_` values).
extension ObjectContext {
    /// Adds `target` at `position` (1 to the count plus one). A member already there stays
    /// where it is, as an ordered set ignores inserting what it holds.
    public func insertRelated(_ target: ManagedObject, at position: Int64, to name: String, of object: ManagedObject) throws {
        let current = try orderedMembers("insert", name, of: object)
        guard position >= 1, position <= Int64(current.count) + 1 else {
            throw outOfRange("insert", position, 1...(current.count + 1), name, of: object)
        }
        if current.contains(where: { $0 === target }) { return }
        try addRelated(target, to: name, of: object)
        var members = try relatedObjects(name, of: object)
        guard let added = members.lastIndex(where: { $0 === target }) else { return }
        members.remove(at: added)
        members.insert(target, at: Int(position) - 1)
        try place(members, name, of: object)
    }

    /// Moves the member at `from` to `to` (both 1 to the count); membership is unchanged.
    public func moveRelated(from: Int64, to: Int64, in name: String, of object: ManagedObject) throws {
        var members = try orderedMembers("move", name, of: object)
        for position in [from, to] where position < 1 || position > Int64(members.count) {
            throw outOfRange("move", position, 1...max(members.count, 1), name, of: object, empty: members.isEmpty)
        }
        guard from != to else { return }
        let member = members.remove(at: Int(from) - 1)
        members.insert(member, at: Int(to) - 1)
        try place(members, name, of: object)
    }

    /// Whether `entity.name` keeps its members in an order: a Core Data store's ordered
    /// relationship, or the owner's side of a join table whose key holds a position.
    public func keepsOrder(_ name: String, of entity: String) -> Bool {
        if store.isOrdered(name, of: entity) { return true }
        return managedObjectModel.entitiesByName[entity].map { mapped($0).orderedLinks[name] != nil } == true
    }

    /// The members of `object.name` once checked that they can be placed by position.
    private func orderedMembers(_ operation: String, _ name: String, of object: ManagedObject) throws -> [ManagedObject] {
        if mapped(object.entity).isView { throw StoreError.viewIsReadOnly(entity: object.entity.name) }
        let (relationship, _) = try self.relationship(name, of: object)
        try refuseSubentityKey(name, of: object)
        if object.isDeleted || object.context == nil { throw StoreError.objectDeleted(objectID: object.objectID) }
        try object.checkStoreOpen()
        guard relationship.isToMany, keepsOrder(name, of: object.entity.name) else {
            let what =
                relationship.isToMany
                ? "is not ordered (only an ordered relationship keeps positions: a Core Data store's, or a join table's whose key holds a position); :add adds to it"
                : "is to-one, not an ordered set"
            throw StoreError.during(operation: operation, .validation(message: "\(object.entity.name).\(name) \(what)"))
        }
        return try relatedObjects(name, of: object)
    }

    private func outOfRange(
        _ operation: String, _ position: Int64, _ range: ClosedRange<Int>, _ name: String,
        of object: ManagedObject, empty: Bool = false
    ) -> StoreError {
        let room = empty ? "it has no members" : "positions are \(range.lowerBound) to \(range.upperBound)"
        return StoreError.during(operation: operation, .validation(message: "position \(position) is outside \(object.objectID).\(name): \(room)"))
    }

    /// Keeps `members` as the order of `object.name` until the save, unless it is the
    /// order the relationship has without it (a move undone is no change).
    private func place(_ members: [ManagedObject], _ name: String, of object: ManagedObject) throws {
        unsaved.orders.removeAll { $0.owner === object && $0.name == name }
        let unplaced = try relatedObjects(name, of: object)
        if !unplaced.elementsEqual(members, by: ===) {
            unsaved.orders.append(PendingOrder(owner: object, name: name, members: members))
        }
        bumpPendingGeneration(touching: object)
    }

    /// The pending order of `object.name`, if members were placed by position.
    func pendingOrder(_ name: String, of object: ManagedObject) -> PendingOrder? {
        unsaved.orders.first { $0.owner === object && $0.name == name }
    }

    /// `member` left `owner.name`: should it come back, it is appended, as an ordered set
    /// appends what it is given again.
    func forgetPlace(of member: ManagedObject, in name: String, of owner: ManagedObject) {
        for i in unsaved.orders.indices where unsaved.orders[i].owner === owner && unsaved.orders[i].name == name {
            unsaved.orders[i].members.removeAll { $0 === member }
        }
    }

    /// `member`'s to-one relationship now points at `owner` (nil: none): it left every
    /// other `destination` object's `name`, that relationship's inverse.
    func forgetPlace(of member: ManagedObject, in name: String, of destination: String, exceptUnder owner: ManagedObject?) {
        for i in unsaved.orders.indices
        where unsaved.orders[i].owner !== owner && unsaved.orders[i].name == name
            && isKind(unsaved.orders[i].owner.entity.name, of: destination)
        {
            unsaved.orders[i].members.removeAll { $0 === member }
        }
    }

    /// Orders placed under `object` are forgotten (it is deleted, or takes the store's
    /// state again); a member that goes simply drops out of its owner's.
    func forgetOrders(ownedBy object: ManagedObject) {
        unsaved.orders.removeAll { $0.owner === object }
    }
}
