import QuarryPredicates
import QuarryStore

extension FetchRequest {
    /// Keys of the request (its predicate, sort keys and section key) that only sub-entities
    /// of its entity declare. Quarry answers them, with nil on the entity's own rows, as
    /// the contract allows; Core Data refuses such a fetch ("keypath not found in entity"),
    /// so a prototype that relies on one would not carry over.
    public func subentityOnlyKeys(in context: ObjectContext) throws -> [String] {
        let entity = try context.entity(named: entityName)
        guard !entity.subentityKeys.isEmpty else { return [] }
        var keys = try predicate.map { try BoundPredicate($0, entity: entity, context: context).subentityOnlyKeys } ?? []
        let ordering = sortDescriptors.map(\.key) + (sectionKey.map { [$0] } ?? [])
        for key in ordering {
            let first = String(key.prefix { $0 != "." })
            if entity.subentityKeys.contains(first), !keys.contains(first) { keys.append(first) }
        }
        return keys
    }
}
