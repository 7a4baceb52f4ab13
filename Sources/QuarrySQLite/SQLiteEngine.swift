import CQuarrySQLite
import CQuarrySignals
import Foundation
import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// SQLite as a store's engine (`StoreEngine`), and the one owner of a file's SQLite
/// handle: opening (hardened, with the SQL functions and limits every statement may
/// need), the side files an open made, the views made when first read, the checkpoint
/// policy, and closing. No store opens or closes a handle itself.
package final class SQLiteEngine: StoreEngine {
    let database: any DatabaseWriter
    /// The keys the connection learned of rows without a rowid (`KeyNumber`).
    var keyNumbers: KeyNumbers?
    package let isReadOnly: Bool
    /// Where the database lives; nil for one in memory.
    let path: String?
    /// What SQLite opened: `path`, its private copy, or a URI reading it immutable.
    let opened: String?
    /// The private copy read instead of a WAL store in a folder Quarry may not write.
    private let readOnlyCopy: ReadOnlyCopy?
    /// The `-wal`/`-shm` files the open made, removed at `close()` when empty and unused.
    private let sidecars: Sidecars?
    /// What the open had to say (a private copy was read): for stderr.
    let notes: [String]
    private(set) var isClosed = false
    /// Views the store described and SQL has not yet read (a Core Data store's).
    package var deferredViews: DeferredViews?
    /// Where summarize()'s aggregate reports the rows it has read.
    let summaryProgress: SummaryProgress
    /// What each layout's `ConnectionExtension` keeps for this connection, in their order.
    package let extensionStates: [AnyObject]
    /// The functions those extensions install, which `sql()` may call.
    let extensionFunctions: [String]

    /// Opens (or creates) the database at `path`; nil or ":memory:" is an in-memory one.
    /// `prepare` runs on the handle before anything else (the SQL functions every
    /// statement may call, observers of its transactions).
    init(
        path: String?, readOnly: Bool, summaryProgress: SummaryProgress, extensionStates: [AnyObject],
        extensionFunctions: [String] = [], prepare: @escaping (Database) -> Void
    ) throws {
        self.summaryProgress = summaryProgress
        self.extensionStates = extensionStates
        self.extensionFunctions = extensionFunctions
        var configuration = Configuration.hardened()
        // GRDB asks for a Sendable closure, as a pool may open connections on its own
        // threads; a `DatabaseQueue` (below) opens its one connection inside this init,
        // so `prepare` runs once, here, and never beside another call.
        nonisolated(unsafe) let prepare = prepare
        configuration.prepareDatabase { db in
            prepare(db)
            // Ctrl-C and --timeout stop a long statement too, not only Lua code.
            sqlite3_progress_handler(db.sqliteConnection, 10_000, { _ in quarry_should_stop() }, nil)
            // Closing checkpoints a WAL into the file, changing its bytes: allowed only for
            // Quarry's own files and after a save (`allowCheckpointOnClose`).
            quarry_sqlite_checkpoint_on_close(db.sqliteConnection, 0)
        }
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(5)
        configuration.label = "quarry"
        isReadOnly = readOnly
        do {
            if let path, path != ":memory:" {
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
                opened = opening
            } else {
                readOnlyCopy = nil
                sidecars = nil
                notes = []
                database = try DatabaseQueue(configuration: configuration)
                self.path = nil
                opened = nil
            }
            // Opening read the schema already (GRDB's format check), which proves the file is
            // a database before anything else is done.
        } catch let error as DatabaseError {
            let reason = StoreError(error).description
            throw StoreError.database(
                message: "cannot open \(path ?? ":memory:"): \(reason)" + (path.map { Self.openingHint($0, error, readOnly: readOnly) } ?? ""))
        }
    }

    package var description: String { "SQLite" }

    package func didSave() { allowCheckpointOnClose() }

    package func clockValue(_ clock: String, as type: AttributeType) -> Value? {
        (try? read { db in ForeignColumnDefault.now(clock, as: type, in: db) }) ?? nil
    }

    package func refusalBeforeCompiling(_ sql: String) -> String? { SQLPragmas.refusal(in: sql) }

    package func allowsCall(to function: String) -> Bool { SQLFunctions.allowed(storeOwn: extensionFunctions).contains(function) }

    /// Closes the handle (every later read fails), and removes what a read-only open made
    /// beside the file.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        try? database.close()
        sidecars?.closed()
        readOnlyCopy?.remove()
    }

    deinit { close() }

    /// One statement outside any transaction (a single SELECT is consistent on its own).
    /// `read` would wrap it in a savepoint and `PRAGMA query_only`, and that pragma expires
    /// every prepared statement, so each batch would compile its SQL again. SQLite's rows
    /// always come a row at a time, streamed or not.
    package func withRows(_ sql: String, cached: Bool, streamed: Bool, _ body: (any QuarryEngine.RowCursor) throws -> Void) throws {
        try makeViews(readBy: sql)
        while true {
            do {
                return try database.unsafeRead { db in try db.withStatement(sql, cached: cached, body) }
            } catch let error as DatabaseError {
                // A view the text did not show (SQLite misses it while preparing, before
                // `body` runs): made, and the statement prepared again.
                guard try madeMissingView(error) else { throw StoreError(error) }
            }
        }
    }

    /// Inside a read-only access: a transaction under `PRAGMA query_only`, so even a
    /// statement that passed every check could write nothing. The rest of the text is
    /// prepared too, to know whether it holds a second statement; none of it runs.
    package func prepareReadOnly<T>(_ sql: String, _ body: ((any PreparedQuery)?) throws -> T) throws -> T {
        try makeViews(readBy: sql)
        // A person's statement leaves the connection as it found it (`KeyNumbers.learns`).
        keyNumbers?.learns = false
        defer { keyNumbers?.learns = true }
        return try read { db in
            let statements = try db.allStatements(sql: sql)
            guard let statement = try statements.next() else { return try body(nil) }
            let another = try statements.next() != nil
            return try body(SQLitePreparedQuery(statement: statement, database: db, isFollowedByAnother: another))
        }
    }

    /// The file's own text for the table and what belongs to it (`sqlite_master`), as the
    /// sqlite3 shell's `.schema` shows it: the table first, then its indexes and triggers.
    package func definition(of relation: String, in schema: String?) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type <> 'table', name",
                arguments: [relation])
        }
    }

    /// Runs a read, turning SQLite's errors into store errors. A view not yet made that
    /// the read names (`DeferredViews`) is made, and the read runs again.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        while true {
            do { return try database.read(body) } catch let error as DatabaseError {
                guard try madeMissingView(error) else { throw StoreError(error) }
            }
        }
    }

    /// Makes the view `error` says SQLite missed ("no such table"), if it is one not yet
    /// made: whether it was, so the statement may be prepared again.
    func madeMissingView(_ error: DatabaseError) throws -> Bool {
        guard let views = deferredViews, let missing = error.missingTable else { return false }
        let makings = views.take(missingTable: missing)
        guard !makings.isEmpty else { return false }
        try makeViews(makings)
        return true
    }

    /// Identifiers that read SQLite's schema: SQL naming any of them makes every view
    /// (`DeferredViews`).
    package static let schemaReaders: Set<String> = [
        "sqlite_temp_master", "sqlite_temp_schema", "sqlite_master", "sqlite_schema",
        "pragma_table_list", "pragma_table_info", "pragma_table_xinfo", "table_list", "table_info", "table_xinfo"
    ]

    /// Makes the views not yet made that `sql` may read (`DeferredViews`).
    func makeViews(readBy sql: String) throws {
        guard let views = deferredViews, !views.isEmpty else { return }
        let makings = views.take(readBy: sql, schemaReaders: Self.schemaReaders)
        if !makings.isEmpty { try makeViews(makings) }
    }

    /// Makes every view not yet made: before a write, whose triggers read them.
    func makeAllViews() throws {
        guard let views = deferredViews, !views.isEmpty else { return }
        try makeViews(views.takeAll())
    }

    /// Makes `makings`; when one fails (Ctrl-C, say), those not
    /// made are pending again (`DeferredViews.restoreTaken`).
    private func makeViews(_ makings: [DeferredViews.Making]) throws {
        do {
            try database.writeWithoutTransaction { db in
                for making in makings { try db.executeDirectly(making) }
            }
        } catch let error as DatabaseError {
            deferredViews?.restoreTaken()
            throw StoreError(error)
        } catch {
            deferredViews?.restoreTaken()
            throw error
        }
    }

    /// Lets closing checkpoint the WAL into the file: for Quarry's own files, and for any
    /// file once the user has saved into it.
    func allowCheckpointOnClose() {
        database.writeWithoutTransaction { db in _ = quarry_sqlite_checkpoint_on_close(db.sqliteConnection, 1) }
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
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
        else { return path }
        return "file:\(encoded)?immutable=1"
    }

    /// The folder holding `path` ("." for a bare name). Done by hand: Foundation's
    /// `deletingLastPathComponent` stops the process on one-character paths on Linux.
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// Why SQLite could not open `path`, when the file system says more than SQLite does.
    static func openingHint(_ path: String, _ error: DatabaseError, readOnly: Bool) -> String {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return " (it is a directory)" }
        // A data file given where a database goes (`quarry spend.csv`): the way to read it.
        let kind = (path as NSString).pathExtension.lowercased()
        if error.resultCode == .SQLITE_NOTADB, ["csv", "tsv", "json", "txt"].contains(kind) {
            let name = (path as NSString).lastPathComponent.replacingOccurrences(of: "'", with: "")
            return " (a \(kind.uppercased()) file is read into a store: quarry data.sqlite -e 'import(\"\(name)\")', "
                + "or import(\"\(name)\") at the prompt)"
        }
        let folder = Self.folder(of: path)
        if !files.fileExists(atPath: folder) { return " (the folder \(folder) does not exist)" }
        if error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN, !files.isWritableFile(atPath: folder) {
            // No file to read, or one this user cannot read: the folder is all there is to say.
            guard files.fileExists(atPath: path) else { return " (the folder \(folder) is not writable, so no file can be made there)" }
            guard files.isReadableFile(atPath: path) else { return " (the file is not readable, and the folder \(folder) is not writable)" }
            // Read only, the file is read without them (`ReadOnlyCopy`): the way to say.
            return " (the folder \(folder) is not writable, and SQLite needs to make its -wal and -shm files there"
                + (readOnly ? ")" : "; --readonly reads the file without them)")
        }
        return ""
    }
}
