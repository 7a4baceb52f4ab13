import QuarryModel

/// What a store defines and keeps: entities (`define`, `model()`), their declarations,
/// `relate()`, `format()` and fetch request templates, and the refusals before any of it.
package protocol StoreDefining: AnyObject {
    /// Refuses defining or changing entities (`define`, `model()`) where the store's
    /// entities are another program's model; `whole` when a whole model is defined.
    func refuseDefining(_ entity: String, whole: Bool) throws
    /// Refuses a definition the store cannot keep as declared (names its database cannot
    /// hold, a kind of entity it does not make yet), before anything is checked or written.
    /// None by default: a SQLite file holds every name a definition may have.
    func refuse(_ definition: EntityDescription) throws
    /// Whether the file is Quarry's own, so what Quarry chooses to keep is kept in it:
    /// `relate()` calls in its model, sub-entities' views and triggers, a key sequence
    /// (AUTOINCREMENT's `sqlite_sequence`), the index on `_entity`. A file Quarry did not
    /// create gains only what its user asks for (a table, rows): the rest lives in its
    /// sidecar or, remade at each open, in the connection's TEMP schema. False unless
    /// the store says so: none is assumed to be Quarry's.
    var isQuarrysFile: Bool { get }
    /// The fetch request templates `model()` kept with the store, in any order; on
    /// SQLite, Quarry's table (`SQLiteStore+QuarryTemplates`).
    func keptTemplates(session: StoreSession) throws -> [CoreDataFetchRequest]
    /// Keeps `what` where reopening finds it again, each where the store keeps such things
    /// (`Keeping`); what a store does not keep, it ignores.
    func keep(_ what: Keeping, session: StoreSession) throws
    /// `relate()` gave `table` a to-one (made now, or replayed from where it was kept):
    /// another program's table whose relationships now make a join table's shape becomes
    /// one (`ForeignFileStore+RelatedJoinTables`). Nothing for other stores.
    func didRelate(_ table: String, in session: StoreSession)
    /// Refuses `format()` declaring `format` for a column (`original`, as the schema
    /// describes it) that the store's engine cannot read so (a server's typed columns);
    /// after the checks every store shares.
    func refuseFormat(_ format: ColumnFormat, of entity: EntityDescription, _ original: AttributeDescription, session: StoreSession) throws
    /// Makes or migrates the tables of `entity` and of `changes` (entities that gain its
    /// inverses) and keeps their declarations in one transaction (after `refuseDefining`
    /// and the context's checks); returns the entities of the hierarchies it reshaped,
    /// which the context sees anew once it committed.
    func define(_ entity: EntityDescription, changes: [EntityDescription], session: StoreSession) throws -> [String]
    /// Whether `name` is an entity Quarry defined in the store and keeps the declaration
    /// of (so it may be a parent, and be redefined with one). Each store answers: a SQLite
    /// file's stores by its rows' layout (`keepsQuarryLayout`), the server's by what it
    /// made.
    func keepsDeclaration(of name: String) -> Bool
    /// Reads the relation `name` that another program made after the open (psql's
    /// `CREATE TABLE`), now asked for by name (an import into it), as the open would
    /// have read it: whether it now is an entity. False where nothing else makes tables
    /// while a store is open, or no such relation exists.
    func adoptNewRelation(_ name: String, session: StoreSession) throws -> Bool
}

/// What most stores answer alike.
extension StoreDefining {
    package func refuseDefining(_ entity: String, whole: Bool) throws {}
    package func refuse(_ definition: EntityDescription) throws {}
    package var isQuarrysFile: Bool { false }
    package func refuseFormat(_ format: ColumnFormat, of entity: EntityDescription, _ original: AttributeDescription, session: StoreSession) throws {
    }
    /// Only another program's file reads a join table's shape from what `relate()` made.
    package func didRelate(_ table: String, in session: StoreSession) {}
    /// A file's tables made by another program are read at its next open.
    package func adoptNewRelation(_ name: String, session: StoreSession) throws -> Bool { false }
}
