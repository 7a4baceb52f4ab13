import QuarryModel
import QuarryStore

/// A schema's tables read from PostgreSQL's catalog at open, as a foreign SQLite file's
/// are read from `sqlite_master`: a table with a primary key is an entity, known by its
/// key when that is one integer column, else by a number made from its key
/// (`PostgresStore+KeyedTables`). Its tables and views, their columns and keys, are read
/// into the engine-neutral `ForeignSchema` (`PostgresStore+Catalog`), from which columns
/// become attributes typed by the server's types (`ForeignSchema+Attributes`), foreign
/// keys relationships and join tables many-to-manys as in a SQLite file
/// (`ForeignSchema+ForeignKeys`, `ForeignSchema+JoinTables`; the link view is this
/// engine's, `PostgresStore+JoinTables`). Nothing is written.
extension PostgresStore {
    /// Tables of other kinds, and why they are left out, go to the opening notes.
    func introspect(_ session: StoreSession) throws {
        // Ordinary and partitioned tables (a partition is read through its parent).
        let tables = try readTableNames(session)
        let schemaExists = try session.connection.scalar("SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = ?", arguments: [.text(schema)])
        guard schemaExists?.storedInteger == 1 else {
            throw StoreError.database(message: "the database has no schema named \(schema)")
        }
        // Tables Quarry made read as it defined them (`quarry_model`).
        let definitions = try readDefinitions(session)
        // Every table's and view's columns, primary and foreign keys, with all their columns in order.
        let catalog = try readCatalog(session)
        if let note = try otherSchemaKeysNote(session) { session.openingNotes.append(note) }
        // A table of a join table's shape, its ends naming other tables' whole keys.
        let joinShape = { (table: String) in catalog.joinTable(table, isEnd: catalog.namesPrimaryKey, type: { Self.attributeType($0.declaredType) }) }
        var added: [String] = []
        // Tables Quarry made, in the order they were defined, as Quarry defined them; a
        // hierarchy's members other than its root are views of the root's table.
        let views = definitions.contains { $0.parent != nil } ? try readViewNames(session) : []
        let existing = Set(tables + views)
        var own: [String] = []
        for definition in definitions where existing.contains(definition.name) && managedObjectModel.entitiesByName[definition.name] == nil {
            rememberDeclared(definition)
            declared.insert(definition.name)
            own.append(definition.name)
        }
        // Members of a hierarchy are seen with their inherited and sub-entities' keys.
        rememberHierarchies()
        for name in own {
            if let entity = managedObjectModel.entitiesByName[name] { mapping.place(name, Self.storage(of: entity, schema: schema)) }
        }
        // Tables that inherit another (`INHERITS`, old-style partitions such as Sakila's
        // payment_p2007_01): their rows are read through the parent's, as partitions' are.
        let parentOf = try readInheritance(session)
        var childrenOf: [String: [String]] = [:]
        var leftOut: [(table: String, keyed: Bool)] = []
        var readOnlyPairs: [String] = []
        // Tables another table's foreign key names (`fitted`).
        let referenced = Set(catalog.relations.values.flatMap { $0.foreignKeys.map(\.parent) })
        for table in tables where session.managedObjectModel.entitiesByName[table] == nil {
            // Quarry's own tables besides the entities': its model and its link tables.
            if table == Self.modelTable || table == Self.templateTable || table.hasPrefix("quarry_link_") && !definitions.isEmpty { continue }
            // A table of no columns is in no description: it has no key, and is named in a note.
            let relation =
                catalog.relations[table] ?? ForeignSchema.Relation(name: table, isView: false, columns: [], primaryKey: [], foreignKeys: [])
            let keys = relation.primaryKey
            let rowKey = ForeignSchema.rowKey(of: relation, engine: PostgresForeignSchema(schema: schema))
            guard case .integerKey = rowKey else {
                // A child of an inheriting table, read through its parent: one note below.
                if let parent = parentOf[table] {
                    childrenOf[parent, default: []].append(table)
                    continue
                }
                // A join table (`mapJoinTables`), or a table with no key, named in a note there;
                // any other is known by a number made from its key (`mapKeyedTable`).
                // One whose key holds a position is an entity too, its rows the entries
                // of an ordered pair (`ForeignSchema.order`), as in a SQLite file.
                let shape = joinShape(table)
                if rowKey == .unkeyed || shape?.required.isEmpty == true && shape?.position == nil {
                    leftOut.append((table, !keys.isEmpty))
                } else {
                    // A server that cannot make its view (no TEMP privilege, no
                    // hashtextextended before PostgreSQL 11) leaves the table out, said.
                    do {
                        if let reason = try mapKeyedTable(relation, taken: Set(catalog.relations.keys), session: session) {
                            session.leaveOut(table, because: "\(table) is left out: \(reason)")
                        } else {
                            added.append(table)
                            if let shape, !shape.required.isEmpty || shape.position != nil { readOnlyPairs.append(table) }
                        }
                    } catch {
                        session.leaveOut(table, because: "\(table) is left out: \(error)")
                    }
                }
                continue
            }
            var storage = EntityStorage(layout: .foreignTable, relation: table, keyColumn: keys[0], dialect: PostgreSQLDialect())
            storage.schema = schema
            let (fitted, note) = Self.fitted(relation, linked: !relation.foreignKeys.isEmpty || referenced.contains(table))
            if let note { session.openingNotes.append(note) }
            session.remember(Self.tableEntity(fitted, keys: keys, storage: &storage), storage: storage)
            added.append(table)
        }
        let addedSet = Set(added)
        // A table Quarry made has its relationships as defined; another table's key to
        // one of them is a relationship as any.
        let isParent = { (parent: String) in addedSet.contains(parent) || self.declared.contains(parent) }
        try catalog.addForeignKeys(of: tables.filter(addedSet.contains), isParent: isParent, in: session)
        // A join table's ends: foreign keys to an entity's key, or to a keyed table's,
        // which is read as its rows' numbers.
        let isEnd = { (key: ForeignSchema.ForeignKey) -> Bool in
            guard addedSet.contains(key.parent), let entity = session.managedObjectModel.entitiesByName[key.parent],
                let named = catalog.referencedColumns(of: key)
            else { return false }
            if let keyed = self.keyedTables[key.parent] { return Set(named) == Set(keyed) && named.count == keyed.count }
            return named == [session.mapped(entity).keyColumn]
        }
        let keyless = mapJoinTables(leftOut, catalog: catalog, isEnd: isEnd, session: session)
        mapReadOnlyPairs(readOnlyPairs, catalog: catalog, isEnd: isEnd, session: session)
        // A join table with its own integer key (`id serial`) is an entity, and gives its
        // pair too, as in a SQLite file; unless another table names it.
        let ownKeyed = tables.filter { addedSet.contains($0) && keyedTables[$0] == nil }
        mapKeyedJoinTables(ownKeyed, catalog: catalog, isEnd: isEnd, session: session)
        catalog.addSeveralColumnKeys(of: tables.filter(addedSet.contains), joined: joinTables, isParent: isParent, in: session)
        rememberReferencingKeys(of: addedSet, catalog: catalog, session: session)
        for (parent, children) in childrenOf.sorted(by: { $0.key < $1.key }) {
            let named = children.count <= 3 ? children.joined(separator: ", ") : "\(children[0]) and \(children.count - 1) more"
            session.leaveOut(
                children,
                because:
                    "\(named) \(children.count == 1 ? "inherits" : "inherit") \(parent): \(children.count == 1 ? "its" : "their") rows are read through \(parent)'s, not as entities of their own"
            )
        }
        // Views' columns came with the tables' (`mapViews`); a table without a key is
        // read as a view is, by its rows' places.
        try mapViews(catalog, session: session)
        mapKeylessTables(keyless, catalog: catalog, session: session)
    }

    /// A table made in the schema after the open (by psql, say), asked for by name: read
    /// from the catalog and mapped as the open maps a table (by its integer key, by a
    /// number made from another key, or read only by its rows' places), with its foreign
    /// keys to entities. So an import into it loads its rows rather than trying to make
    /// it again ("a table of that name already exists").
    package func adoptNewRelation(_ name: String, session: StoreSession) throws -> Bool {
        guard session.managedObjectModel.entitiesByName[name] == nil, try readTableNames(session).contains(name) else { return false }
        let catalog = try readCatalog(session)
        guard let relation = catalog.relations[name], !relation.columns.isEmpty else { return false }
        let engine = PostgresForeignSchema(schema: schema)
        switch ForeignSchema.rowKey(of: relation, engine: engine) {
        case .integerKey(let key):
            var storage = EntityStorage(layout: .foreignTable, relation: name, keyColumn: key, dialect: PostgreSQLDialect())
            storage.schema = schema
            session.remember(Self.tableEntity(relation, keys: [key], storage: &storage), storage: storage)
        case .numbered:
            if let reason = try mapKeyedTable(relation, taken: Set(catalog.relations.keys), session: session) {
                throw StoreError.database(message: "\(name) cannot be read: \(reason)")
            }
        case .unkeyed:
            mapKeylessTables([name], catalog: catalog, session: session)
        }
        guard session.managedObjectModel.entitiesByName[name] != nil else { return false }
        try catalog.addForeignKeys(of: [name], isParent: { session.managedObjectModel.entitiesByName[$0] != nil }, in: session)
        hasTriggers = try triggersCoverEveryTable(session)
        return true
    }

    /// A column's type (`pg_type.typname`) as Quarry's: integers by width, booleans,
    /// floating numbers and intervals (as seconds) as doubles, `numeric` and `money` as exact decimals, timestamps and days
    /// (`date`, at midnight UTC, as a SQLite file's column of days reads) as dates, `bytea` as
    /// binary, and anything else (text, `uuid`, `json`, arrays, ...) as its text.
    package static func attributeType(_ typeName: String) -> AttributeType {
        switch typeName {
        case "int2": return .int16
        case "int4": return .int32
        case "int8", "oid": return .int64
        case "bool": return .bool
        // An interval is its seconds (`EntityStorage.intervalColumns`), as Swift's TimeInterval.
        case "float4", "float8", "interval": return .double
        // `money` too: it is read and compared as its numeric (`EntityStorage.numericCasts`).
        case "numeric", "money": return .decimal
        case "timestamptz", "timestamp", "date": return .date
        case "bytea": return .binary
        default: return .string
        }
    }

    /// The types read as strings that compare, sort and take `starts_with` as text do.
    static let plainText: Set<String> = ["text", "varchar"]

    /// `pg_constraint.confdeltype` as the SQL words `ForeignSchema.deleteRule(onDelete:)` reads.
    static func deleteAction(_ code: String?) -> String {
        switch code {
        case "c": return "CASCADE"
        case "n": return "SET NULL"
        case "d": return "SET DEFAULT"
        case "r": return "RESTRICT"
        default: return "NO ACTION"
        }
    }
}

extension Value {
    /// The text a catalog read returned, nil for anything else.
    package var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
