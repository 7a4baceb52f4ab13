import CQuarryRows
import CQuarrySignals
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

    /// A row at a time in flat memory, SQLite's fastest way out. Each cell is written as
    /// `QueryColumns` says `sql()`'s value of it is, read in place where that value is its
    /// bytes: plain UTF-8 text (`SQLiteCursor.value` decodes it whole) and a blob (text
    /// once read back from Lua) are written from SQLite's buffer, with no string made.
    package func exportRows(arguments: [Value], columns: QueryColumns, writer: inout TableWriter, file: OutputFile) throws -> Int {
        try statement.setArguments(SQLiteArguments(arguments))
        let rows = try Row.fetchCursor(statement)
        let cursor = SQLiteCursor(handle: statement.sqliteStatement)
        let width = Int32(columns.names.count)
        var count = 0
        while try rows.next() != nil {
            if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError.stopped() }
            try file.append { out in
                writer.beginRow(into: &out)
                for column in 0..<width { cursor.writeQueryCell(column, writer: &writer, into: &out) }
                writer.endRow(into: &out)
            }
            count += 1
        }
        return count
    }
}
