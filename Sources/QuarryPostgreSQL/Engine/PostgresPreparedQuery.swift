import CQuarrySignals
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

    package func accepts(_ arguments: [Value]) -> Bool { arguments.count == description.parameters }

    package func forEachRow(arguments: [Value], _ body: (StoreRow) throws -> Void) throws {
        try connection.withRows(description.sql, numbered: true) { statement in
            statement.bind(values: arguments)
            let row = StoreRow(statement: statement)
            while try statement.step() { try body(row) }
        }
    }

    /// Through COPY where it can (`PostgresCopyQueryExport`); otherwise the rows a row at a
    /// time (libpq's single-row mode), each value as `sql()` reads it: never every row at once.
    package func exportRows(arguments: [Value], columns: QueryColumns, writer: inout TableWriter, file: OutputFile) throws -> Int {
        if arguments.isEmpty, description.parameters == 0,
            let count = try connection.copyQueryExport(description.sql, columns: columns, writer: &writer, file: file)
        {
            return count
        }
        var count = 0
        try connection.withStreamedRows(numbered: description.sql) { statement in
            statement.bind(values: arguments)
            while try statement.step() {
                if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError.stopped() }
                try file.append { out in columns.writeRow(of: statement, writer: &writer, into: &out) }
                count += 1
            }
        }
        return count
    }
}
