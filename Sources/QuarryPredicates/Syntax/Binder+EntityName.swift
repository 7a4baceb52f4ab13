import QuarryModel
import QuarryStore

/// `entity.name == 'Sub'`: Apple's grammar reads the object's `NSEntityDescription`, so a
/// fetch of a parent entity can keep the objects of some of its sub-entities. An object's
/// entity is its own, not an ancestor (`entity.name == 'Parent'` keeps no sub-entity's).
extension Binder {
    /// The test, bound; nil when the comparison is of no `entity.name`, or when `entity`
    /// is a key of the entity's own.
    func entityNameTest(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node? {
        guard case .keyPath(let path) = c.lhs, path.components == ["entity", "name"], entity.attribute(named: "entity") == nil,
            entity.relationship(named: "entity") == nil
        else { return nil }
        let names: [String]
        switch (c.op, c.rhs) {
        case (.equal, .constant(.text(let name), _)), (.notEqual, .constant(.text(let name), _)): names = [name]
        case (.in, .aggregate(let elements, _)):
            names = try elements.map { element in
                guard case .constant(.text(let name), _) = element else {
                    throw PredicateError(.invalidUse, "entity.name IN takes a list of entity names", column: element.column)
                }
                return name
            }
        default:
            throw PredicateError(
                .unsupported, "entity.name is read compared with ==, != or IN against entity names, as entity.name == 'Sub'", column: path.column)
        }
        guard c.modifier == .direct, c.options.isEmpty else {
            throw PredicateError(.unsupported, "entity.name is read without ANY/ALL/NONE and [c]/[d]", column: path.column)
        }
        let all = context?.entities ?? [entity]
        for name in names where !all.contains(where: { $0.name == name }) {
            throw PredicateError(.unknownKey, "entity.name: no entity is named '\(name)'", column: c.rhs.column)
        }
        // The names an object fetched from `entity` may have: its own and its sub-entities'.
        let kinds = Set(names.filter { context?.isKind($0, of: entity.name) ?? ($0 == entity.name) })
        let hierarchy = all.filter { context?.isKind($0.name, of: entity.name) ?? ($0.name == entity.name) }
        let test: BoundPredicate.Node
        if hierarchy.count <= 1 {
            test = .constant(kinds.contains(entity.name))
        } else {
            let tags = hierarchy.filter { kinds.contains($0.name) }.map { storage(of: $0).entityTag(of: $0.name) }
            test = .entity(names: kinds, tags: tags)
        }
        return c.op == .notEqual ? .not(test) : test
    }
}
