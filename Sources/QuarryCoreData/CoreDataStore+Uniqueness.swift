import QuarryModel

/// A Core Data model's uniqueness constraints on the entities read from its store, as
/// `model()` defines them: `.schema` shows `unique = true` where the model (SwiftData's
/// `@Attribute(.unique)`) and `swift()` have it, not a plain attribute beside it.
extension CoreDataStore {
    /// One-attribute constraints on attributes the entity reads become `isUnique`; the
    /// others stay in `uniqueness`.
    static func applyUniqueness(_ constraints: [[String]], to entity: inout EntityDescription) {
        guard !constraints.isEmpty else { return }
        let names = Set(entity.attributes.map(\.name))
        for var attribute in entity.attributes where constraints.contains([attribute.name]) {
            attribute.isUnique = true
            entity.replaceAttribute(attribute)
        }
        entity.uniqueness = constraints.filter { $0.count != 1 || !names.contains($0[0]) }
    }
}
