import GRDB

/// The first statement of SQL a person wrote (`sql()`), prepared and not yet run, with
/// what a caller checks before running it: whether SQLite says it only reads, its
/// columns, the functions it calls, whether the arguments fit its parameters. Lent to
/// the body of `StoreConnection.prepareReadOnly` and valid only there.
public struct PreparedQuery {
    private let source: Source
    private enum Source {
        case sqlite(GRDB.Statement, Database)
        /// Described by the server inside a read-only transaction (`PostgresDescription`).
        case postgres(PostgresConnection, PostgresDescription)
    }
    /// Whether the text holds another statement after this one.
    public let isFollowedByAnother: Bool

    init(statement: GRDB.Statement, database: Database, isFollowedByAnother: Bool) {
        source = .sqlite(statement, database)
        self.isFollowedByAnother = isFollowedByAnother
    }

    init(postgres: PostgresConnection, description: PostgresDescription) {
        source = .postgres(postgres, description)
        isFollowedByAnother = description.isFollowedByAnother
    }

    /// Whether SQLite says the statement writes nothing (`sqlite3_stmt_readonly`); on
    /// PostgreSQL, the read-only transaction it runs in refuses any write, so it is.
    public var isReadOnly: Bool {
        switch source {
        case .sqlite(let statement, _): return statement.isReadonly
        case .postgres: return true
        }
    }

    /// The names of its result columns (none for a statement that returns no rows).
    public var columnNames: [String] {
        switch source {
        case .sqlite(let statement, _): return statement.columnNames
        case .postgres(_, let description): return description.columns
        }
    }

    /// The functions the statement calls, by name (lower case), each once (see
    /// `SQLFunctions.called`); none on PostgreSQL, whose read-only transaction refuses
    /// what a function would write.
    public func functionsCalled() throws -> [String] {
        switch source {
        case .sqlite(let statement, let database): return try SQLFunctions.called(by: statement, database)
        case .postgres: return []
        }
    }

    /// Whether `arguments` fit the statement's parameters (as many as it has `?`s).
    public func accepts(_ arguments: [Value]) -> Bool {
        switch source {
        case .sqlite(let statement, _): return (try? statement.validateArguments(StatementArguments(arguments.map(\.databaseValue)))) != nil
        case .postgres(_, let description): return arguments.count == description.parameters
        }
    }

    /// Runs the statement with `arguments` bound, lending each row to `body` (as
    /// `StoreConnection.forEachRow` does).
    public func forEachRow(arguments: [Value], _ body: (StoreRow) throws -> Void) throws {
        switch source {
        case .sqlite(let statement, _):
            try statement.setArguments(StatementArguments(arguments.map(\.databaseValue)))
            let cursor = try Row.fetchCursor(statement)
            let row = StoreRow(statement: Statement(handle: statement.sqliteStatement))
            while try cursor.next() != nil { try body(row) }
        case .postgres(let connection, let description):
            try connection.withRows(description.sql, numbered: true) { statement in
                statement.bind(values: arguments)
                let row = StoreRow(statement: statement)
                while try statement.step() { try body(row) }
            }
        }
    }
}

extension StoreConnection {
    /// Prepares the first statement of `sql` and hands it to `body` (nil when the text
    /// holds none), inside a read-only access: a transaction under `PRAGMA query_only`, so
    /// even a statement that passed every check could write nothing. The rest of the text
    /// is prepared too, to know whether it holds a second statement; none of it runs.
    /// On PostgreSQL the statement is described by the server (its columns and
    /// parameters) inside a `READ ONLY` transaction, which it runs in too and which is
    /// rolled back after.
    public func prepareReadOnly<T>(_ sql: String, _ body: (PreparedQuery?) throws -> T) throws -> T {
        if let postgres {
            if isClosed { throw StoreError.closed }
            return try postgres.inReadOnlyTransaction {
                guard let description = try postgres.describe(sql) else { return try body(nil) }
                return try body(PreparedQuery(postgres: postgres, description: description))
            }
        }
        try makeViews(readBy: sql)
        return try read { db in
            let statements = try db.allStatements(sql: sql)
            guard let statement = try statements.next() else { return try body(nil) }
            let another = try statements.next() != nil
            return try body(PreparedQuery(statement: statement, database: db, isFollowedByAnother: another))
        }
    }
}
