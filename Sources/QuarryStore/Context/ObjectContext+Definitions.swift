import Foundation
import QuarryModel

/// Defining entities: the context refuses while changes are pending and redescribes the
/// objects in use; the store keeps the declarations (`PersistentStore.keepDeclaration`).
extension ObjectContext {
    /// Adds or replaces `entity` in the store's model (`PersistentStore.remember`); objects
    /// in use take a redefined entity's description.
    package func remember(_ entity: EntityDescription, storage: EntityStorage? = nil) {
        // Another program's table, read at open, has the inverses of the relationships
        // Quarry's entities declare toward it (a `Review.product` to Northwind's
        // `Products` gives `Products.reviews`): its own declaration is never kept.
        let entity = storage.map(store.derivesInverses(for:)) == true ? managedObjectModel.withInversesDeclaredElsewhere(entity) : entity
        if let previous = store.remember(entity, storage: storage) { redescribeObjects(as: entity, unlessSameAs: previous) }
    }

    /// `entity` was redefined (`define`, `relate`, a member of its hierarchy) while
    /// objects of it are in use: they take the new description (see `redescribe`), with
    /// the values of keys new to its layout (a migration's new column, a `relate`d
    /// to-one's key) read from the store. An object the store cannot give again keeps
    /// the values it was read with. Without this an object kept from before answered by
    /// the old description: no relationship `relate` had just added.
    ///
    /// The descriptions are compared only when objects are in use: a table named by N
    /// others gains N inverses at an open, and comparing its N relationships at each made
    /// the open quadratic.
    private func redescribeObjects(as entity: EntityDescription, unlessSameAs previous: EntityDescription) {
        var objects: [ManagedObject] = unsaved.inserted.filter { $0.entity.name == entity.name && $0.primaryKey == nil }
        for box in registrations(of: entity.name)?.values ?? [:].values {
            if let object = box.object, object.entity.name == entity.name { objects.append(object) }
        }
        guard !objects.isEmpty, previous != entity else { return }
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
    /// Another program's table keeps its columns unless `dropping` names them
    /// (`definitionOfOtherProgramsTable`).
    @discardableResult
    public func define(_ definition: EntityDescription, dropping: Set<String> = []) throws -> EntityDescription {
        try store.refuseDefining(definition.name, whole: false)
        var definition = definition
        if let table = try definitionOfOtherProgramsTable(definition, dropping: dropping) {
            // What `.schema` printed for it, run back, is the table as read: nothing to write.
            if let read = managedObjectModel.entitiesByName[table.name], table == read { return read }
            definition = table
        } else if let name = dropping.sorted().first(where: {
            declaredEntity(definition.name)?.attribute(named: $0) == nil || definition.attribute(named: $0) != nil
        }) {
            // Here leaving an attribute out drops it: `drop` may only say so again.
            throw StoreError.migrationRefused(
                entity: definition.name, reason: "drop names '\(name)', which is no attribute the definition leaves out; nothing was changed")
        }
        try store.refuse(definition)
        try store.validate(definition)
        // Inverses are kept in step: relationships other entities declare toward this one
        // come in, and this one's inverses are added to entities already defined.
        var kept = definition
        // Relationships made by relate() (through existing columns) survive a redefinition.
        // So do the inverses Quarry added (`isImplicitInverse`): `Book.tags`, added because
        // `Tag` named it, is not dropped when `Book` is defined again without it, or a
        // script run twice would drop it on its second run.
        for r in declaredEntity(definition.name)?.relationships ?? []
        where kept.relationship(named: r.name) == nil && (r.column != nil || r.isImplicitInverse == true && kept.attribute(named: r.name) == nil) {
            kept.appendRelationship(r)
        }
        // Another program's table's to-many toward this entity is only the inverse of what
        // this entity declared before (`remember`): it does not bring a relationship the
        // new definition leaves out back (as a many-to-many, its to-one's column dropped).
        var entity = managedObjectModel.withInversesDeclaredElsewhere(kept)
        entity.relationships.removeAll { r in kept.relationship(named: r.name) == nil && isDerivedInverse(r.inverse, of: r.destination) }
        // A relationship the new definition leaves out does not come back as the inverse of
        // its other end, which stays without one (`endsLosingTheirInverse`).
        let losing = endsLosingTheirInverse(by: kept)
        entity.relationships.removeAll { r in kept.relationship(named: r.name) == nil && losing.dropped.contains(r.name) }
        // Nor is it an inverse the new definition must match (`fav` renamed `airline`).
        // A copy of the model only where a table changes, and gone at the end of its block:
        // one alive while the store writes made every change to the model copy all of it.
        let stale = tablesWithoutStaleInverses(toward: entity)
        var changes: [EntityDescription]
        if stale.isEmpty {
            changes = try managedObjectModel.inverseChanges(for: entity)
        } else {
            var withoutStale = managedObjectModel
            for table in stale { withoutStale.setEntity(table, named: table.name) }
            changes = try withoutStale.inverseChanges(for: entity)
        }
        changes = Self.merging(losing.ends, into: changes, toward: entity.name, dropped: losing.dropped)
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
        // Entities outside any hierarchy and without constraints have nothing to check, and
        // building the map of every declaration for each would be quadratic: in a batch
        // (`DefinitionIndex`) and in a script's `entity` calls alike (300 entities: 4.5 s).
        let alone =
            entity.uniqueness.isEmpty
            && ([entity] + changes).allSatisfy { e in
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
        let touched = try store.define(entity, changes: changes, session: session)
        didDefine(entity)
        for changed in changes { didDefine(changed) }
        for table in tablesWithoutStaleInverses(toward: entity) { remember(table) }
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
        return Array(zip(dropped, try valueCounts(of: dropped, in: existing))).map { (name: $0, values: $1) }
    }

    /// How a relationship's links are stored, or nil while its destination is undefined.
    public func storage(of relationship: RelationshipDescription, in entity: String) -> RelationshipStorage? {
        store.storage(of: relationship, in: entity)
    }

    /// Whether `name` of entity `table` is another program's table's to-many, an inverse
    /// `remember` derived from a Quarry entity's declaration (none of the table's own keys).
    private func isDerivedInverse(_ name: String?, of table: String) -> Bool {
        guard let name, store.derivesInverses(of: table), let other = managedObjectModel.entitiesByName[table],
            let r = other.relationship(named: name)
        else { return false }
        return r.isToMany && r.column == nil
    }

    /// Other programs' tables without the inverses of relationships `entity` does not
    /// declare (`Products.reviews` once `Review` has no `product`), as the next open,
    /// where only the declarations kept give them, reads them; only those that change.
    private func tablesWithoutStaleInverses(toward entity: EntityDescription) -> [EntityDescription] {
        // In a batch, only the tables found once for it (`DefinitionIndex`); else only those
        // that relate to the entity (the model's links), not every entity.
        let candidates: [String]
        if let index = managedObjectModel.definitionIndex {
            if index.tablesTakingInverses == nil {
                index.tablesTakingInverses = managedObjectModel.entityOrder.filter { store.derivesInverses(of: $0) }
            }
            candidates = index.tablesTakingInverses ?? []
        } else {
            candidates = managedObjectModel.entityNames(relatedTo: entity.name)
        }
        return candidates.compactMap { name in
            // Only a table with a relationship toward the entity can lose one; asking the
            // store about every table first (its mapping makes a description of each) was
            // most of a script's time to define a few thousand entities.
            guard let table = managedObjectModel.entitiesByName[name], table.relationships.contains(where: { $0.destination == entity.name }),
                store.derivesInverses(of: name)
            else { return nil }
            var stripped = table
            stripped.relationships.removeAll { r in
                guard r.destination == entity.name, isDerivedInverse(r.name, of: name) else { return false }
                let back = r.inverse.flatMap { entity.relationship(named: $0) }
                return back == nil || back?.destination != name || back?.inverse != r.name
            }
            return stripped == table ? nil : stripped
        }
    }

    func didDefine(_ entity: EntityDescription) {
        managedObjectModel.definitionIndex?.replace(declaredEntity(entity.name), with: entity)
        if store.keepsDeclaration(of: entity.name) { managedObjectModel.setDeclared(entity, named: entity.name) }
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

/// `model("App.xcdatamodeld")`: a Core Data model's entities defined in a Quarry store,
/// as `entity` defines them (new entities created, existing ones migrated in place).
extension ObjectContext {
    /// Defines every entity of `model` (read from `path`, named in errors); returns their
    /// names. Everything is checked before anything is defined, so a model that does not
    /// fit the store changes nothing.
    @discardableResult
    public func define(model: CoreDataModel, from path: String) throws -> [String] {
        try store.refuseDefining(model.entities.first?.name ?? "model", whole: true)
        // Parents before their sub-entities, so each is defined into a hierarchy that exists.
        let all = model.quarryEntities()
        let names = Set(all.map(\.name))
        var definitions: [EntityDescription] = []
        var placed: Set<String> = []
        while definitions.count < all.count {
            let ready = all.filter { !placed.contains($0.name) && ($0.parent.map { placed.contains($0) || !names.contains($0) } ?? true) }
            guard !ready.isEmpty else {
                let stuck = all.first { !placed.contains($0.name) }
                throw ModelFileError(.danglingReference, path: path, "entity \(stuck?.name ?? "?") is in a cycle of parents; nothing was defined")
            }
            for entity in ready {
                definitions.append(entity)
                placed.insert(entity.name)
            }
        }
        for definition in definitions {
            if let parent = definition.parent, !names.contains(parent), managedObjectModel.entitiesByName[parent] == nil {
                throw ModelFileError(
                    .danglingReference, path: path,
                    "entity \(definition.name) inherits from \(parent), which is neither in the model nor in the store; nothing was defined")
            }
        }
        for definition in definitions {
            guard let existing = managedObjectModel.entitiesByName[definition.name] else { continue }
            for attribute in definition.attributes {
                if let old = existing.attribute(named: attribute.name), old.type != attribute.type {
                    throw StoreError.migrationRefused(
                        entity: definition.name,
                        reason:
                            "\(path) gives '\(attribute.name)' the type \(attribute.type.rawValue), the store holds \(old.type.rawValue); nothing was defined"
                    )
                }
            }
        }
        // What this store cannot hold (a PostgreSQL schema: inheritance), before any is defined.
        for definition in definitions { try store.refuse(definition) }
        try rehearse(definitions, from: path)
        try withDefinitionIndex {
            for definition in definitions {
                try ModelFileError.stopIfAsked(path, at: "entity \(definition.name)")
                try define(definition)
            }
        }
        try keep(templates: model.fetchRequests)
        return definitions.map(\.name)
    }
}

extension ObjectContext {
    /// Defines `definitions` first in an empty in-memory store that holds this store's
    /// declarations, so a refusal that `define` finds only while defining (a key that
    /// clashes with an ancestor's, a reserved name) comes before anything is written
    /// here. Refusals that depend on rows (a required attribute with no default) can
    /// still come later, from the store itself.
    private func rehearse(_ definitions: [EntityDescription], from path: String) throws {
        // The core opens no engine: the empty in-memory context (Quarry's own layout on
        // SQLite) comes from the registry, through the environment.
        guard let makeScratch = environment.makeScratch else {
            throw StoreError.database(message: "no in-memory store to rehearse \(path)'s definitions in (the store was opened without one)")
        }
        let rehearsal = try makeScratch()
        defer { rehearsal.close() }
        try rehearsal.withDefinitionIndex {
            for name in managedObjectModel.entityOrder {
                // What the rehearsal cannot hold (a relationship to a table of the file) is
                // left out; only the model's own definitions must pass.
                if let declared = managedObjectModel.declaredByName[name] { _ = try? rehearsal.define(declared) }
            }
            for definition in definitions {
                try ModelFileError.stopIfAsked(path, at: "entity \(definition.name)")
                do { _ = try rehearsal.define(definition) } catch {
                    try ModelFileError.stopIfAsked(path, at: "entity \(definition.name)")
                    throw ModelFileError(.unsupported, path: path, "\(error); nothing was defined")
                }
            }
        }
    }
}

/// A model's fetch request templates (`fetch{ template = "name", vars = { ... } }`): a
/// Core Data store's come from its own model; `model()` keeps a model's with the store
/// (`PersistentStore.keep(templates:context:)`), so they survive reopening.
extension ObjectContext {
    /// The store's fetch request templates, by name.
    public func fetchTemplates() throws -> [CoreDataFetchRequest] {
        if let model = store.modelAsRead { return model.fetchRequests }
        return try store.keptTemplates(session: session).sorted { $0.name < $1.name }
    }

    /// Keeps `templates` (those of entities the store has), replacing any of the same name.
    package func keep(templates: [CoreDataFetchRequest]) throws {
        let kept = templates.filter { managedObjectModel.entitiesByName[$0.entity] != nil }
        guard !kept.isEmpty else { return }
        try store.keep(.templates(kept), session: session)
    }
}

/// Redefining an entity without a relationship whose inverse another entity declares
/// (issue 60, item 9, as the contract's Context paragraph decides): the other end stays,
/// without an inverse, its links kept (a to-many's moved to a link table of its own,
/// `QuarryDefinition.moveLinks`; a to-one's column kept), and the redefined entity does
/// not get the relationship back as that end's inverse (`define`).
extension ObjectContext {
    /// The ends that lose their inverse when `definition` leaves relationships of the
    /// entity as declared out: each end's entity without that inverse, and the names of
    /// the relationships left out. Another program's tables have only derived inverses,
    /// which `tablesWithoutStaleInverses` drops; a relationship to the entity itself is
    /// the definition's own business.
    func endsLosingTheirInverse(by definition: EntityDescription) -> (dropped: Set<String>, ends: [EntityDescription]) {
        guard let existing = declaredEntity(definition.name) else { return ([], []) }
        var dropped: Set<String> = []
        var ends: [String: EntityDescription] = [:]
        for r in existing.relationships where definition.relationship(named: r.name) == nil && r.destination != definition.name {
            guard let inverse = r.inverse, store.keepsDeclaration(of: r.destination), !store.derivesInverses(of: r.destination),
                let other = ends[r.destination] ?? managedObjectModel.declaredEntity(r.destination),
                let back = other.relationship(named: inverse), back.destination == definition.name, back.inverse == r.name
            else { continue }
            dropped.insert(r.name)
            ends[other.name] = Self.withoutInverses(other, toward: definition.name, named: [r.name])
        }
        return (dropped, ends.values.sorted { $0.name < $1.name })
    }

    /// `changes` (the entities gaining inverses of a definition) with `ends` taken in,
    /// each without the inverses `dropped` names.
    static func merging(_ ends: [EntityDescription], into changes: [EntityDescription], toward entity: String, dropped: Set<String>)
        -> [EntityDescription]
    {
        guard !ends.isEmpty else { return changes }
        var byName = Dictionary(changes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for end in ends { byName[end.name] = byName[end.name].map { withoutInverses($0, toward: entity, named: dropped) } ?? end }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// `entity` with its relationships to `destination` whose inverse is one of `names`
    /// left without an inverse.
    private static func withoutInverses(_ entity: EntityDescription, toward destination: String, named names: Set<String>) -> EntityDescription {
        var result = entity
        for i in result.relationships.indices
        where result.relationships[i].destination == destination && result.relationships[i].inverse.map(names.contains) == true {
            result.relationships[i].inverse = nil
        }
        return result
    }
}
