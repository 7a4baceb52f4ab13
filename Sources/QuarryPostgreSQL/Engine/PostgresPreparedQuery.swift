import QuarryEngine
import QuarryModel
import QuarryStore

/// PostgreSQL's `PreparedQuery`: a statement the server described (`PostgresDescription`)
/// inside the `READ ONLY` transaction of `prepareReadOnly`, which it runs in too.
struct PostgresPreparedQuery: PreparedQuery {
    package let connection: PostgresConnection
    package let description: PostgresDescription

    package var isFollowedByAnother: Bool { description.isFollowedByAnother }

    /// The read-only transaction it runs in refuses any write, so it is.
    package var isReadOnly: Bool { true }

    package var columnNames: [String] { description.columns }

    /// None: the read-only transaction refuses what a function would write.
    package func functionsCalled() throws -> [String] { [] }

    package func accepts(_ arguments: [Value]) -> Bool { arguments.count == description.parameters }

    package func forEachRow(arguments: [Value], _ body: (StoreRow) throws -> Void) throws {
        try connection.withRows(description.sql, numbered: true) { statement in
            statement.bind(values: arguments)
            let row = StoreRow(statement: statement)
            while try statement.step() { try body(row) }
        }
    }
}
