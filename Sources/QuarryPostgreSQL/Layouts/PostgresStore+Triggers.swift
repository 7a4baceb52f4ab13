import QuarryModel
import QuarryStore

/// The triggers that announce every commit to a schema's tables, whoever makes it (psql,
/// an app), on the channel quarry sessions listen on. Installed only when the user asks
/// (`?notify=triggers`), since they change the schema: one function, `quarry_notify`, and
/// one statement-level trigger of that name on each table of an entity (a hierarchy's
/// root table: its members' views write it; not a view of the schema, whose rows change
/// by its tables') and on each join table of a many-to-many relationship, whose rows are
/// links, not objects. Without them, a commit by a program
/// other than quarry is noticed at `refresh()`.
extension PostgresStore {
    func installTriggers(_ session: StoreSession) throws {
        let server = try server(session)
        // A keyed table's, not its session's view.
        let tables = (Set(tableStorages.map(writtenTable)).union(linkTables(session).map(qualified))).sorted()
        do {
            try server.inWriteTransaction { try createTriggers(on: tables, server) }
        } catch StoreError.engine(let failure as PostgresFailure) {
            let (state, sql, message) = (failure.sqlState, failure.sql, failure.said)
            throw StoreError.postgres(sqlState: state, sql: sql, message: "cannot install the triggers ?notify=triggers asks for: \(message)")
        }
    }

    /// The function and a trigger on each of `tables` (quoted), inside the caller's write
    /// transaction; `CREATE OR REPLACE`, so a second install changes nothing.
    func createTriggers(on tables: [String], _ server: PostgresConnection) throws {
        let schemaName = quoteIdentifier(schema)
        // The payload is the schema, as Quarry's own announcements say it.
        try server.execute(
            """
            CREATE OR REPLACE FUNCTION \(schemaName).quarry_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(PostgresConnection.channel)', TG_TABLE_SCHEMA); RETURN NULL; END $$
            """)
        for table in tables {
            try server.execute(
                """
                CREATE OR REPLACE TRIGGER quarry_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(table)
                FOR EACH STATEMENT EXECUTE FUNCTION \(schemaName).quarry_notify()
                """)
        }
    }

    /// Whether each table of an entity has the trigger (`installTriggers`): a hierarchy's
    /// is its root's, which its members' views write.
    func triggersCoverEveryTable(_ session: StoreSession, adding new: [String] = []) throws -> Bool {
        let relations = Set(tableStorages.map(\.relation) + new).union(linkTables(session))
        guard !relations.isEmpty else { return false }
        let covered = try session.connection.rows(
            """
            SELECT c.relname FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = ? AND t.tgname = 'quarry_notify' AND t.tgenabled <> 'D'
            """, arguments: [.text(schema)]
        ).compactMap { $0.first?.textValue }
        return relations.isSubset(of: Set(covered))
    }

    /// The storages of the entities that are tables, a hierarchy's members by its root's:
    /// not the schema's views and materialized views (Pagila's `film_list`), which take no
    /// statement trigger and change only by a commit to their tables.
    private var tableStorages: [EntityStorage] {
        managedObjectModel.entities.map { mapping.storage(of: managedObjectModel.root(of: $0.name)) }.filter { $0.layout != .foreignView }
    }

    /// The tables (unquoted) that hold the links of the model's many-to-many relationships:
    /// the schema's join tables, and the link tables of the entities Quarry made (the
    /// others' link tables are this session's views over a join table).
    func linkTables(_ session: StoreSession) -> Set<String> {
        var tables = joinTables
        for name in declared {
            guard let entity = managedObjectModel.entitiesByName[name] else { continue }
            for relationship in entity.relationships where declared.contains(relationship.destination) {
                if case .linkTable(let table, _, _)? = session.storage(of: relationship, in: name) { tables.insert(table) }
            }
        }
        return tables
    }
}
