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
        try sendWaiting()
        // Each row's columns and values, made a statement at a time as the pipeline sends
        // them (`Batch`); a row refused before anything is sent (text that is not UTF-8) is
        // refused after the rows before it, as it would be alone.
        var batch = Batch(rows: rows, writer: self, keys: keys)
        var savepoint = true
        var given: [Int64] = []
        given.reserveCapacity(rows.count)
        do {
            let results = try server.pipelined(flushingEach: true) {
                if savepoint {
                    savepoint = false
                    return ("SAVEPOINT " + Self.savepoint, [])
                }
                return batch.nextStatement()
            }
            let returned = zip(batch.statements, results.dropFirst())
            // A trigger that dropped a row (a BEFORE trigger returning NULL): what each row
            // alone makes of it.
            guard returned.allSatisfy({ $0.0.count == $0.1.rows.count }) else { throw RowsNotReturned() }
            // Released only now: a run to write again needs it.
            _ = try server.execute("RELEASE SAVEPOINT " + Self.savepoint)
            // Each statement's rows come back in the order of its VALUES.
            for (statement, result) in returned {
                for (i, row) in zip(statement, result.rows) {
                    given.append(try tookRow(row, rows[i].object, rows[i].entity, sent: batch.written[i].values))
                }
            }
        } catch let failure as PostgresConnection.PipelineFailure {
            guard (failure.error as? StoreError)?.interruption == nil, !server.isLost else { throw failure.error }
            // Sending stopped at the failing statement: the rows after it are made too, so
            // every row up to a refused one is written again, as before any was sent.
            batch.makeRest()
            given = try alone(Array(rows.prefix(batch.written.count)), keys: keys)
        } catch is RowsNotReturned {
            given = try alone(Array(rows.prefix(batch.written.count)), keys: keys)
        }
        if let refused = batch.refused { throw refused }
        return given
    }

    /// A run of new rows made into statements one at a time: consecutive rows of one
    /// entity writing the same columns, at most `rowsPerStatement` of them; a row writing
    /// no column (the table's defaults) is a statement of its own. Consecutive only, so
    /// rows are written, and given their keys, in the order the objects were made.
    private struct Batch {
        let rows: [NewRow]
        let writer: PostgresSaveStatements
        let keys: SaveChangesRequest.Keys
        /// The rows made so far (one past the last statement's, when a row ended it).
        var written: [(names: [String], values: [Value])] = []
        /// The rows of each statement made so far (indices into `rows`).
        var statements: [Range<Int>] = []
        /// The first row refused; no row after it is made.
        var refused: Error?
        /// The storage of the entity of the row made last.
        private var storage: (entity: String, storage: EntityStorage)?
        /// The last statement's SQL and what it was made for: a run's full statements are
        /// alike (making and numbering 1,000 rows' placeholders for each was 3% of a save
        /// of 20,000 new objects).
        private var lastSQL: (entity: String, names: [String], rows: Int, sql: String)?

        init(rows: [NewRow], writer: PostgresSaveStatements, keys: SaveChangesRequest.Keys) {
            (self.rows, self.writer, self.keys) = (rows, writer, keys)
            written.reserveCapacity(rows.count)
        }

        /// Makes row `i`'s columns and values; false when it is refused.
        private mutating func make(_ i: Int) -> Bool {
            guard refused == nil else { return false }
            let entity = rows[i].entity
            if storage?.entity != entity.name { storage = (entity.name, writer.session.mapped(entity)) }
            do { written.append(try writer.newRowValues(rows[i], keys: keys, storage: storage?.storage)) } catch {
                refused = error
                return false
            }
            return true
        }

        /// Makes every row not made yet, up to the first refused.
        mutating func makeRest() {
            while written.count < rows.count, make(written.count) {}
        }

        /// The next statement's SQL and values, nil after the last.
        mutating func nextStatement() -> (sql: String, arguments: [Value])? {
            let start = statements.last?.upperBound ?? 0
            guard start < rows.count, start < written.count || make(start) else { return nil }
            let (entity, names) = (rows[start].entity, written[start].names)
            let limit = names.isEmpty ? 1 : rowsPerStatement(columns: names.count)
            var end = start + 1
            while end - start < limit, end < rows.count, end < written.count || make(end),
                rows[end].entity.name == entity.name, written[end].names == names
            {
                end += 1
            }
            statements.append(start..<end)
            let sql: String
            if let last = lastSQL, last.entity == entity.name, last.rows == end - start, last.names == names {
                sql = last.sql
            } else {
                sql = PostgreSQLDialect.numbered(writer.insertSQL(entity, names, rows: end - start))
                lastSQL = (entity.name, names, end - start, sql)
            }
            var values: [Value] = []
            values.reserveCapacity((end - start) * names.count)
            for i in start..<end { values += written[i].values }
            return (sql, values)
        }
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
}
