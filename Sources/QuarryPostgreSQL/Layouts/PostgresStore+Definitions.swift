import QuarryEngine
import QuarryModel
import QuarryStore

/// Entities Quarry defines in a PostgreSQL schema (`entity`): a table each, keyed by a
/// `bigserial` `_pk`, a typed column per attribute and per to-one relationship, the
/// to-one columns foreign keys whose `ON DELETE` is the inverse's delete rule, so the
/// server carries the rule out for rows no object holds (as it does for the schema's own
/// tables). Each definition is kept in the schema's `quarry_model` table, as a Quarry
/// file keeps it, and read back at open; each table gets the trigger that announces
/// commits (`PostgresStore+Triggers`), since Quarry made it. A redefinition migrates
/// the table in place, as a Core Data lightweight migration does: attributes added (a
/// default fills existing rows), dropped or renamed (`renamedFrom`), to-one
/// relationships added or dropped. Refused, with nothing written: a type change, a new
/// required attribute without a default over existing rows, and redefining a table
/// Quarry did not create. Many-to-many relationships get link tables, as in a Quarry
/// file. A hierarchy is one table for its root (`PostgresQuarryTables+Hierarchies`). The flow is
/// written once for both engines (`QuarryDefinition`); this file answers its statements.
extension PostgresStore {
    /// The table keeping the definitions.
    static let modelTable = "quarry_model"

    /// Creates or migrates the tables of `entity` and of `changes` (entities gaining its
    /// inverses) and keeps their definitions, in one transaction; then the store's model
    /// takes them (`adopt`). Returns the entities of the hierarchies it reshaped.
    func writeServerDefinition(_ entity: EntityDescription, changes: [EntityDescription], session: StoreSession) throws -> [String] {
        let server = try server(session)
        let touched = try server.inWriteTransaction { try writeTables(entity, changes: changes, server) }
        try adopt([entity] + changes, touched: touched, session: session)
        return touched
    }

    /// The SQL of a definition, inside the caller's write transaction (`QuarryDefinition`);
    /// the model does not change here (`adopt`, once it committed). Returns the entities
    /// of the hierarchies it reshaped (none outside hierarchies).
    @discardableResult
    func writeTables(_ entity: EntityDescription, changes: [EntityDescription], _ server: PostgresConnection) throws -> [String] {
        try QuarryDefinition(store: self).run(entity, changes: changes, on: PostgresQuarryTables(store: self, server: server)).touched
    }

    /// The link table's `column` refers to the keys of `root`'s table only, its rows going
    /// with theirs (the key it had to another table is dropped, whatever its name).
    fileprivate func refer(_ table: String, _ column: String, to root: String, _ server: PostgresConnection) throws {
        let names = try server.execute(
            """
            SELECT con.conname FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
            WHERE n.nspname = $1 AND c.relname = $2 AND con.contype = 'f' AND a.attname = $3
            """, [.text(schema), .text(table), .text(column)]
        ).rows.compactMap { $0.first?.textValue }
        for name in names { try server.execute("ALTER TABLE \(qualified(table)) DROP CONSTRAINT \(quoteIdentifier(name))") }
        try server.execute(
            "ALTER TABLE \(qualified(table)) ADD FOREIGN KEY (\(column)) REFERENCES \(qualified(root)) (\(quoteIdentifier(EntityStorage.quarryKeyColumn))) ON DELETE CASCADE NOT VALID"
        )
    }

    /// The store's model takes definitions written on the server: each entity's table
    /// (or view, in a hierarchy) is placed, and counts among Quarry's own. `touched`: the
    /// members of the hierarchies reshaped, placed anew as objects will see them.
    package func adopt(_ entities: [EntityDescription], touched: [String] = [], session: StoreSession) throws {
        let after = DefinitionsAfter(managedObjectModel, entities)
        // The schema's own tables gaining an inverse stay the schema's.
        let schemas = Set(entities.map(\.name).filter(isOtherProgramsTable))
        for name in entities.map(\.name) + touched where !schemas.contains(name) {
            guard let effective = after.effective(name) else { continue }
            mapping.place(name, Self.storage(of: effective, schema: schema))
            declared.insert(name)
        }
        hasTriggers = try triggersCoverEveryTable(session, adding: (entities.map(\.name) + touched).map(after.table(of:)))
    }

    /// Where Quarry's table for `entity` (as objects see it) is, or its view over its
    /// root's table: keyed by `_pk`, its uuid and json columns compared as their text.
    package static func storage(of entity: EntityDescription, schema: String) -> EntityStorage {
        var storage = EntityStorage(
            layout: .foreignTable, relation: entity.name, keyColumn: EntityStorage.quarryKeyColumn, dialect: PostgreSQLDialect())
        storage.schema = schema
        storage.textCasts = Set(entity.attributes.filter { $0.type == .uuid || $0.type == .json }.map(\.name))
        return storage
    }

    /// What a PostgreSQL schema cannot hold as declared, refused before anything is
    /// written: names past 63 bytes, which PostgreSQL would cut short (and two could
    /// become one); PostgreSQL's system column names; an entity whose name differs from
    /// another's only in case, which a Quarry file refuses too.
    package func refuse(_ definition: EntityDescription) throws {
        func refused(_ reason: String) -> StoreError { .invalidSchema(entity: definition.name, reason: reason) }
        for name in [definition.name] + definition.keyNames where name.utf8.count > Self.identifierLimit {
            throw refused("'\(name)' is \(name.utf8.count) bytes long; PostgreSQL keeps names of at most \(Self.identifierLimit)")
        }
        // A many-to-many relationship's link table is named by the entity and the
        // relationship (`quarry_link_Entity_rel`): cut short, two would share one table.
        for relationship in definition.relationships where relationship.isToMany {
            let table = "quarry_link_\(definition.name)_\(relationship.name)"
            if table.utf8.count > Self.identifierLimit,
                managedObjectModel.entitiesByName[relationship.destination]?
                    .relationship(named: relationship.inverse ?? "")?.isToMany ?? true
            {
                throw refused(
                    "'\(relationship.name)' would keep its links in a table named '\(table)', \(table.utf8.count) bytes long; "
                        + "PostgreSQL keeps names of at most \(Self.identifierLimit)")
            }
        }
        if let name = definition.keyNames.first(where: { Self.systemColumns.contains($0.lowercased()) }) {
            throw refused("'\(name)' is the name of a system column in PostgreSQL, which a table cannot have")
        }
        if let other = managedObjectModel.entitiesByName.keys.first(where: {
            $0 != definition.name && $0.lowercased() == definition.name.lowercased()
        }) {
            throw refused("a table of that name already exists (\(other), which differs only in case)")
        }
    }

    /// The longest identifier PostgreSQL keeps (`NAMEDATALEN` - 1 bytes).
    static let identifierLimit = 63
    /// Columns every PostgreSQL table has.
    static let systemColumns: Set<String> = ["xmin", "xmax", "cmin", "cmax", "ctid", "tableoid"]

    /// A name for an index or constraint Quarry makes, within PostgreSQL's limit: as
    /// written when it fits, else its start and a hash of the whole, so two long names
    /// that share their first 63 bytes stay two.
    package static func identifier(_ name: String) -> String {
        guard name.utf8.count > identifierLimit else { return name }
        let hash = nameHash(name)
        var prefix = ""
        for c in name where prefix.utf8.count + String(c).utf8.count <= identifierLimit - 17 { prefix.append(c) }
        let digits = String(hash, radix: 16)
        return prefix + "_" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The relation `name` in the store's schema, quoted.
    package func qualified(_ name: String) -> String { quoteIdentifier(schema) + "." + quoteIdentifier(name) }

    /// The column type of an attribute in Quarry's tables on the server.
    package static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .int16: return "smallint"
        case .int32: return "integer"
        case .int64: return "bigint"
        case .double: return "double precision"
        case .decimal: return "numeric"
        // Text sorts and compares by its bytes, as in SQLite.
        case .string: return #"text COLLATE "C""#
        case .bool: return "boolean"
        case .date: return "timestamptz"
        case .binary: return "bytea"
        case .uuid: return "uuid"
        // json keeps the text as written (jsonb would reorder it).
        case .json: return "json"
        }
    }

    /// A new table or view may not take the name of any relation of the schema (a table
    /// left out for its key, a view, a table's sequence): the server's own words would be
    /// "already exists".
    package func refuseTaken(_ name: String, _ server: PostgresConnection) throws {
        let taken =
            try server.execute(
                "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2",
                [.text(schema), .text(name)]
            ).rows.first?.first?.storedInteger ?? 0
        if taken > 0 { throw StoreError.invalidSchema(entity: name, reason: "a table of that name already exists") }
    }

    /// Each to-one column of Quarry's tables that points at one of `names` (or belongs to
    /// one) is a foreign key to its destination's `_pk`, its `ON DELETE` the inverse's
    /// delete rule (nullify when there is no inverse); a `noaction` rule leaves dangling
    /// keys as Core Data does, so it has none. Made `NOT VALID`: rows already there are
    /// not checked again at every definition. In a hierarchy the column and the key it
    /// refers to are in the roots' tables, and the constraint is named after the table.
    fileprivate func syncForeignKeys(touching names: Set<String>, in after: DefinitionsAfter, _ server: PostgresConnection) throws {
        for (name, entity) in after.declared.sorted(by: { $0.key < $1.key }) where declared.contains(name) || names.contains(name) {
            let table = after.table(of: name)
            for r in entity.ownKeyColumns where names.contains(name) || names.contains(r.destination) {
                let constraint = quoteIdentifier(Self.identifier("quarry_fk_\(table)_\(r.name)"))
                try server.execute("ALTER TABLE \(qualified(table)) DROP CONSTRAINT IF EXISTS \(constraint)")
                // The inverse may be declared by a member of the destination's hierarchy.
                let rule = r.inverse.flatMap { after.effective(r.destination)?.relationship(named: $0)?.deleteRule } ?? .nullify
                let action: String
                switch rule {
                case .nullify: action = "SET NULL"
                case .cascade: action = "CASCADE"
                case .deny: action = "RESTRICT"
                case .setdefault: action = "SET DEFAULT"
                case .noaction: continue
                }
                // The schema's own tables have no `_pk` to refer to.
                guard after.declared[r.destination] != nil, !isOtherProgramsTable(r.destination) else { continue }
                try server.execute(
                    "ALTER TABLE \(qualified(table)) ADD CONSTRAINT \(constraint) FOREIGN KEY (\(quoteIdentifier(r.name))) REFERENCES \(qualified(after.table(of: r.destination))) (\(quoteIdentifier(EntityStorage.quarryKeyColumn))) ON DELETE \(action) NOT VALID"
                )
            }
        }
    }

    /// The definitions `quarry_model` keeps, in the order they were made; none when the
    /// schema has no such table.
    func readDefinitions(_ session: StoreSession) throws -> [EntityDescription] {
        let exists = try session.connection.scalar(
            "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ? AND c.relkind = 'r'",
            arguments: [.text(schema), .text(Self.modelTable)])
        guard exists?.storedInteger == 1 else { return [] }
        var definitions: [EntityDescription] = []
        for row in try session.connection.rows("SELECT name, definition FROM \(qualified(Self.modelTable)) ORDER BY position") {
            guard let name = row[0].textValue, let text = row[1].textValue else { continue }
            do { definitions.append(try StoredDefinition(text: text).entity) } catch {
                session.openingNotes.append(
                    "\(Self.modelTable) holds a definition of \(name) that Quarry cannot read: its table is read as the schema's own")
            }
        }
        return definitions
    }
}

/// Quarry's tables in a PostgreSQL schema, as `TableMigration` writes them; index names
/// shortened to the server's 63 bytes (`PostgresStore.identifier`).
struct PostgresQuarryTables: QuarryTableStatements {
    package let store: PostgresStore
    package let server: PostgresConnection

    package var statements: any WriteStatements { server }
    package func relation(_ name: String) -> String { store.qualified(name) }
    package func columnType(_ type: AttributeType) -> String { PostgresStore.columnType(type) }
    package var keyDeclaration: String { "bigserial PRIMARY KEY" }
    package func refuseTaken(_ name: String) throws { try store.refuseTaken(name, server) }
    package func indexName(_ name: String) -> String { quoteIdentifier(PostgresStore.identifier(name)) }
    package func indexRelation(_ name: String) -> String { store.qualified(PostgresStore.identifier(name)) }
}

/// Defining Quarry's tables in a PostgreSQL schema (`QuarryDefinition`), in the caller's
/// write transaction: declarations in `quarry_model`; link tables whose keys refer to the
/// roots' tables and go with their rows (`ON DELETE CASCADE`), so a row the server deletes
/// (a cascade, `deleteall`) takes its links along; to-one foreign keys carrying the
/// delete rules (`syncForeignKeys`); the trigger that announces commits on each table made.
extension PostgresQuarryTables: QuarryDefinitionStatements {
    /// Only a table Quarry made is migrated; another of the name is refused (`refuseDefining`).
    package func definitionToMigrate(_ name: String) -> EntityDescription? {
        store.declared.contains(name) ? store.managedObjectModel.entitiesByName[name] : nil
    }

    package func refuseDefining(_ entity: EntityDescription) throws {
        if store.isOtherProgramsTable(entity.name), store.mapping.storage(of: entity.name).layout == .foreignTable {
            throw StoreError.invalidSchema(
                entity: entity.name, reason: "\(entity.name) is a table of the schema that Quarry did not create: its columns are its own")
        }
        try store.refuse(entity)
    }

    /// `position` keeps the order of definition (a redefinition moves to the end, as a
    /// Quarry file's `INSERT OR REPLACE` does), which the next open lists them in.
    package func prepareDeclarations() throws {
        try server.execute(
            "CREATE TABLE IF NOT EXISTS \(store.qualified(PostgresStore.modelTable)) (position bigserial, name text PRIMARY KEY, definition text NOT NULL)"
        )
    }

    package func keepDeclaration(_ name: String, definition: String) throws {
        try server.execute("DELETE FROM \(store.qualified(PostgresStore.modelTable)) WHERE name = $1", [.text(name)])
        try server.execute(
            "INSERT INTO \(store.qualified(PostgresStore.modelTable)) (name, definition) VALUES ($1, $2)", [.text(name), .text(definition)])
    }

    package func createLinkTable(_ table: String, sourceTable: String?, targetTable: String?, moved: [String]) throws {
        let key = quoteIdentifier(EntityStorage.quarryKeyColumn)
        // A key to Quarry's tables; none to the schema's own (whose rows a save unlinks first).
        let refer = { (table: String?) in table.map { " REFERENCES \(store.qualified($0)) (\(key)) ON DELETE CASCADE" } ?? "" }
        try server.execute(
            "CREATE TABLE IF NOT EXISTS \(store.qualified(table)) ("
                + "source bigint NOT NULL\(refer(sourceTable)), target bigint NOT NULL\(refer(targetTable)), PRIMARY KEY (source, target))")
        try server.execute(
            "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(PostgresStore.identifier(table + "_target"))) ON \(store.qualified(table)) (target, source)"
        )
        // Its links are announced as the entities' rows are (`PostgresStore+Triggers`).
        try store.createTriggers(on: [store.qualified(table)], server)
        for column in moved {
            if let referred = column == "source" ? sourceTable : targetTable { try store.refer(table, column, to: referred, server) }
        }
    }

    package func didWriteTables(_ entities: [EntityDescription], touched: [String], made: [String]) throws {
        // The definitions as they will be, for the foreign keys' rules.
        let after = DefinitionsAfter(store.managedObjectModel, entities)
        try store.syncForeignKeys(touching: Set(entities.map(\.name) + touched), in: after, server)
        if !made.isEmpty { try store.createTriggers(on: made.map { store.qualified($0) }, server) }
    }
}
