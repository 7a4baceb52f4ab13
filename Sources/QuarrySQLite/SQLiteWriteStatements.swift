import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Statements inside GRDB's write transaction (`WriteStatements`).
struct SQLiteWriteStatements: WriteStatements {
    let db: Database

    package func rows(_ sql: String, _ arguments: [Value]) throws -> [[Value]] {
        try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue))).map { row in
            row.databaseValues.map(Value.init)
        }
    }

    package func run(_ sql: String, _ arguments: [Value]) throws {
        try db.execute(sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
    }
}
