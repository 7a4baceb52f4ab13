import QuarryModel
import QuarryStore

/// A schema's tables and views as `pg_catalog` describes them, read into the
/// engine-neutral `ForeignSchema` from which the entities, their attributes,
/// relationships and join tables are decided as for a SQLite file's
/// (`ForeignSchema+Attributes`, `+ForeignKeys`, `+JoinTables`): columns by their type's
/// name (a domain's base type), primary keys and foreign keys with all their columns in
/// order, and where each key's ON DELETE action comes among the others (`made`). A
/// foreign key to a table of another schema is left out. The names of its tables, and
/// which inherit another, are read here too, so the entities are made from names and
/// descriptions rather than the catalog's rows (`PostgresStore+Schema`).
extension PostgresStore {
    /// The schema's ordinary and partitioned tables, not partitions, by name.
    func readTableNames(_ session: StoreSession) throws -> [String] {
        try session.connection.rows(
            """
            SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = ? AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname
            """, arguments: [.text(schema)]
        ).compactMap { $0.first?.textValue }
    }

    /// The schema's views (not materialized ones).
    func readViewNames(_ session: StoreSession) throws -> [String] {
        try session.connection.rows(
            """
            SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = ? AND c.relkind = 'v'
            """, arguments: [.text(schema)]
        ).compactMap { $0.first?.textValue }
    }

    /// The tables of the schema that inherit another (`INHERITS`, not partitions), with
    /// the table each inherits.
    func readInheritance(_ session: StoreSession) throws -> [String: String] {
        let rows = try session.connection.rows(
            """
            SELECT c.relname, p.relname FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
            JOIN pg_catalog.pg_class p ON p.oid = i.inhparent JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = ? AND NOT c.relispartition
            """, arguments: [.text(schema)])
        var parentOf: [String: String] = [:]
        for row in rows { if let child = row[0].textValue, let parent = row[1].textValue { parentOf[child] = parent } }
        return parentOf
    }

    /// The schema's tables and views (ordinary, partitioned, views and materialized
    /// views): their columns in order, and their keys.
    func readCatalog(_ session: StoreSession) throws -> ForeignSchema {
        // A domain is read as its base type; a generated column is never written. A
        // column of a table with a row trigger BEFORE INSERT may be filled by it (Pagila's
        // `film.fulltext`, by `tsvector_update_trigger`), as by a default: an insert may
        // leave it out, and the server fills it or refuses.
        let columns = try session.connection.rows(
            """
            SELECT c.relname, a.attname, COALESCE(b.typname, t.typname), a.attnotnull,
                   a.atthasdef OR a.attidentity <> '' OR EXISTS (SELECT 1 FROM pg_catalog.pg_trigger tg WHERE tg.tgrelid = c.oid
                     AND NOT tg.tgisinternal AND tg.tgenabled <> 'D' AND (tg.tgtype & 7) = 7),
                   a.attgenerated <> '', c.relkind IN ('v', 'm'), COALESCE(b.oid, t.oid)::int8,
                   (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid) FROM pg_catalog.pg_attrdef d
                    WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum),
                   CASE WHEN t.typname = 'bpchar' AND a.atttypmod > 4 THEN a.atttypmod - 4 END
            FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
            LEFT JOIN pg_catalog.pg_type b ON t.typtype = 'd' AND b.oid = t.typbasetype
            WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'v', 'm') AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY c.relname, a.attnum
            """, arguments: [.text(schema)])
        let keys = try session.connection.rows(
            """
            SELECT c.relname, con.oid::int8, con.contype, k.i::int4, a.attname, f.relname, fa.attname, con.confdeltype, con.condeferred::int4,
                   (SELECT t.tgname::text FROM pg_catalog.pg_trigger t WHERE t.tgconstraint = con.oid AND t.tgrelid = con.confrelid
                    AND t.tgisinternal AND (t.tgtype & 8) <> 0 ORDER BY t.tgname::text COLLATE "C" LIMIT 1)
            FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, i)
            JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
            LEFT JOIN pg_catalog.pg_class f ON f.oid = con.confrelid
            LEFT JOIN pg_catalog.pg_namespace fn ON fn.oid = f.relnamespace
            LEFT JOIN pg_catalog.pg_attribute fa ON fa.attrelid = con.confrelid AND fa.attnum = con.confkey[k.i]
            WHERE n.nspname = ? AND con.contype IN ('p', 'f') AND (con.contype = 'p' OR fn.nspname = ?)
            ORDER BY c.relname, con.oid, k.i
            """, arguments: [.text(schema), .text(schema)])
        var primaryKeys: [String: [String]] = [:]
        var foreignKeys: [String: [ForeignSchema.ForeignKey]] = [:]
        // Each foreign key's ON DELETE trigger on its parent, by key: the server fires a
        // row's triggers in the order of their names (`PostgresStore+DeleteOrder`).
        var triggers: [(table: String, index: Int, name: String)] = []
        // Rows of one constraint come together, in key order.
        let constraints = Dictionary(grouping: keys, by: { $0[1].storedInteger ?? 0 }).values.sorted {
            ($0.first?[1].storedInteger ?? 0) < ($1.first?[1].storedInteger ?? 0)
        }
        for rows in constraints {
            guard let first = rows.first, let table = first[0].textValue else { continue }
            let names = rows.compactMap { $0[4].textValue }
            guard names.count == rows.count else { continue }
            if first[2].textValue == "p" {
                primaryKeys[table] = names
                continue
            }
            let parentColumns = rows.compactMap { $0[6].textValue }
            guard let parent = first[5].textValue, parentColumns.count == rows.count else { continue }
            foreignKeys[table, default: []].append(
                ForeignSchema.ForeignKey(
                    columns: names, parent: parent, parentColumns: parentColumns, onDelete: Self.deleteAction(first[7].textValue),
                    deferred: first[8].storedInteger == 1))
            if let trigger = first[9].textValue { triggers.append((table, (foreignKeys[table]?.count ?? 1) - 1, trigger)) }
        }
        // Names compared byte by byte, as their C collation does.
        for (made, trigger) in triggers.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }).enumerated() {
            foreignKeys[trigger.table]?[trigger.index].made = made
        }
        try liftPartitionKeys(&foreignKeys, session)
        for (table, key) in try uniqueKeysStandingForPrimary(session) where primaryKeys[table] == nil { primaryKeys[table] = key }
        let enums = try readEnums(session)
        var catalog = ForeignSchema()
        for (name, rows) in Dictionary(grouping: columns, by: { $0[0].textValue ?? "" }) {
            let described = rows.compactMap { row -> ForeignSchema.Column? in
                guard let column = row[1].textValue, let type = row[2].textValue else { return nil }
                var described = ForeignSchema.Column(
                    name: column, declaredType: type, notNull: row[3].storedInteger == 1,
                    hasDefault: row[4].storedInteger == 1, defaultText: row[8].textValue,
                    generated: row[5].storedInteger == 1)
                described.enumeration = row[7].storedInteger.flatMap { enums[$0] }
                described.padding = row.count > 9 ? row[9].storedInteger.map { Int($0) } : nil
                return described
            }
            let isView = rows.first?[6].storedInteger == 1
            catalog.relations[name] = ForeignSchema.Relation(
                name: name, isView: isView, columns: described,
                primaryKey: primaryKeys[name] ?? [], foreignKeys: isView ? [] : foreignKeys[name] ?? [])
        }
        return catalog
    }

    /// The enum types the database's columns may be of (any schema's: a column may be of
    /// a type another schema holds), by type oid, with their labels in the type's order
    /// (`enumsortorder`), as the server orders them.
    private func readEnums(_ session: StoreSession) throws -> [Int64: EnumLabels] {
        let rows = try session.connection.rows(
            """
            SELECT t.oid::int8, n.nspname, t.typname, e.enumlabel FROM pg_catalog.pg_enum e
            JOIN pg_catalog.pg_type t ON t.oid = e.enumtypid JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
            ORDER BY t.oid, e.enumsortorder
            """)
        var labels: [Int64: (schema: String, name: String, labels: [String])] = [:]
        for row in rows {
            guard let oid = row[0].storedInteger, let schema = row[1].textValue, let name = row[2].textValue, let label = row[3].textValue else {
                continue
            }
            labels[oid, default: (schema, name, [])].labels.append(label)
        }
        return labels.mapValues { EnumLabels(name: $0.name, sqlType: quoteIdentifier($0.schema) + "." + quoteIdentifier($0.name), labels: $0.labels) }
    }

    /// A partitioned table whose partitions declare a foreign key, and which declares
    /// none on those columns itself (Pagila's `payment`, partitioned by month, its keys to
    /// `customer`, `staff` and `rental` made on each partition), holds that key as if it
    /// declared it: its rows are the partitions', each naming its parent row. A partition
    /// that lacks the key (Pagila's `payment_p2022_07` has none) leaves it a key the
    /// server does not enforce on those rows, as a SQLite file's keys are when its
    /// foreign keys are off, and the opening notes say which; partitions declaring
    /// different keys on the same columns leave them columns. The key acts as the first
    /// partition's does among the others (`made`).
    private func liftPartitionKeys(_ foreignKeys: inout [String: [ForeignSchema.ForeignKey]], _ session: StoreSession) throws {
        let rows = try session.connection.rows(
            """
            SELECT p.relname, c.relname FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
            JOIN pg_catalog.pg_class p ON p.oid = i.inhparent JOIN pg_catalog.pg_namespace n ON n.oid = p.relnamespace
            WHERE n.nspname = ? AND p.relkind = 'p' AND c.relispartition ORDER BY 1, 2
            """, arguments: [.text(schema)])
        var partitionsOf: [String: [String]] = [:]
        for row in rows { if let parent = row[0].textValue, let partition = row[1].textValue { partitionsOf[parent, default: []].append(partition) } }
        let alike = { (a: ForeignSchema.ForeignKey, b: ForeignSchema.ForeignKey) in
            a.columns == b.columns && a.parent == b.parent && a.parentColumns == b.parentColumns && a.onDelete == b.onDelete
                && a.deferred == b.deferred
        }
        for (table, partitions) in partitionsOf.sorted(by: { $0.key < $1.key }) {
            let declared = partitions.flatMap { foreignKeys[$0] ?? [] }
            var lacking: [String: [String]] = [:]
            var seen: Set<[String]> = []
            for key in declared where seen.insert(key.columns).inserted && !(foreignKeys[table] ?? []).contains(where: { $0.columns == key.columns })
            {
                guard declared.allSatisfy({ $0.columns != key.columns || alike($0, key) }) else { continue }
                foreignKeys[table, default: []].append(key)
                for partition in partitions where !(foreignKeys[partition] ?? []).contains(where: { alike($0, key) }) {
                    lacking[partition, default: []].append("(" + key.columns.joined(separator: ", ") + ")")
                }
            }
            for (partition, columns) in lacking.sorted(by: { $0.key < $1.key }) {
                session.openingNotes.append(
                    "\(partition) lacks the foreign \(columns.count == 1 ? "key" : "keys") on \(columns.joined(separator: ", ")) that \(table)'s other partitions declare: \(columns.count == 1 ? "it is a relationship" : "they are relationships") of \(table) all the same, not enforced by the server on \(partition)'s rows"
                )
            }
        }
    }

    /// The opening note for the schema's foreign keys to tables of other schemas
    /// (AdventureWorks' `sales.customer(personid)` to `person.person`), which `readCatalog`
    /// leaves out since those tables are no entities here: they stay their columns, and
    /// the note names a few and the schemas to open for them. Nil when there are none.
    func otherSchemaKeysNote(_ session: StoreSession) throws -> String? {
        let rows = try session.connection.rows(
            """
            SELECT c.relname, string_agg(a.attname, ', ' ORDER BY k.i), fn.nspname, f.relname
            FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, i)
            JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
            JOIN pg_catalog.pg_class f ON f.oid = con.confrelid JOIN pg_catalog.pg_namespace fn ON fn.oid = f.relnamespace
            WHERE n.nspname = ? AND con.contype = 'f' AND fn.nspname <> ? AND c.relkind IN ('r', 'p') AND NOT c.relispartition
            GROUP BY con.oid, c.relname, fn.nspname, f.relname ORDER BY 1, 2, 3, 4
            """, arguments: [.text(schema), .text(schema)])
        let keys = rows.compactMap { row -> (text: String, schema: String)? in
            guard let table = row[0].textValue, let columns = row[1].textValue, let other = row[2].textValue, let parent = row[3].textValue else {
                return nil
            }
            return ("\(table)(\(columns)) references \(other).\(parent)", other)
        }
        guard !keys.isEmpty else { return nil }
        let shown = keys.prefix(2).map(\.text) + (keys.count > 2 ? ["and \(keys.count - 2) more"] : [])
        let schemas = Array(Set(keys.map(\.schema))).sorted()
        let open = schemas.count == 1 ? schemas[0] : schemas.dropLast().joined(separator: ", ") + " or " + (schemas.last ?? "")
        let those = keys.count == 1 ? "that table" : "those tables"
        return
            "\(keys.count) foreign \(keys.count == 1 ? "key references a table of another schema, which is no entity here, and is read as its columns" : "keys reference tables of other schemas, which are no entities here, and are read as their columns"): \(shown.joined(separator: ", ")) (open ?schema=\(open) to read \(those))"
    }

    /// For each table with no primary key, a unique key all of whose columns are `NOT
    /// NULL`, which knows its rows as a primary key would (the French towns sample declares
    /// `id SERIAL UNIQUE NOT NULL` and no primary key): one integer column if there is
    /// one, else the key of fewest columns, the first made among equals. Unique indexes
    /// count as constraints do, not partial ones nor ones over expressions.
    private func uniqueKeysStandingForPrimary(_ session: StoreSession) throws -> [String: [String]] {
        let rows = try session.connection.rows(
            """
            SELECT c.relname, i.indexrelid::int8, string_agg(a.attname, chr(31) ORDER BY k.n), bool_and(a.attnotnull)::int4,
                   bool_and(a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype))::int4, count(*)::int4
            FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
            JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
            WHERE n.nspname = ? AND c.relkind IN ('r', 'p') AND i.indisunique AND NOT i.indisprimary AND i.indpred IS NULL
              AND i.indexprs IS NULL AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_index p WHERE p.indrelid = c.oid AND p.indisprimary)
            GROUP BY c.relname, i.indexrelid ORDER BY 1, 2
            """, arguments: [.text(schema)])
        var chosen: [String: (columns: [String], rank: (Int, Int))] = [:]
        for row in rows where row[3].storedInteger == 1 {
            guard let table = row[0].textValue, let names = row[2].textValue?.split(separator: "\u{1F}").map(String.init), !names.isEmpty else {
                continue
            }
            // One integer column first, then fewer columns; the first made among equals.
            let rank = (names.count == 1 && row[4].storedInteger == 1 ? 0 : 1, names.count)
            if let held = chosen[table], held.rank <= rank { continue }
            chosen[table] = (names, rank)
        }
        return chosen.mapValues(\.columns)
    }
}
