import CQuarrySQLite
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// What a connection gives the code that reads a file's SQLite database directly (the
/// layouts that exist only on SQLite, the reads not yet written against the engine).
extension StoreConnection {
    /// Opens (or creates) the SQLite database at `path`; nil or ":memory:" is an in-memory
    /// one. Every statement may call `functions` (the predicate layer's), summarize()'s
    /// aggregate, and what each of `extensions` installs.
    package static func openingSQLite(
        path: String?, readOnly: Bool, functions: [SQLFunction], extensions: [SQLiteEngine.ConnectionExtension] = []
    ) throws -> StoreConnection {
        let summaryProgress = SummaryProgress()
        let prepared = extensions.map { $0.prepare(path) }
        let keyNumbers = KeyNumbers()
        let sqlite = try SQLiteEngine(
            path: path, readOnly: readOnly, summaryProgress: summaryProgress,
            extensionStates: prepared.map(\.state), extensionFunctions: extensions.flatMap(\.functionNames)
        ) { db in
            if let handle = db.sqliteConnection {
                for function in functions { function.install(on: handle) }
                // The numbers of rows of tables without a rowid (`KeyNumber`).
                KeyNumber.install(on: handle, known: keyNumbers)
                // ISO text read as a date (`SQLiteDialect.converted`, `.looseDate`).
                quarry_sqlite_add_date_functions(handle)
            }
            // summarize()'s one-scan aggregate (C: it runs once per row and column).
            summaryProgress.install(on: db)
            for layout in prepared { layout.install(db) }
        }
        sqlite.keyNumbers = keyNumbers
        return StoreConnection(engine: sqlite, readOnly: readOnly, path: sqlite.path, notes: sqlite.notes)
    }

    /// The SQLite engine; nil on another engine.
    package var sqlite: SQLiteEngine? { engine as? SQLiteEngine }

    /// The file's GRDB database, for the stores that exist only on SQLite. A store on
    /// another engine has none: asking is refused and says so, never answering from an
    /// empty database.
    public var database: any DatabaseWriter {
        get throws {
            guard let sqlite else { throw Self.needsEngine("SQLite") }
            return sqlite.database
        }
    }

    /// Runs a read of the SQLite database, turning SQLite's errors into store errors.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        if isClosed { throw StoreError.closed }
        guard let sqlite else { throw Self.needsEngine("SQLite") }
        return try sqlite.read(body)
    }

    /// Makes the views not yet made that `sql` may read (`DeferredViews`).
    package func makeViews(readBy sql: String) throws { try sqlite?.makeViews(readBy: sql) }

    /// Makes every view not yet made: before a write, whose triggers read them.
    package func makeAllViews() throws { try sqlite?.makeAllViews() }

    /// Quarry's own files use WAL (`SQLiteEngine.useWriteAheadLog`).
    func useWriteAheadLog() throws { try sqlite?.useWriteAheadLog() }
}

extension SQLiteEngine {
    /// What a layout above the engine installs on every SQLite connection: a file may be
    /// a Core Data store whoever opens it, so its triggers' functions and its external
    /// data must be there from the first statement. Given to every opening by the registry
    /// (`OpenFileRequest`), which knows the layouts.
    package struct ConnectionExtension: Sendable {
        /// The functions it installs, which `sql()` may call.
        package let functionNames: [String]
        /// For a connection to `path`: what the layout keeps for it (found again in
        /// `extensionStates`), and what it installs on the handle.
        package let prepare: @Sendable (_ path: String?) -> (state: AnyObject, install: (Database) -> Void)

        package init(functionNames: [String], prepare: @escaping @Sendable (_ path: String?) -> (state: AnyObject, install: (Database) -> Void)) {
            self.functionNames = functionNames
            self.prepare = prepare
        }
    }
}
