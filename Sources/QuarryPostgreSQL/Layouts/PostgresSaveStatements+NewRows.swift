import QuarryModel
import QuarryStore

/// New rows on the server, many at once: one multi-row `INSERT ... RETURNING` for each run
/// of consecutive rows writing the same columns (objects leaving out the same defaults,
/// issue 60 item 7), all of a save's run sent in one pipeline. A row at a time, 20,000
/// new objects waited for the server 20,000 times (6.4 s, where one multi-row INSERT of
/// the same rows takes 0.15 s).
///
/// A refusal is said as the refused row alone would have it: the statements go behind a
/// savepoint, and when one is refused the run is rolled back to it and written again a
/// row at a time, each as `insert(_:_:toOne:keys:)` writes it, so the first row refused
/// throws its own error (a numeric overflow names its column and value, a constraint its
/// row). The save's transaction then rolls back: nothing is written.
extension PostgresSaveStatements {
    package var insertBatch: Int { Self.newRowsAtOnce }

    /// Rows of one save sent in one pipeline; each statement holds at most
    /// `rowsPerStatement` of them.
    static let newRowsAtOnce = 10_000
    /// Rows of one INSERT: within the server's 65,535 parameters, and a statement small
    /// enough to parse at once.
    static func rowsPerStatement(columns: Int) -> Int { max(1, min(1_000, 65_535 / max(columns, 1))) }

    /// The savepoint a run of new rows is written behind.
    private static let savepoint = "quarry_new_rows"

    package mutating func insert(_ rows: [NewRow], keys: SaveChangesRequest.Keys) throws -> [Int64] {
        guard rows.count > 1 else {
            return try rows.map { try insert($0.object, $0.entity, toOne: $0.toOne, keys: keys) }
        }
        try sendUpdates()
        // Each row's columns and values; a row refused before anything is sent (text that
        // is not UTF-8) is refused after the rows before it, as it would be alone.
        var written: [(names: [String], values: [Value])] = []
        written.reserveCapacity(rows.count)
        var refused: Error?
        for row in rows {
            do { written.append(try newRowValues(row, keys: keys)) } catch {
                refused = error
                break
            }
        }
        let sending = Array(rows.prefix(written.count))
        let statements = Self.statements(sending.map(\.entity.name), written.map(\.names))
        var sent: [(sql: String, arguments: [Value])] = [("SAVEPOINT " + Self.savepoint, [])]
        for statement in statements {
            let entity = sending[statement.lowerBound].entity
            let sql = PostgreSQLDialect.numbered(insertSQL(entity, written[statement.lowerBound].names, rows: statement.count))
            sent.append((sql, written[statement].flatMap(\.values)))
        }
        var given: [Int64] = []
        given.reserveCapacity(sending.count)
        do {
            let results = try server.pipelined(sent)
            let returned = zip(statements, results.dropFirst())
            // A trigger that dropped a row (a BEFORE trigger returning NULL): what each row
            // alone makes of it.
            guard returned.allSatisfy({ $0.0.count == $0.1.rows.count }) else { throw RowsNotReturned() }
            // Released only now: a run to write again needs it.
            _ = try server.execute("RELEASE SAVEPOINT " + Self.savepoint)
            // Each statement's rows come back in the order of its VALUES.
            for (statement, result) in returned {
                for (i, row) in zip(statement, result.rows) {
                    given.append(try tookRow(row, sending[i].object, sending[i].entity, sent: written[i].values))
                }
            }
        } catch let failure as PostgresConnection.PipelineFailure {
            guard (failure.error as? StoreError)?.interruption == nil, !server.isLost else { throw failure.error }
            given = try alone(sending, keys: keys)
        } catch is RowsNotReturned {
            given = try alone(sending, keys: keys)
        }
        if let refused { throw refused }
        return given
    }

    /// A statement returned another count of rows than it wrote.
    private struct RowsNotReturned: Error {}

    /// The run written again a row at a time, after the savepoint it was written behind
    /// (rolled back to here): the first row refused throws as it would alone.
    private mutating func alone(_ rows: [NewRow], keys: SaveChangesRequest.Keys) throws -> [Int64] {
        _ = try server.execute("ROLLBACK TO SAVEPOINT " + Self.savepoint)
        let given = try rows.map { try insert($0.object, $0.entity, toOne: $0.toOne, keys: keys) }
        _ = try server.execute("RELEASE SAVEPOINT " + Self.savepoint)
        return given
    }

    /// The rows of each statement (indices into the rows): consecutive rows of one entity
    /// writing the same columns, at most `rowsPerStatement` of them; a row writing no
    /// column (the table's defaults) is a statement of its own. Consecutive only, so rows
    /// are written, and given their keys, in the order the objects were made.
    static func statements(_ entities: [String], _ names: [[String]]) -> [Range<Int>] {
        var statements: [Range<Int>] = []
        var start = 0
        for i in entities.indices.dropFirst() {
            let limit = names[start].isEmpty ? 1 : rowsPerStatement(columns: names[start].count)
            if entities[i] != entities[start] || names[i] != names[start] || i - start >= limit {
                statements.append(start..<i)
                start = i
            }
        }
        if !entities.isEmpty { statements.append(start..<entities.count) }
        return statements
    }
}
