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
        try store.refuse(definition)
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
        let entity = managedObjectModel.withInversesDeclaredElsewhere(kept)
        let changes = try managedObjectModel.inverseChanges(for: entity)
        let existing = declaredEntity(entity.name)
        if existing != nil, mapped(entity).isView || !store.keepsDeclaration(of: entity.name) && entity.parent != nil {
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
            if let problem = try store.hierarchyProblem(entity, declared: declared, context: self) {
                throw StoreError.invalidSchema(entity: entity.name, reason: problem)
            }
            if let problem = store.uniquenessProblem(entity, declared: declared) {
                throw StoreError.invalidSchema(entity: entity.name, reason: problem)
            }
            for changed in changes {
                if let problem = try store.hierarchyProblem(changed, declared: declared.merging([(entity.name, entity)]) { $1 }, context: self) {
                    throw StoreError.invalidSchema(entity: changed.name, reason: problem)
                }
            }
        }
        let touched = try store.define(entity, changes: changes, context: self)
        didDefine(entity)
        for changed in changes { didDefine(changed) }
        if !touched.isEmpty { rememberEffective(touched) }
        return managedObjectModel.entitiesByName[entity.name] ?? entity
    }

    /// The attributes `definition` leaves out of the entity as declared, which `define`
    /// drops with their columns, each with how many values (not nil) it holds now.
    public func attributesDropped(by definition: EntityDescription) throws -> [(name: String, values: Int64)] {
        guard let existing = declaredEntity(definition.name) else { return [] }
        // An attribute renamed (`renamedFrom`) keeps its values under the new name, when the
        // rename happens: its old name exists and its new one does not yet (as `migrate` has it).
        let renamed = definition.attributes.compactMap { a in
            a.renamedFrom.flatMap { from in existing.attribute(named: a.name) == nil && existing.attribute(named: from) != nil ? from : nil }
        }
        let kept = Set(definition.attributes.map(\.name) + renamed)
        let dropped = existing.attributes.map(\.name).filter { !kept.contains($0) }
        guard !dropped.isEmpty else { return [] }
        let storage = mapped(existing)
        let counts = try connection.row("SELECT \(dropped.map { "count(\(storage.column($0)))" }.joined(separator: ", ")) FROM \(storage.table)") ?? []
        return dropped.enumerated().map { i, name in
            guard counts.indices.contains(i), case .integer(let n) = counts[i] else { return (name, 0) }
            return (name, n)
        }
    }

    /// How a relationship's links are stored, or nil while its destination is undefined.
    public func storage(of relationship: RelationshipDescription, in entity: String) -> RelationshipStorage? {
        store.storage(of: relationship, in: entity)
    }

    /// Creates or migrates the entity's table and keeps its declaration (the store's
    /// `writeTable`), inside the caller's transaction (`relate`, `import`); `didDefine` or
    /// `remember` must follow once that commits.
    func write(_ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database) throws {
        guard let store = store as? any SQLiteStore else { throw StoreConnection.needsEngine("SQLite", for: "defining entities in a SQLite transaction") }
        try store.writeTable(entity, replacing: existing, in: db, context: self)
    }

    func didDefine(_ entity: EntityDescription) {
        managedObjectModel.definitionIndex?.replace(declaredEntity(entity.name), with: entity)
        if store.keepsDeclaration(of: entity.name) { managedObjectModel.declaredByName[entity.name] = entity }
        remember(entity)
        bumpGeneration()
    }

    /// Puts every entity of a hierarchy in `managedObjectModel.entitiesByName` as objects see it.
    func rememberEffective(_ names: [String]) {
        for entity in store.effectiveEntities(names) { remember(entity) }
    }

    /// Runs `body` (a batch of `define`s) with a `DefinitionIndex` in place.
    func withDefinitionIndex<T>(_ body: () throws -> T) rethrows -> T {
        guard managedObjectModel.definitionIndex == nil else { return try body() }
        managedObjectModel.definitionIndex = DefinitionIndex(managedObjectModel.declaredMap, order: managedObjectModel.entityOrder)
        defer { managedObjectModel.definitionIndex = nil }
        return try body()
    }
}
