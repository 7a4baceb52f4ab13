import QuarryModel
/// Checks a decoded model's cross-references, whatever source it came from: every parent
/// entity, relationship destination and inverse must exist, the hierarchy must have no
/// cycle, and names must be unique. Run once after decoding, so that everything built on a
/// `CoreDataModel` can follow names without checking them again.
package enum ModelValidation {
    package static func check(_ model: CoreDataModel, path: String) throws {
        func dangling(_ detail: String) -> ModelFileError { ModelFileError(.danglingReference, path: path, detail) }
        // Sets made at their size: grown from empty, each was hashed again at every
        // doubling (Photos.app's 61 entities and 1,900 properties, at every open of its store).
        var names = Set<String>(minimumCapacity: model.entities.count)
        for entity in model.entities {
            guard !entity.name.isEmpty else { throw ModelFileError(.notAModel, path: path, "an entity has no name") }
            guard names.insert(entity.name).inserted else { throw ModelFileError(.notAModel, path: path, "entity \(entity.name) is defined twice") }
        }
        for entity in model.entities {
            if let parent = entity.parent, !names.contains(parent) {
                throw dangling("entity \(entity.name) has parent entity \(parent), which is not in the model")
            }
            var properties = Set<String>(minimumCapacity: entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
            func once(_ name: String) throws {
                guard properties.insert(name).inserted else {
                    throw ModelFileError(.notAModel, path: path, "entity \(entity.name) has two properties named \(name)")
                }
            }
            for a in entity.attributes { try once(a.name) }
            for r in entity.relationships { try once(r.name) }
            for f in entity.fetchedProperties { try once(f.name) }
        }
        // By name: `model.entity(named:)` is a linear search, and these loops look up every
        // entity's parent and every relationship's destination (a quadratic check otherwise).
        let byName = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in model.entities {
            // A walk longer than the entities goes round a cycle; only then is a set of the
            // names seen made, to name where it closes.
            var current = entity.parent
            var steps = 0
            while let parent = current, steps <= byName.count {
                current = byName[parent]?.parent
                steps += 1
            }
            guard current != nil else { continue }
            var visited: Set<String> = [entity.name]
            current = entity.parent
            while let parent = current {
                guard visited.insert(parent).inserted else {
                    throw dangling("entity \(entity.name)'s parent entities form a cycle through \(parent)")
                }
                current = byName[parent]?.parent
            }
        }
        let relationshipNames = byName.mapValues { Set($0.relationships.map(\.name)) }
        /// Whether `name` or one of its ancestors declares the relationship `relationship`.
        /// No chain of parents has a cycle (above), so the walk ends.
        func hasRelationship(_ name: String, _ relationship: String) -> Bool {
            var current: String? = name
            while let next = current, let entity = byName[next] {
                if relationshipNames[next]?.contains(relationship) == true { return true }
                current = entity.parent
            }
            return false
        }
        for entity in model.entities {
            for relationship in entity.relationships {
                guard names.contains(relationship.destination) else {
                    throw dangling(
                        "relationship \(entity.name).\(relationship.name) points to entity \(relationship.destination), which is not in the model")
                }
                if let inverse = relationship.inverse, !hasRelationship(relationship.destination, inverse) {
                    throw dangling(
                        "relationship \(entity.name).\(relationship.name) has inverse \(relationship.destination).\(inverse), which is not in the model"
                    )
                }
            }
        }
    }
}

extension CoreDataModel {
    /// Checks the model's cross-references as a decoded one is checked; `path` names the
    /// file in the error (a model about to be written there).
    public static func validate(_ model: CoreDataModel, path: String) throws {
        try ModelValidation.check(model, path: path)
    }
}
