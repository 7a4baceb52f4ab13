import QuarryModel

/// Keys only some sub-entities have. A parent lists its sub-entities' keys (a predicate
/// over it may name them: nil on rows without them), so a script walking a parent's
/// keys over its objects meets keys of sibling sub-entities: as in Core Data's entity
/// inheritance, such a key is not on that object's entity, and it reads as nil there, as
/// a predicate over the parent reads it on that row. Writing one stays refused.
extension ObjectContext {
    /// The sub-entities of `ancestor`, at any depth, that have `key` as a key of their own
    /// (declared or inherited), the topmost only: a sub-entity of one that has it has it
    /// too. Empty when no sub-entity has it, or when `ancestor` has it itself.
    public func subentitiesHolding(_ key: String, below ancestor: String) -> [String] {
        guard let top = try? entity(named: ancestor), !Self.owns(top, key) else { return [] }
        let holders = descendants(of: ancestor).filter { Self.owns($0, key) }
        let names = Set(holders.map(\.name))
        return holders.filter { $0.parent.map { !names.contains($0) } ?? true }.map(\.name)
    }

    /// Whether `key` belongs to another entity of `object`'s hierarchy and not to the
    /// object's own entity, nor to its sub-entities (whose keys it already reads as nil):
    /// a sibling sub-entity's key, which their parent lists.
    public func isOtherSubentitysKey(_ key: String, of object: ManagedObject) -> Bool {
        let own = currentEntity(of: object)
        guard own.parent != nil, !own.hasKey(key), !own.compositeNames.contains(key) else { return false }
        return !subentitiesHolding(key, below: rootName(of: own.name)).isEmpty
    }

    /// Whether `entity` has `key` for its own objects: an attribute, relationship or
    /// composite that is not only its sub-entities'.
    private static func owns(_ entity: EntityDescription, _ key: String) -> Bool {
        if entity.compositeNames.contains(key) {
            return entity.compositeElements(of: key).contains { !entity.subentityKeys.contains($0.name) }
        }
        return entity.hasKey(key) && !entity.subentityKeys.contains(key)
    }
}
