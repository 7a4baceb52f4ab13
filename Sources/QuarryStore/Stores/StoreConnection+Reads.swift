import QuarryEngine
import QuarryModel

/// The reads the layers above the store make, in Quarry's own values: the SQL they write
/// goes through the connection, which alone knows the database library, so another kind
/// of store answers the same calls. Arguments are bound to the statement's `?`, never
/// written into its text.
///
/// Each read is one statement run outside any transaction (a single SELECT is consistent
/// on its own), as `readKeys` runs: a transaction would add statements to every read, and
/// its `PRAGMA query_only` would expire every prepared statement, so a cached one would
/// compile again each time. SQL a person wrote runs through `prepareReadOnly` instead.
extension StoreConnection {
    /// Steps the rows of `sql`, lending each to `body` (see `StoreRow`: valid only there).
    /// No array or object is made per row. `cached`: the statement is kept prepared for the
    /// next call with the same text (for SQL asked again and again, such as a read by key).
    /// An error `body` throws ends the stepping and comes out as it is. `body` must not read
    /// the store itself: the connection is busy with this statement until it returns.
    public func forEachRow(_ sql: String, arguments: [Value] = [], cached: Bool = false, _ body: (StoreRow) throws -> Void) throws {
        try forEachStatementRow(sql, arguments: arguments, cached: cached) { statement in try body(StoreRow(statement: statement)) }
    }

    /// Every row of `sql`, each as its values in column order.
    public func rows(_ sql: String, arguments: [Value] = []) throws -> [[Value]] {
        var rows: [[Value]] = []
        try forEachRow(sql, arguments: arguments) { row in rows.append(row.values) }
        return rows
    }

    /// The first row of `sql` (nil when there is none); the statement stops there.
    public func row(_ sql: String, arguments: [Value] = [], cached: Bool = false) throws -> [Value]? {
        var first: [Value]?
        try readStatement(sql, cached: cached) { statement in
            statement.bind(values: arguments)
            if try statement.step() { first = StoreRow(statement: statement).values }
        }
        return first
    }

    /// The integers of the first `columns` columns of `sql`'s rows, row after row (keys,
    /// in the query's order).
    public func readKeys(_ sql: String, arguments: [Value], columns: Int32 = 1) throws -> [Int64] {
        var keys: [Int64] = []
        try forEachStatementRow(sql, arguments: arguments) { statement in
            for column in 0..<columns { keys.append(statement.int64(column)) }
        }
        return keys
    }

    /// Steps `sql`'s rows (`arguments` bound), handing the cursor to `row` at each; an
    /// error `row` throws ends the stepping and comes out as it is. `streamed`: rows come a
    /// row at a time however many there are (`StoreEngine.withRows`).
    func forEachStatementRow(
        _ sql: String, arguments: [Value], cached: Bool = true, streamed: Bool = false,
        _ row: (any RowCursor) throws -> Void
    ) throws {
        try readStatement(sql, cached: cached, streamed: streamed) { statement in
            statement.bind(values: arguments)
            while try statement.step() { try row(statement) }
        }
    }

    /// `body` with `sql`'s rows, reset and with nothing bound (`StoreEngine.withRows`).
    func readStatement(_ sql: String, cached: Bool = true, streamed: Bool = false, _ body: (any RowCursor) throws -> Void) throws {
        if isClosed { throw StoreError.closed }
        try engine.withRows(sql, cached: cached, streamed: streamed, body)
    }

    /// Prepares the first statement of `sql` and hands it to `body` (nil when the text
    /// holds none), inside an access in which it can write nothing, however it passed the
    /// checks (`StoreEngine.prepareReadOnly`).
    public func prepareReadOnly<T>(_ sql: String, _ body: ((any PreparedQuery)?) throws -> T) throws -> T {
        if isClosed { throw StoreError.closed }
        return try engine.prepareReadOnly(sql, body)
    }

    /// The first column of the first row of `sql`: nil when there is no row, `.null` when
    /// the value is NULL.
    package func summarize(_ scan: SummaryScan, progress: ((Int) -> Void)?) throws -> SummaryScanResult? {
        if isClosed { throw StoreError.closed }
        return try engine.summarize(scan, progress: progress)
    }

    public func scalar(_ sql: String, arguments: [Value] = []) throws -> Value? {
        try row(sql, arguments: arguments)?.first
    }
}

extension StoreRow {
    /// Every value of the row, in column order.
    public var values: [Value] { (0..<count).map { value(at: $0) } }
}
