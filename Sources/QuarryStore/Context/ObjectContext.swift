import Foundation
import CQuarrySignals
import CQuarrySQLite
import GRDB
import GRDBSQLite

/// Core Data's managed object context over one SQLite database: the entities, the
/// objects registered once each (identity map), and the changes pending until `save()`.
public final class ObjectContext {
    public let database: any DatabaseWriter
    public let isReadOnly: Bool
    /// Where the store lives; nil for an in-memory store.
    public let path: String?

    var entitiesByName: [String: EntityDescription] = [:]
    /// Where each entity's rows are in the file: the only source of table and column
    /// names for the SQL this context and the layers above write.
    public internal(set) var mapping = StoreMapping()
    /// Quarry's own entities as declared (their own keys only; see `effective`), for
    /// entities in a hierarchy; `entitiesByName` holds them as objects and queries see them.
    var declaredByName: [String: EntityDescription] = [:]
    /// Formats the user declared for columns of a file Quarry did not create, by entity
    /// then column (see `ObjectContext+ColumnFormats`); for this session only.
    var declaredFormats: [String: [String: ColumnFormat]] = [:]
    /// Entity names in the order they were defined or found.
    var entityOrder: [String] = []

    /// One object per row in use.
    private var identityMap = IdentityMap()

    /// What is inserted, updated and deleted until the next save or rollback.
    var unsaved = PendingChanges()

    /// Increases on every save and rollback, so results know to re-run.
    public private(set) var generation = 0
    /// Increases on every unsaved change, so results that include them re-run.
    public private(set) var pendingGeneration = 0

    func bumpPendingGeneration(touching objects: ManagedObject...) {
        pendingGeneration += 1
        unsaved.touches.note(objects, at: pendingGeneration)
        stateMoved()
    }

    /// Called whenever `generation` or `pendingGeneration` moves: whoever keeps copies of
    /// values read from this context (the Lua layer's row cells) learns they may be stale.
    private var stateWatchers = Listeners<() -> Void>()

    /// Calls `watcher` whenever the context's objects may have changed; returns the id
    /// that `stopWatchingState` takes.
    public func watchState(_ watcher: @escaping () -> Void) -> Int {
        nextListenerID += 1
        stateWatchers.add(nextListenerID, watcher)
        return nextListenerID
    }

    /// Calls `watcher` when a commit by another connection has been noticed, before the
    /// objects in use are compared with the store: whoever holds rows that are not yet
    /// objects makes them now, from the values they were read with, so that the
    /// comparison (and the observers) see what changed in them.
    public func watchOutsideChanges(_ watcher: @escaping () -> Void) -> Int {
        nextListenerID += 1
        outsideChangeWatchers.add(nextListenerID, watcher)
        return nextListenerID
    }

    private var outsideChangeWatchers = Listeners<() -> Void>()

    func outsideChangeNoticed() { outsideChangeWatchers.forEach { $0() } }

    /// Ends a watch begun by `watchState` or `watchOutsideChanges`.
    public func stopWatchingState(_ id: Int) {
        stateWatchers.remove(id)
        outsideChangeWatchers.remove(id)
    }

    private func stateMoved() { stateWatchers.forEach { $0() } }

    /// Whether unsaved changes touch objects of this entity.
    public func hasPendingChanges(of entityName: String) -> Bool {
        // A sub-entity's objects are the entity's too.
        unsaved.contains { isKind($0.entity.name, of: entityName) }
    }

    var changeListeners = Listeners<(ChangeSet) -> Void>()
    /// Row hashes of the entities observers watch (see `watchRows`).
    var watchedRows: [String: RowHashes] = [:]
    /// Who the recorded transactions name as their author.
    public var author: String?
    var lastDataVersion: Int?
    var lastHistoryToken: Int64?
    /// Transactions this context recorded since `lastHistoryToken`.
    var ownHistoryTokens: Set<Int64> = []
    var nextListenerID = 0

    /// Related rows read ahead by prefetching and batch loading.
    var relatedRows = RelatedRows()
    /// Ordered relationships of a Core Data store (see `ObjectContext+CoreData`).
    var coreDataState = CoreDataBookkeeping()

    /// Opens (or creates) the store at `path`; nil or ":memory:" is an in-memory store.
    /// `functions` are SQL functions installed on the connection (the predicate layer's);
    /// `setUp` adds those that are C (the predicate layer's text functions).
    public init(path: String?, readOnly: Bool = false, functions: [DatabaseFunction] = [], setUp: ((Database) -> Void)? = nil,
                model: String? = nil) throws {
        modelPath = model
        let summaryProgress = SummaryProgress()
        self.summaryProgress = summaryProgress
        var configuration = Configuration.hardened()
        configuration.prepareDatabase { db in
            for function in functions { db.add(function: function) }
            setUp?(db)
            // summarize()'s one-scan aggregate (C: it runs once per row and column).
            summaryProgress.install(on: db)
            // Ctrl-C and --timeout stop a long statement too, not only Lua code.
            sqlite3_progress_handler(db.sqliteConnection, 10_000, { _ in quarry_should_stop() }, nil)
            for function in CoreDataStore.sqlFunctions { db.add(function: function) }
            // Closing checkpoints a WAL into the file, changing its bytes: allowed only for
            // Quarry's own files and after a save (`allowCheckpointOnClose`).
            quarry_sqlite_checkpoint_on_close(db.sqliteConnection, 0)
        }
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(5)
        configuration.label = "quarry"
        do {
            if let path, path != ":memory:" {
                createdByOpen = !FileManager.default.fileExists(atPath: path)
                var opening = Self.openingPath(path, readOnly: readOnly)
                if readOnly, let copy = try ReadOnlyCopy.ifNeeded(for: path) {
                    readOnlyCopy = copy
                    opening = copy.path
                    openingNotes.append(copy.note(for: path))
                }
                if opening == path { sidecars = Sidecars(database: path) }
                do {
                    database = try DatabaseQueue(path: opening, configuration: configuration)
                } catch {
                    sidecars?.closed()
                    readOnlyCopy?.remove()
                    throw error
                }
                self.path = path
            } else {
                database = try DatabaseQueue(configuration: configuration)
                self.path = nil
            }
            // Opening read the schema already (GRDB's format check), which proves the file is
            // a database before anything else is done.
        } catch let error as DatabaseError {
            let reason = StoreError(error).description
            throw StoreError.database(message: "cannot open \(path ?? ":memory:"): \(reason)" + (path.map { Self.openingHint($0, error) } ?? ""))
        }
        isReadOnly = readOnly
        try loadModel()
        try useWriteAheadLog(opening: true)
    }

    /// Where summarize()'s aggregate reports the rows it has read.
    public let summaryProgress: SummaryProgress

    /// The private copy read instead of a WAL store in a folder Quarry may not write.
    private var readOnlyCopy: ReadOnlyCopy?

    /// The Core Data store's layout, when the file is one.
    public internal(set) var coreData: CoreDataStore?
    /// The model file to read a Core Data store with when it carries none (`--model`).
    let modelPath: String?
    /// What the open had to say (a model inferred, parts of a model left out): for stderr.
    public internal(set) var openingNotes: [String] = []

    /// Whether the file did not exist before this open (so Quarry made it).
    private var createdByOpen = false
    /// Whether the file is one Quarry did not create (tables, no model of Quarry's, not
    /// Core Data): it gains no table of Quarry's, and its declarations live in `sidecar`.
    var isForeignFile = false
    /// The declarations kept beside a foreign file (`ForeignSidecar`).
    var sidecar = ForeignSidecar()
    /// The `-wal`/`-shm` files the open made, removed at `close()` when empty and unused.
    private var sidecars: Sidecars?
    /// Set while a batch of definitions is defined (`withDefinitionIndex`).
    var definitionIndex: DefinitionIndex?
    private(set) var isClosed = false

    /// Closes the connection (every later read fails), and removes what a read-only open
    /// made beside the file. Called at exit and when `.open` replaces the store.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        try? database.close()
        sidecars?.closed()
        readOnlyCopy?.remove()
    }

    deinit { close() }

    /// Lets closing checkpoint the WAL into the file: for Quarry's own files, and for any
    /// file once the user has saved into it.
    func allowCheckpointOnClose() {
        try? database.writeWithoutTransaction { db in _ = quarry_sqlite_checkpoint_on_close(db.sqliteConnection, 1) }
    }

    /// Quarry's own files (new ones, or ones holding its model) use WAL with
    /// synchronous=NORMAL: a commit survives a crash of the process, readers never block
    /// the writer, and a power loss can cost at most the last commits, never consistency.
    /// A file Quarry did not create keeps its journal mode: opening it writes nothing, an
    /// existing empty file included (it becomes Quarry's at its first entity).
    func useWriteAheadLog(opening: Bool = false) throws {
        guard let path, !isReadOnly else { return }
        let ours = try read { db in
            try db.hasTable(Self.modelTable)
                || ((!opening || createdByOpen) && Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0)
        }
        guard ours else { return }
        allowCheckpointOnClose()
        do {
            try database.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        } catch let error as DatabaseError {
            throw StoreError.database(message: "cannot open \(path): \(error.message ?? "\(error)")")
        }
    }

    /// The name SQLite opens. Reading a WAL file needs its `-shm` file next to it, which
    /// SQLite cannot make in a folder it may not write; `--readonly` there opens the file
    /// as immutable (no locks, no -shm), which is what reading a file nobody can write
    /// beside needs.
    static func openingPath(_ path: String, readOnly: Bool) -> String {
        let folder = Self.folder(of: path)
        guard readOnly, FileManager.default.fileExists(atPath: path), !FileManager.default.isWritableFile(atPath: folder),
              let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return path }
        return "file:\(encoded)?immutable=1"
    }

    /// The folder holding `path` ("." for a bare name). Done by hand: Foundation's
    /// `deletingLastPathComponent` stops the process on one-character paths on Linux.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// Why SQLite could not open `path`, when the file system says more than SQLite does.
    static func openingHint(_ path: String, _ error: DatabaseError) -> String {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return " (it is a directory)" }
        let folder = Self.folder(of: path)
        if !files.fileExists(atPath: folder) { return " (the folder \(folder) does not exist)" }
        if error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN, !files.isWritableFile(atPath: folder) {
            return " (the folder \(folder) is not writable, and SQLite needs to make its -wal and -shm files there)"
        }
        return ""
    }

    // MARK: Entities

    public var entities: [EntityDescription] { entityOrder.compactMap { entitiesByName[$0] } }

    public func entity(named name: String) throws -> EntityDescription {
        if let entity = entitiesByName[name] { return entity }
        throw StoreError.unknownEntity(name: name, suggestion: closestMatch(to: name, in: entityOrder))
    }

    // MARK: Objects

    /// Inserts a new object; values are type-checked now, required ones at save.
    public func insert(into entityName: String, values: [String: Value]) throws -> ManagedObject {
        let entity = try entity(named: entityName)
        if mapped(entity).isView { throw StoreError.viewIsReadOnly(entity: entity.name) }
        if entity.isAbstract {
            throw StoreError.validation(message: "\(entity.name) is abstract: it makes no objects (make one of its sub-entities)")
        }
        var initial: [String: Value] = [:]
        for attribute in entity.attributes { initial[attribute.name] = attribute.defaultValue ?? .null }
        let object = ManagedObject(entity: entity, primaryKey: nil, temporaryNumber: unsaved.takeTemporaryNumber(),
                                   committed: [:], context: self)
        object.pending = initial
        object.isInserted = true
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try object.setValue(value, forKey: key)
        }
        unsaved.inserted.append(object)
        bumpPendingGeneration(touching: object)
        return object
    }

    /// Marks one object deleted, without delete rules; the row goes at the next save.
    func markDeleted(_ object: ManagedObject) {
        guard object.context === self, !object.isDeleted else { return }
        bumpPendingGeneration(touching: object)
        unsaved.links.removeAll { $0.source === object || $0.target === object }
        if object.isInserted {
            unsaved.inserted.removeAll { $0 === object }
            object.isInserted = false
            object.isDeleted = true
            object.context = nil
            return
        }
        object.isDeleted = true
        unsaved.updated[ObjectIdentifier(object)] = nil
        unsaved.deleted[ObjectIdentifier(object)] = object
        noteCoreDataVersion(object)
    }

    func noteChanged(_ object: ManagedObject) {
        bumpPendingGeneration(touching: object)
        guard !object.isInserted, !object.isDeleted else { return }
        let id = ObjectIdentifier(object)
        unsaved.updated[id] = object.pending.isEmpty && object.pendingToOne.isEmpty ? nil : object
        if unsaved.updated[id] != nil { noteCoreDataVersion(object) } else { forgetCoreDataVersion(object) }
    }

    /// The unsaved changes, for `.changes`.
    public var pendingChanges: (inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        (unsaved.inserted, unsaved.updated.values.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) },
         unsaved.deleted.values.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) })
    }

    public var hasChanges: Bool {
        !unsaved.isEmpty
    }

    /// The object for a fetched row: the registered one when the row is already in use
    /// (its unsaved changes kept), a new one otherwise. Columns: key, then attributes.
    public func object(for entity: EntityDescription, row: Row) throws -> ManagedObject {
        let primaryKey: Int64 = try row.stored(0, table: entity.name, column: mapped(entity).keyColumn)
        if let existing = registeredObject(entity: entity.name, primaryKey: primaryKey) { return existing }
        return try object(for: entity, values: Array(row.databaseValues))
    }

    /// The same for a row read as values (see `RowBatch`).
    public func object(for entity: EntityDescription, values: [DatabaseValue]) throws -> ManagedObject {
        // A foreign file's key column may hold anything (a WITHOUT ROWID table's INTEGER
        // PRIMARY KEY is no rowid alias): such a row cannot be an object.
        guard case .int64(let primaryKey)? = values.first?.storage else {
            throw StoreError.database(message: "\(entity.name).\(mapped(entity).keyColumn) holds \(values.first.map { "\($0)" } ?? "nothing") where an integer key is expected")
        }
        if let existing = registeredObject(entity: entity.name, primaryKey: primaryKey) { return existing }
        // A row of a parent's results that is a sub-entity's is made as that entity, read
        // through its own view, so one row is one object whatever it was fetched as.
        if hasSubentities(entity.name), let own = try rowEntity(of: entity, primaryKey: primaryKey), own.name != entity.name {
            if let mapped = self.values(values, of: entity, as: own) { return try object(for: own, values: mapped) }
            let sql = "SELECT \(mapped(own).selection(of: own)) FROM \(mapped(own).table) WHERE \(mapped(own).key) = ?"
            if let row = try read({ db in try Row.fetchOne(db, sql: sql, arguments: [primaryKey]) }) {
                return try object(for: own, values: Array(row.databaseValues))
            }
        }
        let object = ManagedObject(entity: entity, primaryKey: primaryKey, row: values, context: self)
        register(object)
        return object
    }

    /// The object already registered for a row, if any (no query). Rows of one hierarchy
    /// share their root's keys, so they are registered under the root.
    public func registeredObject(entity: String, primaryKey: Int64) -> ManagedObject? {
        identityMap.object(root: rootName(of: entity), key: primaryKey)
    }

    /// One entity's registrations (their objects may be gone): its hierarchy's.
    func registrations(of entity: String) -> [Int64: IdentityMap.WeakObject]? { identityMap.registrations(root: rootName(of: entity)) }

    /// The object with this primary key, registered once like any fetched object.
    public func object(entityName: String, primaryKey: Int64) throws -> ManagedObject? {
        let entity = try entity(named: entityName)
        let sql = "SELECT \(mapped(entity).selection(of: entity)) FROM \(mapped(entity).table) WHERE \(mapped(entity).key) = ?"
        guard let row = try read({ db in try Row.fetchOne(db, sql: sql, arguments: [primaryKey]) }) else { return nil }
        return try object(for: entity, row: row)
    }

    /// The rows of `entity` with these keys, by key, in its layout (`selection(of:)`),
    /// read 500 keys a query; keys with no row are left out.
    func storedRows(of entity: EntityDescription, keys: [Int64]) throws -> [Int64: Row] {
        var rows: [Int64: Row] = [:]
        let storage = mapped(entity)
        try forEachChunk(keys) { chunk in
            let sql = "SELECT \(storage.selection(of: entity)) FROM \(storage.table) WHERE \(storage.key) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
            for row in try read({ db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)) }) {
                rows[try row.stored(0, table: entity.name, column: storage.keyColumn)] = row
            }
        }
        return rows
    }

    func register(_ object: ManagedObject) {
        guard let primaryKey = object.primaryKey else { return }
        identityMap.register(object, root: rootName(of: object.entity.name), key: primaryKey)
    }

    func unregister(_ object: ManagedObject) {
        guard let primaryKey = object.primaryKey else { return }
        identityMap.unregister(root: rootName(of: object.entity.name), key: primaryKey)
    }

    /// The keys of the objects in use, by entity, in order.
    func registeredKeysByEntity() -> [String: [Int64]] { identityMap.keysByEntity() }

    /// Forgets registrations whose objects are gone.
    func pruneRegistrations() { identityMap.prune() }

    /// Runs a read against the store, turning SQLite's errors into store errors.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        if isClosed { throw StoreError.closed }
        do { return try database.read(body) }
        catch let error as DatabaseError { throw StoreError(error) }
    }

    func bumpGeneration() {
        generation += 1
        unsaved.touches.restart(at: pendingGeneration)
        stateMoved()
    }
}

extension ObjectContext {
    /// Where `entity`'s rows are in the file (see `StoreMapping`).
    public func mapped(_ entity: EntityDescription) -> EntityStorage { mapping.storage(of: entity) }
}
