import QuarryModel
import QuarryPredicates
import QuarryStore

extension QuarryRuntime {
    /// `o.dashboard` on a key the entity lacks, with the way forward a predicate names for
    /// it (`KeyWayForward`): the `relate()` that makes an undeclared relationship, ready to
    /// paste, or the path through a join table that is an entity of its own
    /// (`o.playlist_stream_joins[i].stream`), or the sub-entities whose key it is; else the
    /// key and the closest one, as before.
    func unknownKey(_ key: String, of object: ManagedObject) -> any Error {
        let entity = context.currentEntityDescription(of: object)
        let subject = "unknown key '\(key)' on entity \(entity.name)"
        if let relate = KeyWayForward.relate(for: key, on: entity, in: context) {
            return LuaError("\(subject); no relationship '\(key)' is declared: \(relate) makes it")
        }
        if let path = KeyWayForward.join(for: key, on: entity, in: context) {
            return LuaError(
                "\(subject); \(path.join) links \(entity.name) to \(path.destination) as an entity of its own: o.\(path.link)[i].\(path.end)")
        }
        // A sibling sub-entity's key (read as nil here): the entities that have it.
        let holders = context.isOtherSubentitysKey(key, of: object) ? context.subentitiesHolding(key, below: context.rootName(of: entity.name)) : []
        if !holders.isEmpty { return LuaError("\(subject); it is a key of \(holders.joined(separator: ", ")) only") }
        if closestMatch(to: key, in: entity.keyNames) == nil, let objectID = KeyWayForward.objectID(for: key, on: entity) {
            return LuaError("\(subject); \(objectID)")
        }
        // `o:delte()`: no key is near, a method is (`o:delete()`): that one is named.
        let methods = (ObjectBindings.objectMethods + ObjectBindings.objectOnlyMethods).map(\.name)
        if closestMatch(to: key, in: entity.keyNames) == nil, let method = closestMatch(to: key, in: methods) {
            return LuaError("\(subject) (did you mean the method '\(method)'? o:\(method)())")
        }
        return entity.unknownKey(key)
    }
}

extension QuarryRuntime {
    /// `error` from writing `values` to an object of `entity`, with the way forward when it
    /// refused a date for a text column of another program's ISO 8601 times (a foreign
    /// file's `started_at`): the `format()` that makes the column a date, as a predicate
    /// comparing it with a date names it.
    func explainingDateText(_ error: any Error, _ entity: EntityDescription, _ values: [String: Value]) -> any Error {
        guard case StoreError.typeMismatch(_, let key, _, _) = error, case .date = values[key],
            entity.attribute(named: key)?.type == .string, let hint = context.isoTextHint(entity, key)
        else { return error }
        let message = (error as? StoreError)?.message ?? "\(error)"
        return LuaError(message + "; " + hint)
    }
}
