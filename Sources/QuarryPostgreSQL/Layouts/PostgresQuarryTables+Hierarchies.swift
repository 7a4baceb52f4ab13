import QuarryEngine
import QuarryModel
import QuarryStore

/// Inheritance in the tables Quarry makes in a PostgreSQL schema, stored as a Quarry file
/// stores it and reshaped by the same code (`HierarchyReshape`, from `QuarryDefinition`);
/// what may change is decided before by the rules shared with a Quarry file
/// (`hierarchyProblem`: a parent is defined first, a key appears once per hierarchy, an
/// entity with rows keeps its parent). Written in the caller's write transaction. PostgreSQL's views of one table are updatable as they are,
/// so no trigger writes through them: an `INSERT` takes the view's default for the
/// entity column (the entity's name) and the table's for `_pk`, and `UPDATE`, `DELETE`,
/// `RETURNING` and `FOR UPDATE` reach the table's rows. Foreign keys and link tables
/// refer to the roots' tables, so a relationship to a parent holds its sub-entities' rows.
extension PostgresQuarryTables: HierarchyTables {
    /// Only a table Quarry made is migrated; another of the name is refused by `create`.
    package func holdsTable(_ root: String) -> Bool { store.declared.contains(root) }

    package func dropTable(_ root: String) throws {
        // A table Quarry did not make that keeps a key to this one would lose it to the
        // CASCADE below: refused, with nothing changed (found by review).
        let foreign = try server.execute(
            """
            SELECT r.relname, c.conname FROM pg_catalog.pg_constraint c
            JOIN pg_catalog.pg_class t ON t.oid = c.confrelid JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
            JOIN pg_catalog.pg_class r ON r.oid = c.conrelid
            WHERE c.contype = 'f' AND n.nspname = $1 AND t.relname = $2 ORDER BY 1, 2
            """, [.text(store.schema), .text(root)]
        ).rows.compactMap { row -> (String, String)? in
            guard case .text(let table)? = row.first, case .text(let name)? = row.last else { return nil }
            return store.declared.contains(table) || table.hasPrefix("quarry_link_") ? nil : (table, name)
        }
        if let (table, name) = foreign.first {
            throw StoreError.invalidSchema(
                entity: root,
                reason: "it cannot take a parent while table \(table), which Quarry did not make, "
                    + "keeps a foreign key to it (\(name)); drop that key first")
        }
        // An empty entity moving under a parent (`hierarchyProblem` allows no other): its
        // rows are its new root's now. The keys other tables had to it go too, and are
        // made again to the new root (`syncForeignKeys`).
        try server.execute("DROP TABLE \(store.qualified(root)) CASCADE")
    }

    package func addEntityColumnIfMissing(_ root: String) throws {
        let hasIt =
            try server.execute(
                """
                SELECT count(*) FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
                JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relname = $2 AND a.attname = $3 AND NOT a.attisdropped
                """, [.text(store.schema), .text(root), .text(EntityStorage.entityColumn)]
            ).rows.first?.first?.storedInteger ?? 0 > 0
        guard !hasIt else { return }
        let table = store.qualified(root)
        let column = quoteIdentifier(EntityStorage.entityColumn)
        // Rows already there are the root's own.
        try server.execute(#"ALTER TABLE \#(table) ADD COLUMN \#(column) text COLLATE "C" NOT NULL DEFAULT \#(quoteLiteral(root))"#)
        try server.execute("CREATE INDEX \(quoteIdentifier(PostgresStore.identifier("quarry_entity_\(root)"))) ON \(table) (\(column))")
    }

    /// A sub-entity's view over its root's table; a row inserted through it is its own
    /// (the view's default for the entity column).
    package func makeView(_ member: EntityDescription, root: String, tags: [String]) throws {
        let view = store.qualified(member.name)
        let tag = quoteIdentifier(EntityStorage.entityColumn)
        let columns = [EntityStorage.quarryKeyColumn, EntityStorage.entityColumn] + member.attributeNames + member.ownKeyColumns.map(\.name)
        try server.execute(
            "CREATE VIEW \(view) AS SELECT \(columns.map(quoteIdentifier).joined(separator: ", ")) FROM \(store.qualified(root)) "
                + "WHERE \(tag) IN (\(tags.map(quoteLiteral).joined(separator: ", ")))")
        try server.execute("ALTER VIEW \(view) ALTER COLUMN \(tag) SET DEFAULT \(quoteLiteral(member.name))")
    }

    /// Uniqueness constraints are unique indexes named as the entity's own
    /// (`quarry_unique_<entity>_<n>`), made again when the declaration's constraints change
    /// (or its table was made). A sub-entity's bind only its rows: partial indexes on the
    /// root's table, made again with the views (its rows' entities may have changed).
    package func syncUniqueness(root: String, members: [(entity: EntityDescription, tags: [String]?)], old: [String: EntityDescription], made: Bool)
        throws
    {
        for (member, tags) in members {
            let before = old[member.name]?.uniqueness ?? []
            let partial = member.name != root
            if !partial, !made, before == member.uniqueness { continue }
            for i in before.indices {
                try server.execute("DROP INDEX IF EXISTS \(store.qualified(PostgresStore.identifier("quarry_unique_\(member.name)_\(i)")))")
            }
            let condition =
                partial
                ? " WHERE \(quoteIdentifier(EntityStorage.entityColumn)) IN (\((tags ?? [member.name]).map(quoteLiteral).joined(separator: ", ")))"
                : ""
            for (i, names) in member.uniqueness.enumerated() {
                try server.execute(
                    "CREATE UNIQUE INDEX \(quoteIdentifier(PostgresStore.identifier("quarry_unique_\(member.name)_\(i)"))) ON \(store.qualified(root)) "
                        + "(\(names.map(quoteIdentifier).joined(separator: ", ")))\(condition)")
            }
        }
    }
}
