import GRDB
import QuarryModel

/// What a connection gives the code that reads a file's SQLite database directly (the
/// layouts that exist only on SQLite, the reads not yet written against the engine).
extension StoreConnection {
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
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if isClosed { throw StoreError.closed }
        guard let sqlite else { throw Self.needsEngine("SQLite") }
        return try sqlite.read(body)
    }
}

extension SQLiteEngine {
    /// The engine a store's connection opens at `path`, with what every statement may
    /// call: `functions` (the predicate layer's), summarize()'s aggregate, a Core Data
    /// store's functions (their notices kept in `notices`) and its external binary data,
    /// which hears the connection's transactions.
    static func opening(path: String?, readOnly: Bool, functions: [SQLFunction], summaryProgress: SummaryProgress,
                        notices: TriggerNoticeLog, externalData external: ExternalBinaryData) throws -> SQLiteEngine {
        let coreDataFunctions = CoreDataStore.sqlFunctions(noting: notices) + external.sqlFunctions
        return try SQLiteEngine(path: path, readOnly: readOnly) { db in
            if let handle = db.sqliteConnection { for function in functions { function.install(on: handle) } }
            // summarize()'s one-scan aggregate (C: it runs once per row and column).
            summaryProgress.install(on: db)
            for function in coreDataFunctions { db.add(function: function) }
            db.add(transactionObserver: external, extent: .databaseLifetime)
        }
    }
}
