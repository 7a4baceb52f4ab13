import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Statements inside GRDB's write transaction (`WriteStatements`).
struct SQLiteWriteStatements: WriteStatements {
    let db: Database

    /// Read as `SQLiteCursor.value` reads a column, text that is not UTF-8 kept whole.
    package func rows(_ sql: String, _ arguments: [Value]) throws -> [[Value]] {
        try db.makeStatement(sql: sql).rows(SQLiteArguments(arguments))
    }

    package func run(_ sql: String, _ arguments: [Value]) throws {
        let bound = SQLiteArguments(arguments)
        // One statement when a text must be bound as its bytes; GRDB runs the others
        // (which may be several statements).
        if bound.bindsTexts {
            try db.makeStatement(sql: sql).execute(bound)
        } else {
            try db.execute(sql: sql, arguments: StatementArguments(bound.databaseValues))
        }
    }
}
