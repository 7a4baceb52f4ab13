import QuarryModel

/// Uniqueness constraints (`uniqueness = { {"a"}, {"b", "c"} }`, Core Data's
/// `uniquenessConstraints`) are unique indexes on the table that holds the entity's rows;
/// a hierarchy member's index covers only its rows (a partial index on `_entity`), so a
/// sub-entity's constraint on an inherited attribute does not bind its parent's rows.
extension PersistentStore {
    /// Why a constraint of `entity` cannot be made: it names a key the entity does not have.
    func uniquenessProblem(_ entity: EntityDescription, declared: [String: EntityDescription]) -> String? {
        if entity.uniqueness.isEmpty { return nil }
        var declared = declared
        declared[entity.name] = entity
        let keys = Set(
            (ManagedObjectModel.ancestors(of: entity.name, in: declared) + [entity]).flatMap { $0.attributeNames + $0.toOneRelationships.map(\.name) }
        )
        for constraint in entity.uniqueness {
            if constraint.isEmpty { return "a uniqueness constraint names no attribute" }
            if let unknown = constraint.first(where: { !keys.contains($0) }) {
                return
                    "the uniqueness constraint (\(constraint.joined(separator: ", "))) names '\(unknown)', which is not an attribute of \(entity.name)"
            }
        }
        return nil
    }
}
