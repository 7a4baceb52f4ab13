import Foundation
import CQuarrySignals
import CQuarrySQLite
import GRDB
import GRDBSQLite

/// The one owner of a store's SQLite handle: opening (hardened, with the SQL functions
/// and limits every statement may need), the side files an open made, the checkpoint
/// policy, and closing. Every kind of store reads and writes through one of these; none
/// of them opens or closes a handle itself.
public final class StoreConnection {
    public let database: any DatabaseWriter
    public let isReadOnly: Bool
    /// Where the store lives; nil for an in-memory store.
    public let path: String?
    /// Where summarize()'s aggregate reports the rows it has read.
    public let summaryProgress: SummaryProgress
    /// What a Core Data store's triggers said about the values they wrote.
    public let triggerNotices: TriggerNoticeLog
    /// A Core Data store's binary values kept in files beside it (`ExternalBinaryData`).
    public let externalData: ExternalBinaryData
    /// Whether the file did not exist before this open (so Quarry made it).
    let createdByOpen: Bool
    /// The private copy read instead of a WAL store in a folder Quarry may not write.
    private let readOnlyCopy: ReadOnlyCopy?
    /// The `-wal`/`-shm` files the open made, removed at `close()` when empty and unused.
    private let sidecars: Sidecars?
    /// What the open had to say (a private copy was read): for stderr.
    let notes: [String]
    private(set) var isClosed = false
    /// Views the store described and SQL has not yet read (a Core Data store's).
    var deferredViews: DeferredViews?
    /// The server a PostgreSQL store's reads go to (`init(postgres:)`); nil for SQLite.
    let postgres: PostgresConnection?
    /// The PostgreSQL URL the store was opened with, its password left out.
    public let url: String?

    /// Opens (or creates) the database at `path`; nil or ":memory:" is an in-memory one.
    /// `functions` are SQL functions installed on the connection (the predicate layer's).
    init(path: String?, readOnly: Bool, functions: [SQLFunction]) throws {
        let summaryProgress = SummaryProgress()
        self.summaryProgress = summaryProgress
        let notices = TriggerNoticeLog()
        triggerNotices = notices
        let external = ExternalBinaryData(storePath: path)
        externalData = external
        let coreDataFunctions = CoreDataStore.sqlFunctions(noting: notices) + external.sqlFunctions
        var configuration = Configuration.hardened()
        configuration.prepareDatabase { db in
            if let sqlite = db.sqliteConnection { for function in functions { function.install(on: sqlite) } }
            // summarize()'s one-scan aggregate (C: it runs once per row and column).
            summaryProgress.install(on: db)
            // Ctrl-C and --timeout stop a long statement too, not only Lua code.
            sqlite3_progress_handler(db.sqliteConnection, 10_000, { _ in quarry_should_stop() }, nil)
            for function in coreDataFunctions { db.add(function: function) }
            db.add(transactionObserver: external, extent: .databaseLifetime)
            // Closing checkpoints a WAL into the file, changing its bytes: allowed only for
            // Quarry's own files and after a save (`allowCheckpointOnClose`).
            quarry_sqlite_checkpoint_on_close(db.sqliteConnection, 0)
        }
        configuration.readonly = readOnly
        postgres = nil
        url = nil
        configuration.busyMode = .timeout(5)
        configuration.label = "quarry"
        isReadOnly = readOnly
        do {
            if let path, path != ":memory:" {
                createdByOpen = !FileManager.default.fileExists(atPath: path)
                var opening = Self.openingPath(path, readOnly: readOnly)
                var copy: ReadOnlyCopy?
                if readOnly, let made = try ReadOnlyCopy.ifNeeded(for: path) {
                    copy = made
                    opening = made.path
                }
                readOnlyCopy = copy
                notes = copy.map { [$0.note(for: path)] } ?? []
                sidecars = opening == path ? Sidecars(database: path) : nil
                do {
                    database = try DatabaseQueue(path: opening, configuration: configuration)
                } catch {
                    sidecars?.closed()
                    readOnlyCopy?.remove()
                    throw error
                }
                self.path = path
            } else {
                createdByOpen = true
                readOnlyCopy = nil
                sidecars = nil
                notes = []
                database = try DatabaseQueue(configuration: configuration)
                self.path = nil
            }
            // Opening read the schema already (GRDB's format check), which proves the file is
            // a database before anything else is done.
        } catch let error as DatabaseError {
            let reason = StoreError(error).description
            throw StoreError.database(message: "cannot open \(path ?? ":memory:"): \(reason)" + (path.map { Self.openingHint($0, error) } ?? ""))
        }
    }

    /// A PostgreSQL store's connection: its reads (`readStatement`, and all built on it) go
    /// to the server. Its SQLite database is an empty one in memory that refuses every
    /// statement, so code that still reads SQLite directly fails and says so, never
    /// answering from an empty database.
    init(postgres: PostgresConnection, url: String, readOnly: Bool) throws {
        self.postgres = postgres
        self.url = url
        summaryProgress = SummaryProgress()
        triggerNotices = TriggerNoticeLog()
        externalData = ExternalBinaryData(storePath: nil)
        isReadOnly = readOnly
        path = nil
        createdByOpen = false
        readOnlyCopy = nil
        sidecars = nil
        notes = []
        var configuration = Configuration()
        configuration.label = "quarry-postgres"
        let queue = try DatabaseQueue(configuration: configuration)
        // After GRDB's own reads at opening.
        queue.inDatabase { db in _ = sqlite3_set_authorizer(db.sqliteConnection, { _, _, _, _, _, _ in SQLITE_DENY }, nil) }
        database = queue
    }

    /// The error for a read or write a PostgreSQL store cannot make yet.
    static func notOnPostgres(_ what: String = "this") -> StoreError {
        .database(message: "\(what) is not supported yet on a PostgreSQL store (it reads SQLite; see docs/postgresql.md)")
    }

    /// Closes the handle (every later read fails), and removes what a read-only open made
    /// beside the file.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        try? database.close()
        sidecars?.closed()
        readOnlyCopy?.remove()
    }

    deinit { close() }

    /// Runs a read, turning SQLite's errors into store errors. A view not yet made that
    /// the read names (`DeferredViews`) is made, and the read runs again.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if isClosed { throw StoreError.closed }
        if postgres != nil { throw Self.notOnPostgres() }
        while true {
            do { return try database.read(body) }
            catch let error as DatabaseError {
                guard try madeMissingView(error) else { throw StoreError(error) }
            }
        }
    }

    /// Makes the view `error` says SQLite missed ("no such table"), if it is one not yet
    /// made: whether it was, so the statement may be prepared again.
    func madeMissingView(_ error: DatabaseError) throws -> Bool {
        guard let views = deferredViews, let missing = error.missingTable else { return false }
        let statements = views.take(missingTable: missing)
        guard !statements.isEmpty else { return false }
        try makeViews(statements)
        return true
    }

    /// Makes the views not yet made that `sql` may read (`DeferredViews`).
    func makeViews(readBy sql: String) throws {
        guard let views = deferredViews, !views.isEmpty else { return }
        let statements = views.take(readBy: sql)
        if !statements.isEmpty { try makeViews(statements) }
    }

    /// Makes every view not yet made: before a write, whose triggers read them.
    func makeAllViews() throws {
        guard let views = deferredViews, !views.isEmpty else { return }
        try makeViews(views.takeAll())
    }

    private func makeViews(_ statements: [String]) throws {
        do {
            try database.writeWithoutTransaction { db in try db.executeDirectly(statements) }
        } catch let error as DatabaseError { throw StoreError(error) }
    }

    /// Lets closing checkpoint the WAL into the file: for Quarry's own files, and for any
    /// file once the user has saved into it.
    func allowCheckpointOnClose() {
        try? database.writeWithoutTransaction { db in _ = quarry_sqlite_checkpoint_on_close(db.sqliteConnection, 1) }
    }

    /// Quarry's own files use WAL with synchronous=NORMAL: a commit survives a crash of
    /// the process, readers never block the writer, and a power loss can cost at most the
    /// last commits, never consistency. The store decides whether the file is its own.
    func useWriteAheadLog() throws {
        guard let path, !isReadOnly else { return }
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
}
