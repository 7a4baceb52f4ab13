import GRDB

/// A schema of a PostgreSQL database, opened by URL (`PostgresURL`): its tables as
/// entities, typed as the server types their columns, and their foreign keys as to-one
/// relationships with an inverse to-many, as a SQLite file Quarry did not create opens.
/// Every read goes to the server through the connection (`StoreConnection.postgres`);
/// predicates, sorts and counts are said in PostgreSQL's SQL (`PostgreSQLDialect`).
///
/// Reading only, for now: saving, batch changes, `define` and imports are refused before
/// anything is sent (docs/postgresql.md says what writing needs), and nothing is added to
/// the schema. Other sessions' commits are seen by the next fetch; objects already read
/// keep their values until `o:refresh()`.
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

    // MARK: Writing, refused for now

    /// The refusal; the caller's message names the operation (`save: ...`).
    private func notYet(_ operation: String) -> StoreError {
        .database(message: "writing to a PostgreSQL store is not supported yet (Quarry reads it; see docs/postgresql.md)")
    }

    func refuseUnfaithfulWrite(_ operation: String, in context: ObjectContext) throws { throw notYet(operation) }
    func willWrite(in context: ObjectContext) throws { throw notYet("writing") }
    func refuseDefining(_ entity: String, whole: Bool) throws { throw notYet(whole ? "model()" : "define(\"\(entity)\")") }
    func prepare(_ request: SaveChangesRequest, in context: ObjectContext) throws -> StoreSaveWork { throw notYet("save()") }
    func write(_ request: SaveChangesRequest, _ work: StoreSaveWork, context: ObjectContext) throws -> SaveChangesResult { throw notYet("save()") }
    func insertedKey(of entity: EntityDescription, in db: Database, context: ObjectContext) throws -> Int64 { throw notYet("save()") }
    func writeDefinition(_ entity: EntityDescription, changes: [EntityDescription], in db: Database, context: ObjectContext) throws -> [String] {
        throw notYet("define(\"\(entity.name)\")")
    }
    func keepDeclaration(_ name: String, definition: String, in db: Database, context: ObjectContext) throws { throw notYet("define(\"\(name)\")") }
    func keptTemplates(context: ObjectContext) throws -> [CoreDataFetchRequest] { [] }
    func keep(templates: [CoreDataFetchRequest], context: ObjectContext) throws { throw notYet("model()") }

    // MARK: Reading

    /// No outside change is noticed between fetches until LISTEN/NOTIFY (docs/postgresql.md).
    func outsideChangeCounter(context: ObjectContext) throws -> Int { 0 }
    func historyToken(context: ObjectContext) throws -> Int64 { 0 }
    func history(since: Int64?, author: String?, context: ObjectContext) throws -> [HistoryTransaction] { [] }
}
