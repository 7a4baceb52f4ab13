import Foundation
import GRDB

/// Defining entities: the context refuses while changes are pending and redescribes the
/// objects in use; the store keeps the declarations (`PersistentStore.keepDeclaration`).
extension ObjectContext {
    /// Adds or replaces `entity` in the store's model (`PersistentStore.remember`); objects
    /// in use take a redefined entity's description.
    func remember(_ entity: EntityDescription, storage: EntityStorage? = nil) {
        if let previous = store.remember(entity, storage: storage), previous != entity { redescribeObjects(as: entity) }
    }

    /// `entity` was redefined (`define`, `relate`, a member of its hierarchy) while
    /// objects of it are in use: they take the new description (see `redescribe`), with
    /// the values of keys new to its layout (a migration's new column, a `relate`d
    /// to-one's key) read from the store. An object the store cannot give again keeps
    /// the values it was read with. Without this an object kept from before answered by
    /// the old description: no relationship `relate` had just added.
    private func redescribeObjects(as entity: EntityDescription) {
        var objects: [ManagedObject] = unsaved.inserted.filter { $0.entity.name == entity.name && $0.primaryKey == nil }
        for box in registrations(of: entity.name)?.values ?? [:].values {
            if let object = box.object, object.entity.name == entity.name { objects.append(object) }
        }
        guard !objects.isEmpty else { return }
        let keys = objects.compactMap { $0.isInserted ? nil : $0.primaryKey }
        let rows = (try? storedRows(of: entity, keys: keys)) ?? [:]
        for object in objects {
            object.redescribe(as: entity, stored: object.primaryKey.flatMap { rows[$0] }.map { values(of: entity, row: $0) })
        }
    }

    /// Creates the entity, or migrates the existing one in place to this definition, in
    /// one transaction. An attribute left out is dropped with its column, as a Core Data
    /// lightweight migration drops it; a type change, or a new required attribute that
    /// existing rows cannot fill, is refused, as is any change while changes are pending.
    @discardableResult
    public func define(_ definition: EntityDescription) throws -> EntityDescription {
        try store.refuseDefining(definition.name, whole: false)
        try store.validate(definition)
        // An existing empty file becomes Quarry's with its first entity: WAL from then on.
        if managedObjectModel.entitiesByName.isEmpty, !isReadOnly { try useWriteAheadLog() }
        // Inverses are kept in step: relationships other entities declare toward this one
        // come in, and this one's inverses are added to entities already defined.
        var kept = definition
        // Relationships made by relate() (through existing columns) survive a redefinition.
        for r in declaredEntity(definition.name)?.relationships ?? [] where r.column != nil && kept.relationship(named: r.name) == nil {
            kept.relationships.append(r)
        }
        let entity = withInversesDeclaredElsewhere(kept)
        let changes = try inverseChanges(for: entity)
        let existing = declaredEntity(entity.name)
        if existing != nil, mapped(entity).isView || mapped(entity).isForeign && entity.parent != nil {
            throw StoreError.viewIsReadOnly(entity: entity.name)
        }
        if existing == entity, changes.isEmpty { return entity }
        if isReadOnly { throw StoreError.readOnly(operation: "entity \(entity.name)") }
        if existing != nil || !changes.isEmpty, hasChanges {
            throw StoreError.migrationRefused(entity: entity.name, reason: "there are unsaved changes; save() or rollback() first")
        }
        // Inheritance: checked against the hierarchies as they are, before anything is written.
        // In a batch, entities outside any hierarchy and without constraints have nothing
        // to check, and building the map of every declaration for each would be quadratic.
        let alone = managedObjectModel.definitionIndex != nil && entity.uniqueness.isEmpty && ([entity] + changes).allSatisfy { e in
            e.parent == nil && declaredEntity(e.name)?.parent == nil && !hasSubentities(e.name)
        }
        if !alone {
            let declared = managedObjectModel.declaredMap
            if let problem = try hierarchyProblem(entity, declared: declared) {
                throw StoreError.invalidSchema(entity: entity.name, reason: problem)
            }
            if let problem = store.uniquenessProblem(entity, declared: declared) {
                throw StoreError.invalidSchema(entity: entity.name, reason: problem)
            }
            for changed in changes {
                if let problem = try hierarchyProblem(changed, declared: declared.merging([(entity.name, entity)]) { $1 }) {
                    throw StoreError.invalidSchema(entity: changed.name, reason: problem)
                }
            }
        }
        var touched: [String] = []
        do {
            try database.write { db in touched = try store.writeDefinition(entity, changes: changes, in: db, context: self) }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
        didDefine(entity)
        for changed in changes { didDefine(changed) }
        if !touched.isEmpty { rememberEffective(touched) }
        return managedObjectModel.entitiesByName[entity.name] ?? entity
    }

    private func withInversesDeclaredElsewhere(_ entity: EntityDescription) -> EntityDescription {
        var result = entity
        // In a batch, only the entities that relate to this one (in definition order, as
        // `declaredEntities` gives them), not all of them.
        let others = managedObjectModel.definitionIndex.map { index in
            let related = index.entities(relatedTo: entity.name)
            return index.inOrder(related).compactMap { declaredEntity($0) }
        } ?? declaredEntities
        for other in others where other.name != entity.name {
            for r in other.relationships where r.destination == entity.name {
                guard let inverse = r.inverse, result.relationship(named: inverse) == nil else { continue }
                result.relationships.append(RelationshipDescription(name: inverse, destination: other.name, inverse: r.name, isToMany: true))
            }
        }
        // A relationship to itself names its inverse on the same entity.
        for r in entity.relationships where r.destination == entity.name {
            if let inverse = r.inverse, result.relationship(named: inverse) == nil {
                result.relationships.append(RelationshipDescription(name: inverse, destination: entity.name, inverse: r.name, isToMany: true))
            }
        }
        return result
    }

    /// Other entities that gain an inverse of one of `entity`'s relationships.
    private func inverseChanges(for entity: EntityDescription) throws -> [EntityDescription] {
        var changed: [String: EntityDescription] = [:]
        for r in entity.relationships {
            guard r.destination != entity.name, let destination = changed[r.destination] ?? declaredEntity(r.destination) else { continue }
            guard let inverseName = r.inverse else { continue }
            if let inverse = destination.relationship(named: inverseName) {
                if inverse.destination != entity.name {
                    throw StoreError.invalidSchema(entity: entity.name,
                        reason: "the inverse of '\(r.name)' is \(destination.name).\(inverseName), which leads to \(inverse.destination), not \(entity.name)")
                }
                if let back = inverse.inverse, back != r.name {
                    throw StoreError.invalidSchema(entity: entity.name,
                        reason: "\(destination.name).\(inverseName) names '\(back)' as its inverse, not '\(r.name)'")
                }
                if inverse.inverse == nil {
                    var updated = destination
                    updated.relationships = updated.relationships.map { $0.name == inverseName ? RelationshipDescription(
                        name: $0.name, destination: $0.destination, inverse: r.name, isToMany: $0.isToMany, deleteRule: $0.deleteRule) : $0 }
                    changed[destination.name] = updated
                }
                continue
            }
            if destination.attribute(named: inverseName) != nil {
                throw StoreError.invalidSchema(entity: entity.name, reason: "the inverse '\(inverseName)' is an attribute of \(destination.name)")
            }
            var updated = destination
            updated.relationships.append(RelationshipDescription(name: inverseName, destination: entity.name, inverse: r.name, isToMany: true))
            changed[destination.name] = updated
        }
        return changed.values.sorted { $0.name < $1.name }
    }



    /// How a relationship's links are stored, or nil while its destination is undefined.
    public func storage(of relationship: RelationshipDescription, in entity: String) -> RelationshipStorage? {
        store.storage(of: relationship, in: entity)
    }

    /// Creates or migrates the entity's table and keeps its declaration (the store's
    /// `writeTable`), inside the caller's transaction (`relate`, `import`); `didDefine` or
    /// `remember` must follow once that commits.
    func write(_ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database) throws {
        try store.writeTable(entity, replacing: existing, in: db, context: self)
    }

    func didDefine(_ entity: EntityDescription) {
        managedObjectModel.definitionIndex?.replace(declaredEntity(entity.name), with: entity)
        if !mapped(entity).isForeign { managedObjectModel.declaredByName[entity.name] = entity }
        remember(entity)
        bumpGeneration()
    }

    /// Puts every entity of a hierarchy in `managedObjectModel.entitiesByName` as objects see it.
    func rememberEffective(_ names: [String]) {
        for entity in store.effectiveEntities(names) { remember(entity) }
    }

    /// Why `definition` cannot take its place in the hierarchies of `declared`; nil when it can.
    func hierarchyProblem(_ definition: EntityDescription, declared old: [String: EntityDescription]) throws -> String? {
        // Alone in its hierarchy, before and after: no family to clash with, no rows to
        // move. Known at once in a batch (`DefinitionIndex`), else found below.
        if definition.parent == nil, old[definition.name]?.parent == nil, let definitionIndex = managedObjectModel.definitionIndex,
           !definitionIndex.hasSubentities(definition.name) {
            return nil
        }
        var declared = old
        declared[definition.name] = definition
        let previous = old[definition.name]
        if let parent = definition.parent {
            if parent == definition.name { return "it cannot be its own parent" }
            guard let entity = managedObjectModel.entitiesByName[parent] else {
                return "its parent \(parent) is not defined (define the parent first)"
            }
            if mapped(entity).isForeign || mapped(entity).isView { return "its parent \(parent) is not an entity of Quarry's (a table or view of the file)" }
            var seen: Set<String> = [definition.name]
            var next: String? = parent
            while let name = next {
                if !seen.insert(name).inserted { return "parent \(parent) would make a cycle (\(parent) inherits from \(definition.name))" }
                next = declared[name]?.parent
            }
        }
        // One table holds the whole hierarchy: a key means one column in it.
        let root = ManagedObjectModel.root(of: definition.name, in: declared)
        let order = managedObjectModel.entityOrder + (managedObjectModel.entityOrder.contains(definition.name) ? [] : [definition.name])
        let family = [declared[root]].compactMap { $0 } + ManagedObjectModel.below(root, in: declared, order: order)
        let related = Set(ManagedObjectModel.ancestors(of: definition.name, in: declared).map(\.name) + ManagedObjectModel.below(definition.name, in: declared, order: order).map(\.name))
        for key in definition.keyNames {
            for other in family where other.name != definition.name && other.keyNames.contains(where: { $0.lowercased() == key.lowercased() }) {
                if related.contains(other.name) {
                    let isAncestor = ManagedObjectModel.ancestors(of: definition.name, in: declared).contains { $0.name == other.name }
                    return "'\(key)' is already a key of \(isAncestor ? "its ancestor" : "its sub-entity") \(other.name)"
                }
                return "'\(key)' is also a key of \(other.name), in the same hierarchy (one table holds them both; declare it on a common parent)"
            }
        }
        // A sub-entity's rows are not all its root table's: its own are counted here (the
        // root table's migration sees its new columns as optional).
        if let previous, previous.parent == definition.parent, definition.parent != nil,
           let added = definition.attributes.first(where: { !$0.isOptional && $0.defaultValue == nil && $0.renamedFrom == nil && previous.attribute(named: $0.name) == nil }) {
            let rows = try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoteIdentifier(definition.name))") ?? 0 }
            if rows > 0 { return "new attribute '\(added.name)' is required, so the \(rows) existing rows need a default" }
        }
        // Moving an entity to another hierarchy (or out of one) moves no rows: only an empty one moves.
        if let previous, previous.parent != definition.parent {
            if hasSubentities(definition.name) {
                return "changing its parent from \(previous.parent ?? "none") to \(definition.parent ?? "none") would move its sub-entities too; not supported"
            }
            let rows = try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoteIdentifier(definition.name))") ?? 0 }
            if rows > 0 {
                return "changing its parent from \(previous.parent ?? "none") to \(definition.parent ?? "none") with \(rows) \(rows == 1 ? "row" : "rows") in it is not supported (Quarry moves no rows between tables)"
            }
        }
        return nil
    }

    /// Runs `body` (a batch of `define`s) with a `DefinitionIndex` in place.
    func withDefinitionIndex<T>(_ body: () throws -> T) rethrows -> T {
        guard managedObjectModel.definitionIndex == nil else { return try body() }
        managedObjectModel.definitionIndex = DefinitionIndex(managedObjectModel.declaredMap, order: managedObjectModel.entityOrder)
        defer { managedObjectModel.definitionIndex = nil }
        return try body()
    }
}
