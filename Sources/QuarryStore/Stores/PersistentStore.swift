import QuarryModel
import QuarryModelFiles

/// One kind of file behind a context, as Core Data's `NSPersistentStore`: what a write
/// must keep beyond the rows themselves (a Core Data store's version counters, ordering
/// columns and persistent history; Quarry's own history table; nothing of Quarry's in a
/// file Quarry did not create). The context keeps the objects and orchestrates a save; it
/// hands the rows to `SQLiteSaveWriter` and asks its store at each of these points, and
/// never asks which kind of store it has.
///
/// Stores are chosen when the file is opened: each kind recognises its files and opens
/// them (`OpenableStore`), and the context adopts the first that does
/// (`ObjectContext.openStore`). The next kind (another database, another file
/// convention) is one more conformance.
package protocol PersistentStore: AnyObject {
    /// The entities the store holds, as read when it was opened and defined since.
    var managedObjectModel: ManagedObjectModel { get set }
    /// Where each entity's rows are in the store.
    var mapping: StoreMapping { get set }

    /// The SQL the store's database speaks. Every store states it: none is assumed.
    var dialect: any SQLDialect { get }

    /// Once the context adopted the store: what its conventions add through the context
    /// (the file's other tables as entities, a sidecar's `relate()` calls), and what the
    /// open has to say (`openingNotes`).
    func didOpen(in context: ObjectContext) throws

    /// Writes a save in one transaction (conflicts settled first, as the request's policy
    /// says), asking this store at the points below; nothing of the objects changes here.
    func write(_ request: SaveChangesRequest, _ work: StoreSaveWork, context: ObjectContext) throws -> SaveChangesResult
    /// The rows of `entity` with these keys, by key, in its layout (`selection(of:)`);
    /// keys with no row are left out. Values in storage form (`Value.storedForm`).
    func rows(of entity: EntityDescription, keys: [Int64], context: ObjectContext) throws -> [Int64: [Value]]
    /// A number that moves whenever another session commits (SQLite's `data_version`).
    func outsideChangeCounter(context: ObjectContext) throws -> Int
    /// Why some outside commits do not move the counter, so that observers hear them only
    /// at `refresh()`, which then reloads whatever the counter says; nil when every commit
    /// moves it, as SQLite's `data_version` does (each engine answers: `SQLiteStore`'s
    /// nil, the server's own).
    var unheardCommits: String? { get }

    /// Refuses a write (`save`, `updateall`, `deleteall`, `import`) that the program owning the file
    /// would not make as Quarry would make it; nothing has been written.
    func refuseUnfaithfulWrite(_ operation: String, in context: ObjectContext) throws
    /// Before anything is written (`operation`: a save, a batch change, an import), outside
    /// any transaction: what the store makes only for writing (a Core Data store's
    /// triggers), or a refusal of the operation, nothing written.
    func willWrite(_ operation: String, in context: ObjectContext) throws

    /// Whether a to-many relationship keeps an order in the store.
    func isOrdered(_ relationship: String, of entity: String) -> Bool
    /// `member` was just pointed at a new owner through a to-one relationship.
    func noteAddition(_ member: ManagedObject)
    /// Unsaved members of an ordered relationship, in the order they were added.
    func inAdditionOrder(_ members: [ManagedObject]) -> [ManagedObject]
    /// The saved members of `owner.name`, in the order the store keeps them.
    func inStoredOrder(_ saved: [ManagedObject], _ name: String, of owner: ManagedObject, context: ObjectContext) throws -> [ManagedObject]
    /// Refuses setting keys the store computes itself (a Core Data store's derived attributes).
    func refuseSetting(_ keys: some Sequence<String>, of entity: String, operation: String) throws

    /// What happened to the context's pending changes (a store that keeps what optimistic
    /// locking compares follows them).
    func pendingChanges(_ event: PendingChangeEvent, in context: ObjectContext)

    /// Before the save's transaction: what the store will write besides the rows, decided
    /// from the pending changes (nothing is written yet).
    func prepare(_ request: SaveChangesRequest, in context: ObjectContext) throws -> StoreSaveWork
    /// After the save committed and the objects took their new state.
    func didSave(in context: ObjectContext)
    /// An error SQLite raised while writing, in the model's names.
    func inModelNames(_ error: StoreError) -> StoreError

    /// Refuses defining or changing entities (`define`, `model()`) where the store's
    /// entities are another program's model; `whole` when a whole model is defined.
    func refuseDefining(_ entity: String, whole: Bool) throws
    /// Refuses a definition the store cannot keep as declared (names its database cannot
    /// hold, a kind of entity it does not make yet), before anything is checked or written.
    /// Each engine answers (a SQLite file holds every name: `SQLiteStore` refuses none).
    func refuse(_ definition: EntityDescription) throws
    /// The model file the store's entities were read from, when they were (a Core Data
    /// store's), for export, Swift and fetch request templates.
    var modelAsRead: CoreDataModel? { get }
    /// Whether the file is Quarry's own, so what Quarry chooses to keep is kept in it:
    /// `relate()` calls in its model, sub-entities' views and triggers, a key sequence
    /// (AUTOINCREMENT's `sqlite_sequence`), the index on `_entity`. A file Quarry did not
    /// create gains only what its user asks for (a table, rows): the rest lives in its
    /// sidecar or, remade at each open, in the connection's TEMP schema. Each store
    /// answers: none is assumed to be Quarry's.
    var isQuarrysFile: Bool { get }
    /// Whether a cascade's own delete rules act as soon as it deletes its rows, before the
    /// next rule of the row it came from (SQLite: its actions are triggers run at once),
    /// or after every rule of that row has acted (PostgreSQL: a cascade's deletes queue
    /// their keys' actions behind the ones already queued).
    var runsCascadesAtOnce: Bool { get }
    /// The fetch request templates `model()` kept with the store, in any order; on
    /// SQLite, Quarry's table (`SQLiteStore+QuarryTemplates`).
    func keptTemplates(context: ObjectContext) throws -> [CoreDataFetchRequest]
    /// Keeps `what` where reopening finds it again, each where the store keeps such things
    /// (`Keeping`); what a store does not keep, it ignores.
    func keep(_ what: Keeping, context: ObjectContext) throws
    /// `relate()` gave `table` a to-one (made now, or replayed from where it was kept):
    /// another program's table whose relationships now make a join table's shape becomes
    /// one (`ForeignFileStore+RelatedJoinTables`). Nothing for other stores.
    func didRelate(_ table: String, in context: ObjectContext)
    /// The format a column of another program's table is written in, declared or read
    /// from its values (`format(entity, column)`); nil where the store writes one encoding.
    func columnFormat(of entity: EntityDescription, _ attribute: AttributeDescription, context: ObjectContext) throws -> String?
    /// Refuses `format()` declaring `format` for a column (`original`, as the schema
    /// describes it) that the store's engine cannot read so (a server's typed columns);
    /// after the checks every store shares.
    func refuseFormat(_ format: ColumnFormat, of entity: EntityDescription, _ original: AttributeDescription, context: ObjectContext) throws
    /// For each entity `sql` reads whose rows the store lays out in tables of its own (a
    /// Core Data store's Z-tables), the SQL that reads them: what `explain` adds.
    func tableSQL(readBy sql: String) -> [(entity: String, sql: String)]
    /// Makes or migrates the tables of `entity` and of `changes` (entities that gain its
    /// inverses) and keeps their declarations in one transaction (after `refuseDefining`
    /// and the context's checks); returns the entities of the hierarchies it reshaped,
    /// which the context sees anew once it committed.
    func define(_ entity: EntityDescription, changes: [EntityDescription], context: ObjectContext) throws -> [String]
    /// Whether `name` is an entity Quarry defined in the store and keeps the declaration
    /// of (so it may be a parent, and be redefined with one). Each store answers: a SQLite
    /// file's stores by its rows' layout (`keepsQuarryLayout`), the server's by what it
    /// made.
    func keepsDeclaration(of name: String) -> Bool
    /// Writes `updateall` (after the context checked the values) in one transaction.
    func writeBatchUpdate(
        _ entity: EntityDescription, where filter: BatchFilter?, set assignments: [(String, Value)],
        context: ObjectContext
    ) throws -> BatchUpdateWritten
    /// Writes `deleteall` with the delete rules in one transaction; returns the rows
    /// deleted by their own entity.
    func writeBatchDelete(_ entity: EntityDescription, where filter: BatchFilter?, context: ObjectContext) throws -> [String: [Int64]]
    /// Loads an import's rows in one transaction (making `entity`'s table first when
    /// `creating`) and returns how many: by the engine's own path, a server's COPY
    /// (`PostgresImport`) or a SQLite file's inserts bound in C (`ImportRequest+SQLite`).
    func load(
        _ request: ImportRequest, _ table: ImportTable, check: [ColumnType]?, attributes: [AttributeDescription],
        defaults: [AttributeDescription], entity: EntityDescription, creating: Bool, context: ObjectContext,
        progress: ((Int, Int) -> Void)?
    ) throws -> Int
    /// The token of the latest transaction of the store's history (0 when there is none).
    func historyToken(context: ObjectContext) throws -> Int64
    /// The store's history after `since` (all when nil), optionally by one author, oldest first.
    func history(since: Int64?, author: String?, context: ObjectContext) throws -> [HistoryTransaction]
    /// Forgets the store's history up to and including `token`; returns how many transactions.
    func pruneHistory(through token: Int64, context: ObjectContext) throws -> Int
}

/// What happened to the context's pending changes (`PersistentStore.pendingChanges`).
package enum PendingChangeEvent {
    /// An object's pending changes began (or grew): note what optimistic locking compares.
    case changed(ManagedObject)
    /// An object has no pending change left.
    case unchanged(ManagedObject)
    /// The pending changes were saved or rolled back.
    case ended
    /// The context took in the store's current values (`refreshFromStore`).
    case refreshed
}

/// What a store keeps beyond the session (`PersistentStore.keep`).
package enum Keeping {
    /// `model()`'s fetch request templates, replacing any of the same name (Quarry's
    /// table in its own stores, another program's file's sidecar).
    case templates([CoreDataFetchRequest])
    /// A `relate()` call, replayed at the next open (another program's file's sidecar).
    case relation(ForeignSidecar.Relation)
    /// The relationship `relate()` just made between `from` and `to` (their definitions
    /// with it, the model's still without) through `column`, where the store keeps it in
    /// its model (`keepsRelationInModel`): both tables written with the indexes its joins
    /// use, in one transaction.
    case link(from: EntityDescription, to: EntityDescription, column: String, targetKey: String?)
    /// A `format()` declaration (another program's file's sidecar).
    case format(ForeignSidecar.Format)
}

/// What a store decided to write besides the rows, from `prepare` to the end of the save
/// (Core Data's: the ordered relationships whose positions it rewrites), kept for it by
/// the context, which does not look inside.
package struct StoreSaveWork {
    package var planned: Any?
    package init(planned: Any? = nil) { self.planned = planned }
}

/// What is the same for every store: rows by key through the dialect and the connection,
/// and the hooks of Core Data's bookkeeping, which no other store has (no refusal, no
/// ordering, no versions, nothing written besides the rows). Nothing here is one engine's
/// or one layout's behaviour: what is (`unheardCommits`, `refuse`, `isQuarrysFile`,
/// `keepsDeclaration`) each store answers itself.
extension PersistentStore {
    /// Read through the connection, 500 keys a query.
    package func rows(of entity: EntityDescription, keys: [Int64], context: ObjectContext) throws -> [Int64: [Value]] {
        var rows: [Int64: [Value]] = [:]
        let storage = context.mapped(entity)
        try forEachChunk(keys) { chunk in
            let sql = dialect.rowsByKey(storage.selection(of: entity), of: storage, count: chunk.count)
            for row in try context.connection.rows(sql, arguments: chunk.map(Value.integer)) {
                let values = row.map(\.storedForm)
                rows[try values.storedInteger(at: 0, table: entity.name, column: storage.keyColumn)] = values
            }
        }
        return rows
    }

    package func refuseUnfaithfulWrite(_ operation: String, in context: ObjectContext) throws {}
    package func willWrite(_ operation: String, in context: ObjectContext) throws {}
    package func isOrdered(_ relationship: String, of entity: String) -> Bool { false }
    package func refuseDefining(_ entity: String, whole: Bool) throws {}
    package func tableSQL(readBy sql: String) -> [(entity: String, sql: String)] { [] }
    package func columnFormat(of entity: EntityDescription, _ attribute: AttributeDescription, context: ObjectContext) throws -> String? { nil }
    package func refuseFormat(_ format: ColumnFormat, of entity: EntityDescription, _ original: AttributeDescription, context: ObjectContext) throws {
    }
    package var modelAsRead: CoreDataModel? { nil }
    package func noteAddition(_ member: ManagedObject) {}
    package func inAdditionOrder(_ members: [ManagedObject]) -> [ManagedObject] { members }
    package func inStoredOrder(_ saved: [ManagedObject], _ name: String, of owner: ManagedObject, context: ObjectContext) throws -> [ManagedObject] {
        saved
    }
    package func refuseSetting(_ keys: some Sequence<String>, of entity: String, operation: String) throws {}
    package func pendingChanges(_ event: PendingChangeEvent, in context: ObjectContext) {}
    package func prepare(_ request: SaveChangesRequest, in context: ObjectContext) throws -> StoreSaveWork { StoreSaveWork() }
    package func didSave(in context: ObjectContext) {}
    package func inModelNames(_ error: StoreError) -> StoreError { error }
}

extension PersistentStore {
    /// Whether `relate()` between `from` and `to` is kept in the store's own model (a
    /// store Quarry manages, both entities its own) rather than replayed at each open.
    package func keepsRelationInModel(_ from: EntityDescription, _ to: EntityDescription) -> Bool {
        isQuarrysFile && !mapping.storage(of: from).isForeign && !mapping.storage(of: to).isForeign
    }

    /// Whether rows laid out by `storage` are another program's table, whose to-many
    /// inverses toward Quarry's entities are derived from their declarations at each open
    /// and never kept with it.
    package func derivesInverses(for storage: EntityStorage) -> Bool { storage.isForeign }

    /// The same for the table `name` the store holds (an entity being defined for the
    /// first time is none).
    package func derivesInverses(of name: String) -> Bool { isOtherProgramsTable(name) && derivesInverses(for: mapping.storage(of: name)) }

    /// Whether `name` is another program's table (or view) the store holds: an entity it
    /// knows and keeps no declaration of. An entity being defined for the first time is
    /// none. Such a table gains a Quarry entity's inverses without being Quarry's to write.
    package func isOtherProgramsTable(_ name: String) -> Bool {
        managedObjectModel.entitiesByName[name] != nil && !keepsDeclaration(of: name)
    }
}
