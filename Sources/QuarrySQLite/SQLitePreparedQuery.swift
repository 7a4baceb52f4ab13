import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// SQLite's `PreparedQuery`: a statement GRDB prepared inside the read-only access of
/// `SQLiteEngine.prepareReadOnly`.
struct SQLitePreparedQuery: PreparedQuery {
    let statement: GRDB.Statement
    let database: Database
    package let isFollowedByAnother: Bool

    /// Whether SQLite says the statement writes nothing (`sqlite3_stmt_readonly`).
    package var isReadOnly: Bool { statement.isReadonly }

    package var columnNames: [String] { statement.columnNames }

    /// See `SQLFunctions.called`.
    package func functionsCalled() throws -> [String] { try SQLFunctions.called(by: statement, database) }

    package func accepts(_ arguments: [Value]) -> Bool {
        (try? statement.validateArguments(StatementArguments(arguments.map(\.databaseValue)))) != nil
    }

    package func forEachRow(arguments: [Value], _ body: (StoreRow) throws -> Void) throws {
        try statement.setArguments(SQLiteArguments(arguments))
        let cursor = try Row.fetchCursor(statement)
        let row = StoreRow(statement: SQLiteCursor(handle: statement.sqliteStatement))
        while try cursor.next() != nil { try body(row) }
    }
}
