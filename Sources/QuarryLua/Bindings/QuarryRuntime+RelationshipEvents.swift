import CLua
import QuarryModel
import QuarryStore

/// What an object's observers hear of a relationship: its members before and
/// after, as `o:changes()` gives them (a to-one's object or nil, a to-many's members as an
/// array), never the key a to-one's column holds. Noted before a save or a rollback
/// changes them, for the objects observers watch only: reading a to-many's members as
/// saved costs a query, which a save of many objects would pay for each.
extension QuarryRuntime {
    /// Notes the relationship changes of every object an observer watches.
    func noteObservedRelationships() {
        guard let registry = observerRegistryStorage else { return }
        var noted: [ObjectIdentifier: [RelationshipChange]] = [:]
        for observer in registry.observers where !observer.cancelled {
            let object: ManagedObject
            switch observer.target {
            case .object(let watched, _): object = watched
            default: continue
            }
            let id = ObjectIdentifier(object)
            guard noted[id] == nil, !object.isDeleted, !object.isForeign(to: context) else { continue }
            noted[id] = (try? context.relationshipChanges(of: object)) ?? []
        }
        registry.relationshipsBefore = noted
    }

    /// How key `key` of `object` changed, for an observer: `.attribute` (its values are the
    /// event's), `.relationship` with the members noted before, or `.unchanged` (a
    /// relationship whose members are as they were: no event).
    func observedChange(_ key: String, of object: ManagedObject) -> ObservedChange {
        guard (try? context.entity(named: object.entity.name))?.relationship(named: key) != nil else { return .attribute }
        guard let change = observerRegistryStorage?.relationshipsBefore[ObjectIdentifier(object)]?.first(where: { $0.key == key }) else {
            return .unchanged
        }
        return .relationship(change)
    }

    /// A to-one another session changed, as its objects (what its stored value named
    /// before, what it names now): the outside change gives only the stored values.
    /// `.unchanged` when both are the same (a target the other session deleted is no
    /// object any more: nil before and after tells nothing), nil for an attribute.
    func outsideToOneChange(_ key: String, of object: ManagedObject, old: [String: Value]) -> ObservedChange? {
        guard let relationship = (try? context.entity(named: object.entity.name))?.relationship(named: key), !relationship.isToMany else {
            return nil
        }
        let before = context.toOneTarget(key, of: object, committedValues: old)
        let now = (try? context.relatedObject(key, of: object)) ?? nil
        guard before !== now else { return .unchanged }
        return .relationship(RelationshipChange(key: key, isToMany: false, old: before.map { [$0] } ?? [], new: now.map { [$0] } ?? []))
    }

    /// Pushes a relationship's members as `o:changes()` does: a to-one's object (or nil),
    /// a to-many's members as an array.
    func pushMembers(_ members: [ManagedObject], isToMany: Bool) {
        guard isToMany else {
            _ = pushObject(members.first)
            return
        }
        lua_createtable(state, Int32(members.count), 0)
        for (position, member) in members.enumerated() {
            _ = pushObject(member)
            lua_rawseti(state, -2, lua_Integer(position + 1))
        }
    }
}

/// A key of an observed object, as its observers hear it change.
enum ObservedChange {
    case attribute
    case relationship(RelationshipChange)
    case unchanged
}
