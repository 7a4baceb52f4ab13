import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A store whose rows are in a SQLite file (Quarry's own, another program's, Core
/// Data's): the points at which SQLite's writer (`SQLiteSaveWriter`), batch changes and
/// definitions ask it, inside their transaction on the file's database. Such a store
/// writes, defines and keeps its history through SQLite by the defaults below; a store
/// on another engine answers `PersistentStore` itself and is never asked these.
package protocol SQLiteStore: PersistentStore {
    /// A number that moves whenever another connection commits (SQLite's `data_version`).
    func outsideChangeCounter(in db: Database) throws -> Int
    /// The key of the row an INSERT into `entity` just made.
    func insertedKey(of entity: EntityDescription, in db: Database, session: StoreSession) throws -> Int64
    /// Whether a row changed in a way the values read cannot show (a version counter).
    func versionMoved(_ object: ManagedObject, in db: Database, session: StoreSession) throws -> Bool
    /// Inside the transaction, after rows were inserted and updated and links written,
    /// before rows are deleted (which this may still read).
    func willDeleteRows(
        _ request: SaveChangesRequest, _ work: inout StoreSaveWork, keys: SaveChangesRequest.Keys,
        in db: Database, session: StoreSession) throws
    /// Inside the transaction, after rows were deleted.
    func didWriteRows(
        _ request: SaveChangesRequest, _ work: StoreSaveWork, keys: SaveChangesRequest.Keys,
        in db: Database, session: StoreSession) throws

    /// Makes or migrates the tables of `entity` and of `changes` and keeps their
    /// declarations, inside the transaction that defines them (`define`); the default is
    /// Quarry's tables (`SQLiteStore+QuarryTables`).
    func writeDefinition(_ entity: EntityDescription, changes: [EntityDescription], in db: Database, session: StoreSession) throws -> [String]
    /// Makes ready to keep declarations, inside the transaction that defines entities and
    /// before their tables are made.
    func prepareDeclarations(in db: Database) throws
    /// Keeps an entity's declaration (`StoredDefinition` text), inside the transaction that
    /// defines it.
    func keepDeclaration(_ name: String, definition: String, in db: Database, session: StoreSession) throws

    /// Records a batch change or save in the store's own history, where it keeps one. The
    /// inserted and updated objects by entity and key (their IDs are `entity/key`): a save
    /// of 20,000 new objects made and then quoted 20,000 ID strings (5% of it).
    func recordHistory(
        inserted: [(entity: String, key: Int64)], updated: [(entity: String, key: Int64)], deleted: [String], in db: Database,
        session: StoreSession) throws
    /// Inside a batch delete, before rows of `entity` (their own entity) go: what the
    /// store's history keeps of each, by key (nothing when it keeps nothing).
    func keptAfterDeletion(of entity: String, keys: [Int64], in db: Database, session: StoreSession) throws -> [Int64: [Value]]
    /// Records a batch change (`updateall`, `deleteall`) in the store's history, inside
    /// its transaction: a refusal here writes nothing.
    func recordBatchChange(_ change: BatchChange, in db: Database, session: StoreSession) throws
    /// Runs an import's inserts into `entity` (`insert`, which returns how many rows),
    /// inside its transaction, recording the rows in the history the store keeps of
    /// every write (a Core Data store's persistent history, as a batch insert writes it).
    func recordingImport(into entity: EntityDescription, in db: Database, session: StoreSession, _ insert: () throws -> Int) throws -> Int
    /// The token of the latest transaction of the store's history (0 when there is none).
    func historyToken(in db: Database) throws -> Int64
    /// An error SQLite raised while writing, in the model's names (a Core Data store's
    /// Z-tables and columns said as its entities and attributes).
    func inModelNames(_ error: StoreError) -> StoreError
}

extension SQLiteStore {
    /// The tables are the model's: the error says its names already.
    package func inModelNames(_ error: StoreError) -> StoreError { error }
    /// An entity Quarry defined in the file is laid out as Quarry's own; the file's own
    /// tables and views, and a Core Data store's entities, are not.
    package func keepsQuarryLayout(_ name: String) -> Bool { !mapping.storage(of: name).isForeign }

    /// A file's tables Quarry did not make are entities too (none in a new file).
    package func didOpen(in session: StoreSession) throws { try ForeignSchemaReader(session: session).readTables() }

    /// Every store of a SQLite file writes through the same writer.
    package func write(_ request: SaveChangesRequest, _ work: StoreSaveWork, session: StoreSession) throws -> SaveChangesResult {
        try SQLiteSaveWriter(session: session, store: self).write(request, work)
    }

    package func outsideChangeCounter(session: StoreSession) throws -> Int { try session.connection.read { db in try outsideChangeCounter(in: db) } }
    package func historyToken(session: StoreSession) throws -> Int64 { try session.connection.read { db in try historyToken(in: db) } }

    package func outsideChangeCounter(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// In one transaction of the file's database, SQLite's errors said as the store's.
    package func define(_ entity: EntityDescription, changes: [EntityDescription], session: StoreSession) throws -> [String] {
        // An existing empty file becomes Quarry's with its first entity: WAL from then on.
        if session.managedObjectModel.entitiesByName.isEmpty, !session.isReadOnly {
            try SQLiteFileOpening.useWriteAheadLog(session.connection, store: self)
        }
        var touched: [String] = []
        do {
            try session.connection.database.write { db in touched = try writeDefinition(entity, changes: changes, in: db, session: session) }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
        return touched
    }

    package func batchChanges(session: StoreSession) throws -> any BatchChangeStatements { SQLiteBatchWriter(session: session, store: self) }

    package func prepareDeclarations(in db: Database) throws {}
    package func versionMoved(_ object: ManagedObject, in db: Database, session: StoreSession) throws -> Bool { false }
    package func willDeleteRows(
        _ request: SaveChangesRequest, _ work: inout StoreSaveWork, keys: SaveChangesRequest.Keys,
        in db: Database, session: StoreSession
    ) throws {
        try recordHistory(
            inserted: keys.inserted(request).map { ($0.0.entity.name, $0.1) }, updated: request.updatedRows,
            deleted: request.deletes.map(\.historyID), in: db, session: session)
    }
    package func didWriteRows(
        _ request: SaveChangesRequest, _ work: StoreSaveWork, keys: SaveChangesRequest.Keys,
        in db: Database, session: StoreSession
    ) throws {}
    package func recordHistory(
        inserted: [(entity: String, key: Int64)], updated: [(entity: String, key: Int64)], deleted: [String], in db: Database,
        session: StoreSession
    ) throws {}
    package func keptAfterDeletion(of entity: String, keys: [Int64], in db: Database, session: StoreSession) throws -> [Int64: [Value]] { [:] }
    package func recordBatchChange(_ change: BatchChange, in db: Database, session: StoreSession) throws {
        try recordHistory(inserted: [], updated: BatchChange.rows(change.updated), deleted: BatchChange.ids(change.deleted), in: db, session: session)
    }
    /// Quarry's history records saves and batch changes, as the contract says: an
    /// import's rows are not listed one by one.
    package func recordingImport(into entity: EntityDescription, in db: Database, session: StoreSession, _ insert: () throws -> Int) throws -> Int {
        try insert()
    }
    /// Quarry's history table, wherever it is.
    package func historyToken(in db: Database) throws -> Int64 { try QuarryHistory.lastToken(in: db) }
    package func history(since: Int64?, author: String?, session: StoreSession) throws -> [HistoryTransaction] {
        try session.connection.read { db in try QuarryHistory.transactions(since: since, author: author, in: db) }
    }
    package func pruneHistory(through token: Int64, session: StoreSession) throws -> Int {
        do {
            return try session.connection.database.write { db in try QuarryHistory.prune(through: token, in: db) }
        } catch let error as DatabaseError { throw StoreError(error) }
    }
}
