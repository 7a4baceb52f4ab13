/// Inverses are kept in step when an entity is defined: relationships other entities
/// declare toward it come in, and its inverses are added to the entities already defined,
/// as Core Data's model editor keeps both ends of a relationship.
extension ManagedObjectModel {
    /// `entity` with the inverses of relationships other entities declare toward it (and
    /// of its own relationships to itself) added as to-many relationships.
    package func withInversesDeclaredElsewhere(_ entity: EntityDescription) -> EntityDescription {
        var result = entity
        // Only the entities that relate to this one (in definition order, as
        // `declaredEntities` gives them), not all of them: in a batch as its index has
        // them, else as the model's links do (a script of N `entity` calls was quadratic).
        let names = definitionIndex.map { index in index.inOrder(index.entities(relatedTo: entity.name)) } ?? entityNames(relatedTo: entity.name)
        for name in names where name != entity.name {
            guard let other = declaredEntity(name) else { continue }
            for r in other.relationships where r.destination == entity.name {
                guard let inverse = r.inverse, result.relationship(named: inverse) == nil else { continue }
                result.appendRelationship(.implicitInverse(inverse, of: r.name, in: other.name))
            }
        }
        // A relationship to itself names its inverse on the same entity.
        for r in entity.relationships where r.destination == entity.name {
            if let inverse = r.inverse, result.relationship(named: inverse) == nil {
                result.appendRelationship(.implicitInverse(inverse, of: r.name, in: entity.name))
            }
        }
        return result
    }

    /// Other entities that gain an inverse of one of `entity`'s relationships.
    package func inverseChanges(for entity: EntityDescription) throws -> [EntityDescription] {
        var changed: [String: EntityDescription] = [:]
        for r in entity.relationships {
            guard r.destination != entity.name, let destination = changed[r.destination] ?? declaredEntity(r.destination) else { continue }
            guard let inverseName = r.inverse else { continue }
            if let inverse = destination.relationship(named: inverseName) {
                if inverse.destination != entity.name {
                    throw StoreError.invalidSchema(
                        entity: entity.name,
                        reason:
                            "the inverse of '\(r.name)' is \(destination.name).\(inverseName), which leads to \(inverse.destination), not \(entity.name)"
                    )
                }
                if let back = inverse.inverse, back != r.name {
                    throw StoreError.invalidSchema(
                        entity: entity.name,
                        reason: "\(destination.name).\(inverseName) names '\(back)' as its inverse, not '\(r.name)'")
                }
                if inverse.inverse == nil {
                    var updated = destination
                    updated.relationships = updated.relationships.map {
                        guard $0.name == inverseName else { return $0 }
                        var linked = RelationshipDescription(
                            name: $0.name, destination: $0.destination, inverse: r.name, isToMany: $0.isToMany, deleteRule: $0.deleteRule)
                        // An inverse Quarry added stays Quarry's when it gets its inverse back.
                        linked.isImplicitInverse = $0.isImplicitInverse
                        return linked
                    }
                    changed[destination.name] = updated
                }
                continue
            }
            if destination.attribute(named: inverseName) != nil {
                throw StoreError.invalidSchema(entity: entity.name, reason: "the inverse '\(inverseName)' is an attribute of \(destination.name)")
            }
            var updated = destination
            updated.appendRelationship(.implicitInverse(inverseName, of: r.name, in: entity.name))
            changed[destination.name] = updated
        }
        return changed.values.sorted { $0.name < $1.name }
    }
}

extension RelationshipDescription {
    /// The to-many `name` Quarry adds as the inverse of `relationship` of `entity`, marked
    /// as Quarry's (`isImplicitInverse`): a redefinition that leaves it out keeps it.
    static func implicitInverse(_ name: String, of relationship: String, in entity: String) -> RelationshipDescription {
        var inverse = RelationshipDescription(name: name, destination: entity, inverse: relationship, isToMany: true)
        inverse.isImplicitInverse = true
        return inverse
    }
}
