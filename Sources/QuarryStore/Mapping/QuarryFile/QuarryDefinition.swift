import QuarryModel

/// What defining entities in Quarry's own tables asks of the engine they are on, beyond a
/// table's creation and migration (`TableCreation`/`TableMigration`) and a hierarchy's
/// reshape (`HierarchyReshape`, its uniqueness constraints too, an entity alone being a
/// hierarchy of one), which the same value answers: a SQLite file's
/// (`SQLiteQuarryTables`: declarations in `quarry_model` or a sidecar, link tables
/// `WITHOUT ROWID`, no foreign keys, since SQLite's delete rules are Quarry's) or a
/// PostgreSQL schema's (`PostgresQuarryTables`: link tables whose keys go with their
/// rows, to-one foreign keys carrying the delete rules, statement triggers).
package protocol QuarryDefinitionStatements: HierarchyTables {
    /// The declaration of `name` whose table a definition migrates (nil: it makes one).
    func definitionToMigrate(_ name: String) -> EntityDescription?
    /// Refuses, before anything is written, a definition this database cannot hold.
    func refuseDefining(_ entity: EntityDescription) throws
    /// Makes ready to keep declarations, before any table is made.
    func prepareDeclarations() throws
    /// Keeps an entity's declaration (`StoredDefinition` text).
    func keepDeclaration(_ name: String, definition: String) throws
    /// Makes the link table `table` of a many-to-many pair (if it is not there), its
    /// `source` and `target` columns keys of the tables `sourceTable` and `targetTable`
    /// (a hierarchy's root's; nil for another program's table, which has no `_pk`). `moved`: its columns whose entity's rows are in another
    /// table now (an empty entity that changed its parent).
    func createLinkTable(_ table: String, sourceTable: String?, targetTable: String?, moved: [String]) throws
    /// After the tables of `entities` are written and their declarations kept, before their
    /// link tables: `touched`, the members of the hierarchies reshaped; `made`, the tables made.
    func didWriteTables(_ entities: [EntityDescription], touched: [String], made: [String]) throws
}

/// An engine that holds every definition, and whose delete rules are Quarry's (no
/// foreign keys to make after the tables).
extension QuarryDefinitionStatements {
    package func refuseDefining(_ entity: EntityDescription) throws {}
    package func didWriteTables(_ entities: [EntityDescription], touched: [String], made: [String]) throws {}
}

/// Defining entities in Quarry's own tables, on any engine, inside the caller's
/// transaction: each definition checked before anything is written, the members of a
/// hierarchy reshaped together (`HierarchyReshape`), an entity alone made or migrated on
/// its own with its uniqueness constraints, every declaration kept, and link tables once
/// both ends are known. The store's model does not change here: the context (or the
/// store, `PostgresStore.adopt`) takes the definitions once they are committed.
package struct QuarryDefinition<Store: PersistentStore> {
    let store: Store

    /// Writes `entity` and `changes` (entities gaining its inverses). Returns the members
    /// of the hierarchies reshaped (none outside hierarchies), and the tables made.
    package func run(_ entity: EntityDescription, changes: [EntityDescription], on engine: some QuarryDefinitionStatements)
        throws -> (touched: [String], made: [String])
    {
        let all = [entity] + changes
        // Another program's tables, as the store knew them before this definition: one
        // gaining an inverse of `entity` (Northwind's `Products` gaining `reviews`) keeps
        // it in `entity`'s column or a link table, made again from `entity`'s declaration
        // at every open; its own table and declaration are not Quarry's to write (a
        // declaration of `Products` kept in the sidecar made the next open read the table
        // as Quarry's, "no such column: _pk").
        let names = Set(all.flatMap { [$0.name] + $0.relationships.map(\.destination) })
        let others = names.filter(store.isOtherProgramsTable)
        let kept = { (e: EntityDescription) in e.name == entity.name || !others.contains(e.name) }
        for e in all {
            try store.validate(e)
            // Another program's table only gains a to-many inverse, kept in no column of it.
            if kept(e) { try engine.refuseDefining(e) }
        }
        try engine.prepareDeclarations()
        // The store's model is read where it is used, not held in a local: a copy alive
        // while `createLinkTables` changes the model made each definition copy all of it.
        let hierarchical = all.contains { e in
            e.parent != nil || store.managedObjectModel.isInHierarchy(e.name) || store.managedObjectModel.declaredEntity(e.name)?.parent != nil
        }
        let afterTables = try moveLinks(all, hierarchical: hierarchical, others: others, on: engine)
        var touched: [String] = []
        var made: [String] = []
        let existing = engine.definitionToMigrate(entity.name)
        if hierarchical {
            let after = DefinitionsAfter(store.managedObjectModel, all)
            // Another program's table gaining an inverse has no table of Quarry's to reshape
            // (PostgreSQL's made it again: "a table of that name already exists").
            let reshaped = try HierarchyReshape(old: store.managedObjectModel.declaredMap, new: after.declared, order: after.order)
                .run(all.filter(kept), on: engine)
            touched = reshaped.touched + all.filter(kept).map(\.name)
            made = reshaped.made
            for e in all where kept(e) { try engine.keepDeclaration(e.name, definition: try StoredDefinition.text(e)) }
        } else {
            for e in all where try kept(e) && writeTable(e, replacing: engine.definitionToMigrate(e.name), on: engine) { made.append(e.name) }
            // A new entity without constraints has no unique index to make or drop (and
            // SQLite's look-up scans the whole schema).
            if existing != nil || !entity.uniqueness.isEmpty {
                try engine.syncUniqueness(
                    root: entity.name, members: [(entity, nil)],
                    old: existing.map { [entity.name: $0] } ?? [:], made: existing == nil)
            }
        }
        try engine.didWriteTables(all, touched: touched, made: made)
        for statement in afterTables { try engine.statements.run(statement, []) }
        try createLinkTables(all, hierarchical: hierarchical, others: others, on: engine)
        return (touched, made)
    }

    /// Makes `entity`'s table (when `existing` is nil) or migrates it from `existing`, and
    /// keeps its declaration; checked before (`run`). Returns whether it made the table.
    @discardableResult
    package func writeTable(_ entity: EntityDescription, replacing existing: EntityDescription?, on engine: some QuarryDefinitionStatements) throws
        -> Bool
    {
        let definition = try StoredDefinition.text(entity)
        if let existing {
            try TableMigration(old: existing, new: entity).run(on: engine)
        } else {
            try TableCreation(entity: entity).run(on: engine)
        }
        try engine.keepDeclaration(entity.name, definition: definition)
        return existing == nil
    }

    /// The link tables of `entities`' many-to-many relationships (and of to-many ones
    /// without an inverse), named by `storage(of:in:)`, resolved against the definitions
    /// as they will be; a destination not defined yet makes the table when it is.
    private func createLinkTables(
        _ entities: [EntityDescription], hierarchical: Bool, others: Set<String>,
        on engine: some QuarryDefinitionStatements
    ) throws {
        guard entities.contains(where: { $0.relationships.contains(where: \.isToMany) }) else { return }
        try withModelAfter(entities, hierarchical: hierarchical) { table, moved in
            for e in entities {
                for r in e.relationships where r.isToMany {
                    guard case .linkTable(let name, let sourceColumn, _)? = store.storage(of: r, in: e.name) else { continue }
                    let (source, target) = sourceColumn == "source" ? (e.name, r.destination) : (r.destination, e.name)
                    // Another program's table has no `_pk` for the links to refer to.
                    let (sourceTable, targetTable) = (others.contains(source) ? nil : table(source), others.contains(target) ? nil : table(target))
                    try engine.createLinkTable(
                        name, sourceTable: sourceTable, targetTable: targetTable,
                        moved: [("source", source), ("target", target)].filter { moved.contains($0.1) }.map(\.0))
                }
            }
        }
    }

    /// Runs `body` with the store's model as it will be once `entities` are defined, so
    /// `storage(of:in:)` names the links as they will be kept; `body` is given the table
    /// holding an entity's rows, and the entities whose rows move to another table (an
    /// empty one that changed its parent). The model is as it was afterwards.
    func withModelAfter(
        _ entities: [EntityDescription], hierarchical: Bool, _ body: (_ table: (String) -> String, _ moved: Set<String>) throws -> Void
    ) rethrows {
        // The entries changed below are put back as they were at the end: keeping a copy of
        // the whole model to restore made every change copy it, so defining a model of N
        // entities with to-many relationships took time in N² (4,000 entities: 20.5 s).
        var previous: [(name: String, entity: EntityDescription?, declared: EntityDescription?)] = []
        func put(_ name: String, _ entity: EntityDescription?, declared: EntityDescription?, declare: Bool) {
            previous.append((name, store.managedObjectModel.entitiesByName[name], store.managedObjectModel.declaredByName[name]))
            store.managedObjectModel.setEntity(entity, named: name)
            if declare { store.managedObjectModel.setDeclared(declared, named: name) }
        }
        defer {
            for p in previous.reversed() {
                store.managedObjectModel.setEntity(p.entity, named: p.name)
                store.managedObjectModel.setDeclared(p.declared, named: p.name)
            }
        }
        // Outside hierarchies each entity is as declared and alone in its table, and the
        // others keep theirs: no map of every declaration (a model of thousands of
        // entities is defined one entity at a time).
        let after = hierarchical ? DefinitionsAfter(store.managedObjectModel, entities) : nil
        var moved: Set<String> = []
        if let after {
            // An entity whose rows are in another table now (an empty one that changed its
            // parent): the link tables' keys to the old one went with it.
            let before = store.managedObjectModel.declaredMap
            moved = Set(entities.map(\.name).filter { before[$0] != nil && ManagedObjectModel.root(of: $0, in: before) != after.table(of: $0) })
            let names = entities.flatMap { [$0.name] + $0.relationships.map(\.destination) }
            let declaredBefore = Set(names.filter { store.managedObjectModel.declaredByName[$0] != nil })
            for e in entities {
                for name in [e.name] + e.relationships.map(\.destination) {
                    put(name, after.effective(name), declared: after.declared[name], declare: declaredBefore.contains(name) || name == e.name)
                }
            }
        } else {
            for e in entities {
                put(e.name, e, declared: e, declare: store.managedObjectModel.declaredByName[e.name] != nil)
            }
        }
        try body({ after?.table(of: $0) ?? store.managedObjectModel.root(of: $0) }, moved)
    }

    package init(store: Store) {
        self.store = store
    }
}

/// A store's definitions as they will be once `changed` are taken: as declared, and as
/// objects see them (`ManagedObjectModel.effective`, made only for members of a
/// hierarchy: a model of thousands of entities is defined one entity at a time).
package struct DefinitionsAfter {
    package let declared: [String: EntityDescription]
    let order: [String]
    private let inHierarchy: Set<String>

    package init(_ model: ManagedObjectModel, _ changed: [EntityDescription]) {
        var declared = model.declaredMap
        for e in changed { declared[e.name] = e }
        self.declared = declared
        order = model.entityOrder + changed.map(\.name).filter { !model.entityOrder.contains($0) }
        var inHierarchy: Set<String> = []
        for e in declared.values {
            if let parent = e.parent {
                inHierarchy.insert(e.name)
                inHierarchy.insert(parent)
            }
        }
        self.inHierarchy = inHierarchy
    }

    /// `name` as objects will see it.
    package func effective(_ name: String) -> EntityDescription? {
        inHierarchy.contains(name) ? ManagedObjectModel.effective(name, in: declared, order: order) : declared[name]
    }

    /// The table holding `name`'s rows: its root's.
    package func table(of name: String) -> String {
        inHierarchy.contains(name) ? ManagedObjectModel.root(of: name, in: declared) : name
    }
}
