import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A schema of a PostgreSQL database, opened by URL (`PostgresURL`): its tables as
/// entities, typed as the server types their columns, and their foreign keys as to-one
/// relationships with an inverse to-many, as a SQLite file Quarry did not create opens.
/// Every read goes to the server through the connection's engine (`PostgresEngine`);
/// predicates, sorts and counts are said in PostgreSQL's SQL (`PostgreSQLDialect`).
///
/// `save()` writes in one transaction with optimistic locking (`PostgresSaveWriter`),
/// `updateall` and `deleteall` as one statement each (`PostgresStore+BatchChanges`),
/// `import` through COPY (`PostgresImport`). `entity` makes tables of Quarry's own
/// (`PostgresStore+Definitions`, kept in `quarry_model`); otherwise nothing of Quarry's
/// is added to the schema unless asked (`?notify=triggers`). Other sessions' commits are
/// heard through LISTEN/NOTIFY (`outsideChangeCounter`, `PostgresStore+Triggers`).
package final class PostgresStore: PersistentStore {
    package var managedObjectModel = ManagedObjectModel()
    package var mapping = StoreMapping()
    /// Set at open, by what the database can fold (`PostgreSQLDialect.foldsText`).
    package private(set) var dialect: any SQLDialect = PostgreSQLDialect()
    /// A cascade's deletes fire their own keys' triggers after the ones already queued
    /// (the server's referential actions run their statements without firing triggers
    /// at once), so a RESTRICT key of the parent acts before them.
    package var runsCascadesAtOnce: Bool { false }
    /// The schema whose tables are the entities.
    package let schema: String

    /// Whether the user asked for the triggers that announce every commit (`?notify=triggers`).
    package let installsTriggers: Bool
    /// Whether every table of an entity has them (installed now or by an earlier session).
    var hasTriggers = false
    /// The entities Quarry defined in the schema (`quarry_model`), whose tables it made.
    package var declared: Set<String> = []
    /// The schema's own join tables read as many-to-many relationships (`PostgresStore+JoinTables`).
    var joinTables: Set<String> = []
    /// The schema's tables keyed other than by one integer column, read through a view of
    /// this session that numbers their rows, by name: their key columns (`PostgresStore+KeyedTables`).
    var keyedTables: [String: [String]] = [:]
    /// Other sessions' commits to the schema heard so far (`outsideChangeCounter`).
    private var heard = 0
    /// The schema's views as last read, to notice one another session redefines
    /// (`PostgresStore+RedefinedViews`).
    var viewsAsRead = ViewsAsRead()

    package init(schema: String, installsTriggers: Bool = false) {
        self.schema = schema
        self.installsTriggers = installsTriggers
    }

    package func didOpen(in session: StoreSession) throws {
        let folds = try server(session).execute(
            "SELECT current_setting('server_encoding') = 'UTF8' AND EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu')")
        dialect = PostgreSQLDialect(foldsText: folds.rows.first?.first == .bool(true))
        try introspect(session)
        if installsTriggers { try installTriggers(session) }
        hasTriggers = try triggersCoverEveryTable(session)
        try noteViews(in: session)
    }

    // MARK: Writing: saves, batch changes, imports and definitions

    /// The refusal; the caller's message names the operation (`import: ...`).
    private func notYet() -> StoreError {
        .database(
            message:
                "a PostgreSQL store takes save(), updateall, deleteall and import into its tables only, for now (see docs/postgresql.md); nothing was written"
        )
    }

    private static let writes: Set<String> = ["save", "updateall", "deleteall", "import"]

    /// Definitions are not taken yet; a save that sets a generated column is refused.
    package func refuseUnfaithfulWrite(_ operation: String, in session: StoreSession) throws {
        if !Self.writes.contains(operation) { throw StoreError.during(operation: operation, notYet()) }
        guard operation == "save" else { return }
        let pending = session.pendingChanges
        // Asked once for a run of objects of one entity (for each, it was 2% of a save of
        // 20,000 new objects).
        var last: (entity: String, generated: Set<String>)?
        for object in pending.updated + pending.inserted {
            let name = object.entity.name
            if last?.entity != name { last = (name, mapping.storage(of: name).generated) }
            let generated = last?.generated ?? []
            // Most tables have no generated column: nothing to filter and sort for each object.
            guard !generated.isEmpty else { continue }
            let set = object.isInserted ? generated.filter { !object.currentValue($0).isNull } : generated.filter { object.pending[$0] != nil }
            if let name = set.sorted().first {
                throw StoreError.during(
                    operation: operation,
                    .database(message: "\(object.entity.name).\(name) is generated by the server and cannot be set; nothing was written"))
            }
        }
        try mapping.refuseKeyChanges(of: pending.updated, operation: operation)
    }
    package func willWrite(_ operation: String, in session: StoreSession) throws {
        if !Self.writes.contains(operation) { throw StoreError.during(operation: operation, notYet()) }
    }

    /// `updateall` may not set a generated column.
    package func refuseSetting(_ keys: some Sequence<String>, of entity: String, operation: String) throws {
        let generated = mapping.storage(of: entity).generated
        if let name = keys.filter(generated.contains).sorted().first {
            throw StoreError.during(
                operation: operation, .database(message: "\(entity).\(name) is generated by the server and cannot be set; nothing was written"))
        }
        try mapping.refuseSettingKeys(keys, of: entity, operation: operation)
    }
    /// `entity` and `model()` make tables (`PostgresStore+Definitions`); what a schema
    /// cannot hold is refused per definition (`refuse`).
    package func refuseDefining(_ entity: String, whole: Bool) throws {}

    package func define(_ entity: EntityDescription, changes: [EntityDescription], session: StoreSession) throws -> [String] {
        try writeServerDefinition(entity, changes: changes, session: session)
    }
    /// Only the tables Quarry made are its entities as declared; the schema's own are
    /// read from the catalog.
    package func keepsDeclaration(of name: String) -> Bool { declared.contains(name) }

    /// One transaction on the server (`PostgresSaveWriter`). One that met a lost
    /// connection before its COMMIT wrote nothing: it runs once more on a new connection
    /// (a server restarted meanwhile), and otherwise fails with the changes still pending.
    package func write(_ request: SaveChangesRequest, _ work: StoreSaveWork, session: StoreSession) throws -> SaveChangesResult {
        let server = try server(session)
        do {
            do {
                return try PostgresSaveWriter(store: self, session: session, server: server).write(request)
            } catch  where server.lostBeforeCommit {
                try server.reestablishIfLost()
                return try PostgresSaveWriter(store: self, session: session, server: server).write(request)
            }
        } catch {
            // A trigger's refusal names the trigger (`PostgresStore+TriggerRefusals`).
            throw namingTriggers(error, server: server)
        }
    }
    /// The fetch request templates `model()` kept in the schema, as a Quarry file keeps
    /// them (`quarry_fetch_template`).
    package func keptTemplates(session: StoreSession) throws -> [CoreDataFetchRequest] {
        let exists = try session.connection.scalar(
            "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ? AND c.relkind = 'r'",
            arguments: [.text(schema), .text(Self.templateTable)])
        guard exists?.storedInteger == 1 else { return [] }
        return try session.connection.rows("SELECT name, entity, predicate, problem FROM \(qualified(Self.templateTable))").compactMap { row in
            guard let name = row[0].textValue, let entity = row[1].textValue else { return nil }
            return CoreDataFetchRequest(name: name, entity: entity, predicate: CoreDataPredicate(format: row[2].textValue, problem: row[3].textValue))
        }
    }

    /// Templates in the schema's table; a server's store replays no `relate()` or
    /// `format()` (the contract: they last for the session).
    package func keep(_ what: Keeping, session: StoreSession) throws {
        guard case .templates(let templates) = what else { return }
        try keep(templates: templates, session: session)
    }

    private func keep(templates: [CoreDataFetchRequest], session: StoreSession) throws {
        guard !templates.isEmpty else { return }
        let server = try server(session)
        try server.inWriteTransaction {
            try server.execute(
                "CREATE TABLE IF NOT EXISTS \(qualified(Self.templateTable)) (name text PRIMARY KEY, entity text NOT NULL, predicate text, problem text)"
            )
            for template in templates {
                try server.execute(
                    "INSERT INTO \(qualified(Self.templateTable)) (name, entity, predicate, problem) VALUES ($1, $2, $3, $4) "
                        + "ON CONFLICT (name) DO UPDATE SET entity = EXCLUDED.entity, predicate = EXCLUDED.predicate, problem = EXCLUDED.problem",
                    [
                        .text(template.name), .text(template.entity), template.predicate?.format.map(Value.text) ?? .null,
                        template.predicate?.problem.map(Value.text) ?? .null
                    ])
            }
        }
    }

    // MARK: Reading

    /// Moves with each announcement of another session's commit to the schema (LISTEN):
    /// every quarry's writes, and with the triggers every program's. A view another
    /// session redefined is first keyed again (`PostgresStore+RedefinedViews`).
    package func outsideChangeCounter(session: StoreSession) throws -> Int {
        let server = try server(session)
        try rekeyRedefinedViews(server, in: session)
        heard += try server.takeNotifications().filter { $0 == schema }.count
        // Commits made while the connection was lost were not heard: each new connection is news.
        return heard + server.reconnections
    }

    package var unheardCommits: String? {
        hasTriggers
            ? nil
            : "other programs' commits to the schema (psql's, an app's) reach observers and watch at refresh(); quarry sessions' are heard at once. Open it with ?notify=triggers to hear every commit (a trigger on each table)"
    }
}
