import GRDB

/// A schema of a PostgreSQL database, opened by URL (`PostgresURL`): its tables as
/// entities, typed as the server types their columns, and their foreign keys as to-one
/// relationships with an inverse to-many, as a SQLite file Quarry did not create opens.
/// Every read goes to the server through the connection (`StoreConnection.postgres`);
/// predicates, sorts and counts are said in PostgreSQL's SQL (`PostgreSQLDialect`).
///
/// `save()` writes in one transaction with optimistic locking (`PostgresSaveWriter`);
/// batch changes, imports and definitions are refused before anything is sent
/// (docs/postgresql.md says what they need), and nothing of Quarry's is added to the
/// schema. Other sessions' commits are seen by the next fetch; objects already read keep
/// their values until `o:refresh()`.
final class PostgresStore: PersistentStore {
    var managedObjectModel = ManagedObjectModel()
    var mapping = StoreMapping()
    let dialect: any SQLDialect = PostgreSQLDialect()
    /// The schema whose tables are the entities.
    let schema: String
    var isQuarrysFile: Bool { false }

    init(schema: String) { self.schema = schema }

    func didOpen(in context: ObjectContext) throws {
        try introspect(context)
    }

    // MARK: Writing: saves; batch changes, imports and definitions refused for now

    /// The refusal; the caller's message names the operation (`updateall: ...`).
    private func notYet() -> StoreError {
        .database(message: "a PostgreSQL store takes save() only, for now (see docs/postgresql.md); nothing was written")
    }

    func refuseUnfaithfulWrite(_ operation: String, in context: ObjectContext) throws {
        if operation != "save" { throw StoreError.during(operation: operation, notYet()) }
    }
    func willWrite(_ operation: String, in context: ObjectContext) throws {
        if operation != "save" { throw StoreError.during(operation: operation, notYet()) }
    }
    func refuseDefining(_ entity: String, whole: Bool) throws { throw notYet() }

    /// One transaction on the server (`PostgresSaveWriter`).
    func write(_ request: SaveChangesRequest, _ work: StoreSaveWork, context: ObjectContext) throws -> SaveChangesResult {
        guard let server = context.connection.postgres else { throw StoreConnection.notOnPostgres("save") }
        return try PostgresSaveWriter(context: context, server: server).write(request)
    }
    /// Never asked: the writer reads the key each INSERT returns.
    func insertedKey(of entity: EntityDescription, in db: Database, context: ObjectContext) throws -> Int64 { throw notYet() }
    func writeDefinition(_ entity: EntityDescription, changes: [EntityDescription], in db: Database, context: ObjectContext) throws -> [String] {
        throw notYet()
    }
    func keepDeclaration(_ name: String, definition: String, in db: Database, context: ObjectContext) throws { throw notYet() }
    func keptTemplates(context: ObjectContext) throws -> [CoreDataFetchRequest] { [] }
    func keep(templates: [CoreDataFetchRequest], context: ObjectContext) throws { throw notYet() }

    // MARK: Reading

    /// No outside change is noticed between fetches until LISTEN/NOTIFY (docs/postgresql.md).
    func outsideChangeCounter(context: ObjectContext) throws -> Int { 0 }
    func historyToken(context: ObjectContext) throws -> Int64 { 0 }
    func history(since: Int64?, author: String?, context: ObjectContext) throws -> [HistoryTransaction] { [] }
}
