/// The order in which PostgreSQL carries out the ON DELETE actions of the keys naming a
/// table when one of its rows goes, for the tables Quarry did not create
/// (`EntityStorage.referencingKeys`, as `ForeignKeyOrder` reads a SQLite file's). A key's
/// action is an internal trigger on the parent table, and a row's triggers fire in the
/// order of their names (`RI_ConstraintTrigger_a_<oid>`: the key made first acts first); a
/// cascade's own deletes run theirs before the next trigger fires. Unlike SQLite, a NO
/// ACTION key is checked at its turn too, as RESTRICT is; one DEFERRABLE INITIALLY
/// DEFERRED at the commit. So a RESTRICT or NO ACTION key declared before a CASCADE key of
/// the same child refuses the parent's delete, and one declared after it does not.
extension PostgresStore {
    func readReferencingKeys(of tables: Set<String>, context: ObjectContext) throws {
        let rows = try context.connection.rows("""
            SELECT p.relname::text, ch.relname::text, a.attname::text, con.confdeltype::text, con.condeferred::int
            FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_constraint con ON con.oid = t.tgconstraint
            JOIN pg_catalog.pg_class p ON p.oid = t.tgrelid JOIN pg_catalog.pg_namespace n ON n.oid = p.relnamespace
            JOIN pg_catalog.pg_class ch ON ch.oid = con.conrelid
            JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
            WHERE n.nspname = ? AND con.contype = 'f' AND array_length(con.conkey, 1) = 1 AND t.tgisinternal AND (t.tgtype & 8) <> 0
            ORDER BY p.relname, t.tgname COLLATE "C"
            """, arguments: [.text(schema)])
        var keys: [String: [EntityStorage.ReferencingKey]] = [:]
        for row in rows {
            guard let parent = row[0].textValue, let child = row[1].textValue, let column = row[2].textValue,
                  tables.contains(parent), tables.contains(child) else { continue }
            let action = row[3].textValue ?? "a"
            let deferred = row[4].storedInteger == 1
            let check: EntityStorage.ReferencingKey.Check = action == "r" || action == "a" && !deferred ? .restrict : action == "a" ? .commit : .statement
            keys[parent, default: []].append(EntityStorage.ReferencingKey(child: child, column: column, check: check))
        }
        for (parent, list) in keys {
            guard let entity = context.managedObjectModel.entitiesByName[parent] else { continue }
            var storage = context.mapped(entity)
            storage.referencingKeys = list
            context.remember(entity, storage: storage)
        }
    }
}
