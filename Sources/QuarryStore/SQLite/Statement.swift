import GRDB
import GRDBSQLite

/// One statement being stepped: a prepared SQLite statement lent by GRDB's statement
/// cache for one use (GRDB owns it and finalizes it), or the rows a PostgreSQL query
/// returned (`PostgresRows`), read the same way. The one place Swift binds, steps and
/// reads a raw statement. Every step's result code is checked here; a code other than a
/// row or done is thrown (as `StepFailure`, which `StoreConnection.readStatement` turns
/// into SQLite's message). Reads that go row by row without making GRDB rows (batches of
/// cells, export, keys) use it, so they read a PostgreSQL store's rows unchanged.
struct Statement {
    private let source: Source
    private enum Source {
        case sqlite(OpaquePointer)
        case postgres(PostgresRows)
    }

    init(handle: OpaquePointer) { source = .sqlite(handle) }
    init(rows: PostgresRows) { source = .postgres(rows) }

    /// The SQLite statement, nil for PostgreSQL's rows.
    var handle: OpaquePointer? {
        if case .sqlite(let handle) = source { return handle }
        return nil
    }

    /// A `sqlite3_step` result other than a row or done.
    struct StepFailure: Error { let code: Int32 }

    /// SQLite copies a value bound or returned with this destructor.
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds `values` to parameters 1... (SQLite copies texts and blobs).
    func bind(_ values: [DatabaseValue]) {
        guard case .sqlite(let handle) = source else {
            if case .postgres(let rows) = source { rows.bind(values.map(Value.init)) }
            return
        }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value.storage {
            case .null: sqlite3_bind_null(handle, index)
            case .int64(let v): sqlite3_bind_int64(handle, index, v)
            case .double(let v): sqlite3_bind_double(handle, index, v)
            case .string(let s): sqlite3_bind_text(handle, index, s, -1, Self.transient)
            case .blob(let data):
                _ = data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
        }
    }

    /// Binds Quarry's values to parameters 1...: as SQLite stores them, or as they are for
    /// PostgreSQL, which sends a date as a timestamp and a boolean as one.
    func bind(values: [Value]) {
        switch source {
        case .sqlite: bind(values.map(\.databaseValue))
        case .postgres(let rows): rows.bind(values)
        }
    }

    /// Binds integer keys to parameters 1...
    func bind<Keys: Collection>(keys: Keys) where Keys.Element == Int64 {
        switch source {
        case .sqlite(let handle): for (i, key) in keys.enumerated() { sqlite3_bind_int64(handle, Int32(i + 1), key) }
        case .postgres(let rows): rows.bind(keys.map(Value.integer))
        }
    }

    /// Steps to the next row: true at a row, false when the statement is done.
    func step() throws -> Bool {
        switch source {
        case .sqlite(let handle):
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW { return true }
            if code == SQLITE_DONE { return false }
            throw StepFailure(code: code)
        case .postgres(let rows): return try rows.step()
        }
    }

    var columnCount: Int {
        switch source {
        case .sqlite(let handle): return Int(sqlite3_column_count(handle))
        case .postgres(let rows): return rows.columnCount
        }
    }

    /// The storage class of `column` in the current row (`SQLITE_INTEGER`, ...).
    func type(_ column: Int32) -> Int32 {
        switch source {
        case .sqlite(let handle): return sqlite3_column_type(handle, column)
        case .postgres(let rows): return rows.type(column)
        }
    }

    func int64(_ column: Int32) -> Int64 {
        switch source {
        case .sqlite(let handle): return sqlite3_column_int64(handle, column)
        case .postgres(let rows): return rows.int64(column)
        }
    }

    func double(_ column: Int32) -> Double {
        switch source {
        case .sqlite(let handle): return sqlite3_column_double(handle, column)
        case .postgres(let rows): return rows.double(column)
        }
    }

    /// The column's text as bytes (valid until the next step).
    func text(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        switch source {
        case .sqlite(let handle):
            let start = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return UnsafeBufferPointer(start: count > 0 ? start : nil, count: count)
        case .postgres(let rows): return rows.bytes(column)
        }
    }

    /// The text of a PostgreSQL `numeric` in the current row; nil for SQLite's rows and any
    /// other value.
    func decimal(_ column: Int32) -> String? {
        if case .postgres(let rows) = source { return rows.decimal(column) }
        return nil
    }

    /// The column's blob (valid until the next step).
    func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        switch source {
        case .sqlite(let handle):
            let start = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count)
        case .postgres(let rows): return UnsafeRawBufferPointer(rows.bytes(column))
        }
    }
}

extension StoreConnection {
    /// The integers of the first `columns` columns of `sql`'s rows, row after row (keys,
    /// in the query's order).
    public func readKeys(_ sql: String, arguments: [Value], columns: Int32 = 1) throws -> [Int64] {
        var keys: [Int64] = []
        try forEachStatementRow(sql, arguments: arguments) { statement in
            for column in 0..<columns { keys.append(statement.int64(column)) }
        }
        return keys
    }

    /// Steps `sql`'s rows (`arguments` bound), handing the statement to `row` at each; an
    /// error `row` throws ends the stepping and comes out as it is.
    /// `streamed`: a PostgreSQL store's rows come a row at a time (`withStreamedRows`),
    /// not all at once; the connection runs nothing else until the last.
    func forEachStatementRow(_ sql: String, arguments: [Value], cached: Bool = true, streamed: Bool = false,
                             _ row: (Statement) throws -> Void) throws {
        if streamed, let postgres {
            if isClosed { throw StoreError.closed }
            return try postgres.withStreamedRows(sql) { statement in
                statement.bind(values: arguments)
                while try statement.step() { try row(statement) }
            }
        }
        try readStatement(sql, cached: cached) { statement in
            statement.bind(values: arguments)
            while try statement.step() { try row(statement) }
        }
    }

    /// Runs one statement outside any transaction (a single SELECT is consistent on its
    /// own), reset and with no bindings. `read` would wrap it in a savepoint and
    /// `PRAGMA query_only`, and that pragma expires every prepared statement, so each
    /// batch would compile its SQL again.
    func readStatement(_ sql: String, cached: Bool = true, _ body: (Statement) throws -> Void) throws {
        if isClosed { throw StoreError.closed }
        if let postgres { return try postgres.withRows(sql, body) }
        try makeViews(readBy: sql)
        while true {
            do {
                return try database.unsafeRead { db in try db.withStatement(sql, cached: cached, body) }
            } catch let error as DatabaseError {
                // A view the text did not show (SQLite misses it while preparing, before
                // `body` runs): made, and the statement prepared again.
                guard try madeMissingView(error) else { throw StoreError(error) }
            }
        }
    }
}

extension Database {
    /// `body` with `sql` as a `Statement` from GRDB's cache (or, not `cached`, prepared for
    /// this use alone: SQL that varies with each request need not stay in the cache), reset
    /// and with no bindings; a failed step comes out as SQLite's error for it.
    func withStatement<T>(_ sql: String, cached: Bool = true, _ body: (Statement) throws -> T) throws -> T {
        let prepared = cached ? try cachedStatement(sql: sql) : try makeStatement(sql: sql)
        return try withExtendedLifetime(prepared) {
            let handle = prepared.sqliteStatement
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            defer { sqlite3_reset(handle) }
            do { return try body(Statement(handle: handle)) } catch let failure as Statement.StepFailure {
                throw DatabaseError(resultCode: ResultCode(rawValue: failure.code), message: String(cString: sqlite3_errmsg(sqliteConnection)), sql: sql)
            }
        }
    }
}
