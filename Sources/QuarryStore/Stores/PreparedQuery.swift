import GRDB

/// The first statement of SQL a person wrote (`sql()`), prepared and not yet run, with
/// what a caller checks before running it: whether SQLite says it only reads, its
/// columns, the functions it calls, whether the arguments fit its parameters. Lent to
/// the body of `StoreConnection.prepareReadOnly` and valid only there.
public struct PreparedQuery {
    let statement: GRDB.Statement
    let database: Database
    /// Whether the text holds another statement after this one.
    public let isFollowedByAnother: Bool

    /// Whether SQLite says the statement writes nothing (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool { statement.isReadonly }

    /// The names of its result columns (none for a statement that returns no rows).
    public var columnNames: [String] { statement.columnNames }

    /// The functions the statement calls, by name (lower case), each once (see
    /// `SQLFunctions.called`).
    public func functionsCalled() throws -> [String] { try SQLFunctions.called(by: statement, database) }

    /// Whether `arguments` fit the statement's parameters (as many as it has `?`s).
    public func accepts(_ arguments: [Value]) -> Bool {
        (try? statement.validateArguments(StatementArguments(arguments.map(\.databaseValue)))) != nil
    }

    /// Runs the statement with `arguments` bound, lending each row to `body` (as
    /// `StoreConnection.forEachRow` does).
    public func forEachRow(arguments: [Value], _ body: (StoreRow) throws -> Void) throws {
        try statement.setArguments(StatementArguments(arguments.map(\.databaseValue)))
        let cursor = try Row.fetchCursor(statement)
        let row = StoreRow(statement: Statement(handle: statement.sqliteStatement))
        while try cursor.next() != nil { try body(row) }
    }
}

extension StoreConnection {
    /// Prepares the first statement of `sql` and hands it to `body` (nil when the text
    /// holds none), inside a read-only access: a transaction under `PRAGMA query_only`, so
    /// even a statement that passed every check could write nothing. The rest of the text
    /// is prepared too, to know whether it holds a second statement; none of it runs.
    public func prepareReadOnly<T>(_ sql: String, _ body: (PreparedQuery?) throws -> T) throws -> T {
        try makeViews(readBy: sql)
        return try read { db in
            let statements = try db.allStatements(sql: sql)
            guard let statement = try statements.next() else { return try body(nil) }
            let another = try statements.next() != nil
            return try body(PreparedQuery(statement: statement, database: db, isFollowedByAnother: another))
        }
    }
}
