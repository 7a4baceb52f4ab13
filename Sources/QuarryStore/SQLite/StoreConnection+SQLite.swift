import CQuarrySQLite
import GRDB
import GRDBSQLite

/// What a connection gives the code that reads a file's SQLite database directly (the
/// layouts that exist only on SQLite, the reads not yet written against the engine).
extension StoreConnection {
    /// The SQLite engine, nil on another.
    var sqlite: SQLiteEngine? {
        if case let .engine(sqlite) = sqliteAccess { return sqlite }
        return nil
    }

    /// The file's GRDB database. A store on another engine has none: it gets an empty one
    /// in memory that refuses every statement, so code that reads SQLite directly fails
    /// and says so, never answering from an empty database.
    public var database: any DatabaseWriter {
        switch sqliteAccess {
        case let .engine(sqlite): return sqlite.database
        case let .refusing(queue): return queue
        }
    }

    /// Runs a read of the SQLite database, turning SQLite's errors into store errors.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if isClosed { throw StoreError.closed }
        guard let sqlite else { throw Self.needsEngine("SQLite") }
        return try sqlite.read(body)
    }
}

/// SQLite's side of a connection (`StoreConnection.sqliteAccess`): the engine the store
/// lives in, or, for a store on another engine, an empty database that refuses every
/// statement.
enum SQLiteAccess {
    case engine(SQLiteEngine)
    case refusing(DatabaseQueue)

    /// An empty database in memory whose every statement is denied.
    static func refusingEveryStatement() throws -> SQLiteAccess {
        var configuration = Configuration()
        configuration.label = "quarry-no-sqlite"
        let queue = try DatabaseQueue(configuration: configuration)
        // After GRDB's own reads at opening.
        queue.inDatabase { db in _ = sqlite3_set_authorizer(db.sqliteConnection, { _, _, _, _, _, _ in SQLITE_DENY }, nil) }
        return .refusing(queue)
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
