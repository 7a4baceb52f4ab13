import QuarryModel

/// Quarry's tables on any engine: how links are stored, and what a definition must be.
extension PersistentStore {
    /// How a relationship's links are stored, or nil while its destination is undefined.
    package func storage(of relationship: RelationshipDescription, in entity: String) -> RelationshipStorage? {
        guard
            let destination = managedObjectModel.entitiesByName[relationship.destination]
                ?? (relationship.destination == entity ? managedObjectModel.entitiesByName[entity] : nil)
        else { return nil }
        if !relationship.isToMany {
            if let key = relationship.compositeKey { return .compositeKey(columns: key.columns, targetKeys: key.targetKeys) }
            return .foreignKey(column: relationship.keyColumn, targetKey: relationship.targetKey)
        }
        let inverse = relationship.inverse.flatMap { destination.relationship(named: $0) }
        if let inverse, !inverse.isToMany, let key = inverse.compositeKey {
            return .inverseCompositeKey(destination: destination.name, columns: key.columns, ownerKeys: key.targetKeys, inverse: inverse.name)
        }
        if let inverse, !inverse.isToMany {
            return .inverseForeignKey(destination: destination.name, column: inverse.keyColumn, ownerKey: inverse.targetKey, inverse: inverse.name)
        }
        // A many-to-many pair shares one table, named after the side that sorts first,
        // each side by the entity that declares it (in a hierarchy, a parent's results
        // also read a sub-entity's relationships, and a sub-entity inherits its parent's).
        let mine = "\(declaringEntity(relationship.name, in: entity))_\(relationship.name)"
        let theirs = inverse.map { "\(declaringEntity($0.name, in: destination.name))_\($0.name)" }
        if let theirs, theirs < mine {
            return .linkTable(table: "quarry_link_" + theirs, sourceColumn: "target", targetColumn: "source")
        }
        return .linkTable(table: "quarry_link_" + mine, sourceColumn: "source", targetColumn: "target")
    }

    /// The member of `entity`'s hierarchy whose declaration holds the relationship `name`
    /// (a key appears once per hierarchy); `entity` itself outside hierarchies.
    private func declaringEntity(_ name: String, in entity: String) -> String {
        if managedObjectModel.declaredByName[entity]?.relationship(named: name) != nil || managedObjectModel.declaredByName[entity] == nil {
            return entity
        }
        let root = ManagedObjectModel.root(of: entity, in: managedObjectModel.declaredByName)
        for (member, declared) in managedObjectModel.declaredByName
        where declared.relationship(named: name) != nil && ManagedObjectModel.root(of: member, in: managedObjectModel.declaredByName) == root {
            return member
        }
        return entity
    }

    /// Refuses an entity whose names Quarry's tables cannot take (reserved, empty, clashing
    /// in case, Quarry's own columns), or whose default does not fit its attribute.
    package func validate(_ entity: EntityDescription) throws {
        for name in [entity.name] + entity.keyNames {
            if let problem = SchemaName.problem(name) {
                throw StoreError.invalidSchema(entity: entity.name, reason: "\(SchemaName.shown(name)) \(problem)")
            }
        }
        guard !entity.name.isEmpty, !entity.name.hasPrefix("quarry_"), !entity.name.hasPrefix("sqlite_") else {
            throw StoreError.invalidSchema(entity: entity.name, reason: "the name is reserved or empty")
        }
        // The column that names each row's entity in a hierarchy is Quarry's own.
        if let name = entity.keyNames.first(where: { $0.lowercased() == EntityStorage.entityColumn.lowercased() }) {
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(name)' is reserved: it names each row's entity in a hierarchy")
        }
        var seen: Set<String> = []
        for name in entity.keyNames where !seen.insert(name.lowercased()).inserted {
            // SQLite's column names ignore case.
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(name)' differs from another key only in case")
        }
        for r in entity.relationships where r.name.isEmpty || r.name.lowercased() == EntityStorage.quarryKeyColumn {
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(r.name)' cannot be a relationship name")
        }
        for attribute in entity.attributes {
            if attribute.name.lowercased() == EntityStorage.quarryKeyColumn || attribute.name.isEmpty {
                throw StoreError.invalidSchema(entity: entity.name, reason: "'\(attribute.name)' cannot be an attribute name")
            }
            if let value = attribute.defaultValue, case .failure = attribute.type.coerce(value) {
                throw StoreError.invalidSchema(
                    entity: entity.name,
                    reason: "the default of '\(attribute.name)' is not a \(attribute.type.rawValue)")
            }
        }
    }
}

extension PersistentStore {
    /// The table of fetch request templates `model()` keeps in Quarry's own stores, one
    /// row per template (its predicate as a format string, or why it could not be read),
    /// on any engine.
    package static var templateTable: String { "quarry_fetch_template" }
}
