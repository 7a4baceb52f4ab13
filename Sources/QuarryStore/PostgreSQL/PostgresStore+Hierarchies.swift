/// Inheritance in the tables Quarry makes in a PostgreSQL schema, stored as a Quarry file
/// stores it (`QuarryLayout+Hierarchies`): one table per root entity, holding the
/// columns of its whole hierarchy and `_entity` naming each row's entity; every other
/// entity of the hierarchy is a view of that table (its own rows and its sub-entities').
/// PostgreSQL's views of one table are updatable as they are, so no trigger writes
/// through them: an `INSERT` takes the view's default for `_entity` (the entity's name)
/// and the table's for `_pk`, and `UPDATE`, `DELETE`, `RETURNING` and `FOR UPDATE` reach
/// the table's rows. So all SQL written against an entity's name (fetches, saves, batch
/// changes) works unchanged, as it does in a Quarry file. Foreign keys and link tables
/// refer to the roots' tables, so a relationship to a parent holds its sub-entities' rows.
///
/// What may change is decided before this by the rules shared with a Quarry file
/// (`hierarchyProblem`: a parent is defined first, a key appears once per hierarchy, an
/// entity with rows keeps its parent); here the tables and views take the new shape.
extension PostgresStore {
    /// Whether a definition of `entities` reshapes a hierarchy (one of them has or had a
    /// parent, or has sub-entities), as a Quarry file decides it (`writeDefinition`).
    func isHierarchical(_ entities: [EntityDescription]) -> Bool {
        entities.contains { e in
            e.parent != nil || managedObjectModel.isInHierarchy(e.name) || managedObjectModel.declaredEntity(e.name)?.parent != nil
        }
    }

    /// Brings every hierarchy `changed` touches to its new shape, inside the caller's
    /// write transaction: root tables created or migrated, the members' views made again,
    /// their uniqueness constraints as partial indexes, new sub-entity attributes filled
    /// with their defaults. Returns the members of those hierarchies, and the tables made.
    func writeHierarchies(_ changed: [EntityDescription], _ server: PostgresConnection) throws -> (touched: [String], made: [String]) {
        let old = managedObjectModel.declaredMap
        let after = Definitions(self, changed)
        let new = after.declared, order = after.order
        var roots: [String] = []
        for entity in changed {
            if old[entity.name] != nil { roots.append(ManagedObjectModel.root(of: entity.name, in: old)) }
            roots.append(ManagedObjectModel.root(of: entity.name, in: new))
        }
        var touched: [String] = [], made: [String] = []
        var seen: Set<String> = []
        for root in roots where seen.insert(root).inserted {
            let wasRoot = old[root].map { $0.parent == nil } ?? false
            let isRoot = new[root].map { $0.parent == nil } ?? false
            let oldFamily = wasRoot ? [root] + ManagedObjectModel.below(root, in: old, order: order).map(\.name) : []
            let newFamily = isRoot ? [root] + ManagedObjectModel.below(root, in: new, order: order).map(\.name) : []
            // The views name the table's columns, which the migration may drop or rename.
            for member in Set(oldFamily + newFamily) where member != root {
                try server.execute("DROP VIEW IF EXISTS \(qualified(member))")
            }
            touched += oldFamily + newFamily
            if wasRoot, !isRoot {
                // A table Quarry did not make that keeps a key to this one would lose it
                // to the CASCADE below: refused, with nothing changed (found by review).
                let foreign = try server.execute("""
                    SELECT r.relname, c.conname FROM pg_catalog.pg_constraint c
                    JOIN pg_catalog.pg_class t ON t.oid = c.confrelid JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
                    JOIN pg_catalog.pg_class r ON r.oid = c.conrelid
                    WHERE c.contype = 'f' AND n.nspname = $1 AND t.relname = $2 ORDER BY 1, 2
                    """, [.text(schema), .text(root)]).rows.compactMap { row -> (String, String)? in
                    guard case .text(let table)? = row.first, case .text(let name)? = row.last else { return nil }
                    return declared.contains(table) || table.hasPrefix("quarry_link_") ? nil : (table, name)
                }
                if let (table, name) = foreign.first {
                    throw StoreError.invalidSchema(entity: root, reason: "it cannot take a parent while table \(table), which Quarry did not make, "
                        + "keeps a foreign key to it (\(name)); drop that key first")
                }
                // An empty entity moving under a parent (`hierarchyProblem` allows no
                // other): its rows are its new root's now. The keys other tables had to it
                // go too, and are made again to the new root (`syncForeignKeys`).
                try server.execute("DROP TABLE \(qualified(root)) CASCADE")
            }
            guard isRoot, let storage = ManagedObjectModel.effective(root, in: new, order: order) else { continue }
            if wasRoot, declared.contains(root), let before = ManagedObjectModel.effective(root, in: old, order: order) {
                try migrate(before, to: storage, server)
            } else {
                try create(storage, server)
                made.append(root)
            }
            guard newFamily.count > 1 else { continue }
            let table = qualified(root), column = quoteIdentifier(EntityStorage.entityColumn)
            let hasColumn = try server.execute("""
                SELECT count(*) FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
                JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relname = $2 AND a.attname = $3 AND NOT a.attisdropped
                """, [.text(schema), .text(root), .text(EntityStorage.entityColumn)]).rows.first?.first?.storedInteger ?? 0
            if hasColumn == 0 {
                // Rows already there are the root's own.
                try server.execute(#"ALTER TABLE \#(table) ADD COLUMN \#(column) text COLLATE "C" NOT NULL DEFAULT \#(Self.literal(root))"#)
                try server.execute("CREATE INDEX \(quoteIdentifier(Self.identifier("quarry_entity_\(root)"))) ON \(table) (\(column))")
            }
            for member in newFamily where member != root {
                if !oldFamily.contains(member) { try refuseTaken(member, server) }
                guard let entity = ManagedObjectModel.effective(member, in: new, order: order) else { continue }
                let tags = ([member] + ManagedObjectModel.below(member, in: new, order: order).map(\.name)).map(Self.literal)
                for sql in viewSQL(entity, root: root, tags: tags) { try server.execute(sql) }
            }
            try syncUniqueness(newFamily.filter { $0 != root }, was: old, in: new, order: order, root: root, server)
            try fillDefaults(newFamily.filter { $0 != root }, was: old, in: new, server)
        }
        return (touched, made)
    }

    /// A sub-entity's view over its root's table: its rows are those whose `_entity` is it
    /// or one of its sub-entities; a row inserted through it is its own (the view's
    /// default for `_entity`).
    private func viewSQL(_ entity: EntityDescription, root: String, tags: [String]) -> [String] {
        let view = qualified(entity.name), tag = quoteIdentifier(EntityStorage.entityColumn)
        let columns = [EntityStorage.quarryKeyColumn, EntityStorage.entityColumn] + entity.attributeNames + entity.ownKeyColumns.map(\.name)
        return [
            "CREATE VIEW \(view) AS SELECT \(columns.map(quoteIdentifier).joined(separator: ", ")) FROM \(qualified(root)) WHERE \(tag) IN (\(tags.joined(separator: ", ")))",
            "ALTER VIEW \(view) ALTER COLUMN \(tag) SET DEFAULT \(Self.literal(entity.name))",
        ]
    }

    /// A sub-entity's uniqueness constraints bind only its rows: partial unique indexes on
    /// the root's table, named as the entity's own (`quarry_unique_<entity>_<n>`), made
    /// again with the views. The root's are its table's (`create`, `migrate`).
    private func syncUniqueness(_ members: [String], was old: [String: EntityDescription], in new: [String: EntityDescription],
                                order: [String], root: String, _ server: PostgresConnection) throws {
        for member in members {
            for i in (old[member]?.uniqueness ?? []).indices {
                try server.execute("DROP INDEX IF EXISTS \(qualified(Self.identifier("quarry_unique_\(member)_\(i)")))")
            }
            let tags = ([member] + ManagedObjectModel.below(member, in: new, order: order).map(\.name)).map(Self.literal).joined(separator: ", ")
            for (i, names) in (new[member]?.uniqueness ?? []).enumerated() {
                try server.execute("CREATE UNIQUE INDEX \(quoteIdentifier(Self.identifier("quarry_unique_\(member)_\(i)"))) ON \(qualified(root)) "
                                   + "(\(names.map(quoteIdentifier).joined(separator: ", "))) WHERE \(quoteIdentifier(EntityStorage.entityColumn)) IN (\(tags))")
            }
        }
    }

    /// New sub-entity attributes with defaults: the entity's existing rows take them. One
    /// made required: its nils take the default, or the migration is refused, as a root
    /// entity's is (the root table's migration sees sub-entity columns as optional, since
    /// other members' rows hold nil there).
    private func fillDefaults(_ members: [String], was old: [String: EntityDescription], in new: [String: EntityDescription],
                              _ server: PostgresConnection) throws {
        for member in members {
            guard let before = old[member], let after = new[member] else { continue }
            let view = qualified(member)
            for attribute in after.attributes where before.attribute(named: attribute.name) == nil && attribute.renamedFrom == nil {
                guard let value = attribute.defaultValue, case .success(let coerced) = attribute.type.coerce(value) else { continue }
                try server.execute("UPDATE \(view) SET \(quoteIdentifier(attribute.name)) = $1", [coerced])
            }
            for attribute in after.attributes where !attribute.isOptional && before.attribute(named: attribute.name)?.isOptional == true {
                let column = quoteIdentifier(attribute.name)
                let nulls = try server.execute("SELECT count(*) FROM \(view) WHERE \(column) IS NULL").rows.first?.first?.storedInteger ?? 0
                guard nulls > 0 else { continue }
                guard let value = attribute.defaultValue, case .success(let coerced) = attribute.type.coerce(value) else {
                    throw StoreError.migrationRefused(entity: member,
                        reason: "'\(attribute.name)' would become required, but \(nulls) rows have nil and there is no default")
                }
                try server.execute("UPDATE \(view) SET \(column) = $1 WHERE \(column) IS NULL", [coerced])
            }
        }
    }
}
