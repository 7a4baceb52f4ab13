import Foundation
import QuarryEngine
import QuarryModel
import QuarryStore

/// The rows of one PostgreSQL query: the PostgreSQL engine's `RowCursor`, stepped and read
/// as a SQLite statement's are, so the reads above the connection (keys, batches of cells, rows as
/// values) read a PostgreSQL store unchanged. Each value is read by its column's type
/// (`PostgresValue`) and given the storage class SQLite would give it: integers and
/// booleans as integers, reals and timestamps (seconds since 1970) as reals, text, blobs
/// and `numeric` (its exact text; `value(_:)` gives it as a decimal) as bytes, valid until the next step as
/// SQLite's are.
///
/// The query runs at the first step or column count, with the arguments bound by then,
/// so the code that binds and steps a SQLite statement runs it unchanged. An error it
/// meets there comes out of the next step.
final class PostgresRows: RowCursor {
    /// Every row at once, or a row at a time (`PostgresRowStream`).
    package enum Rows {
        case whole(PostgresResult)
        case streamed(PostgresRowStream)
    }

    private let start: ([Value]) throws -> Rows
    private var arguments: [Value] = []
    private var started: Result<Rows, Error>?
    private var index = -1
    private var current: [Value]?
    /// The current row's text and blob bytes, by column.
    private var bytes: [Int32: UnsafeMutableBufferPointer<UInt8>] = [:]

    package init(run: @escaping ([Value]) throws -> PostgresResult) { start = { .whole(try run($0)) } }

    package init(stream: @escaping ([Value]) throws -> PostgresRowStream) { start = { .streamed(try stream($0)) } }

    deinit { freeBytes() }

    private func rows() throws -> Rows {
        if started == nil { started = Result { try start(arguments) } }
        guard let started else { throw StoreError.closed }
        return try started.get()
    }

    package func step() throws -> Bool {
        let rows = try rows()
        freeBytes()
        switch rows {
        case .whole(let result):
            index = min(index + 1, result.rows.count)
            current = index < result.rows.count ? result.rows[index] : nil
        case .streamed(let stream):
            current = try stream.next()
        }
        if datesAsText, let row = current { current = textDates(row) }
        return current != nil
    }

    package var columnCount: Int {
        switch try? rows() {
        case .whole(let result): return result.columns.count
        case .streamed(let stream): return stream.columns.count
        case nil: return 0
        }
    }

    /// Whether dates read as text (ISO 8601 in UTC, a `date` column's as its day), as a
    /// statement a person wrote shows them (`sql()`), rather than as the seconds Quarry's
    /// own reads take.
    var datesAsText = false

    private func raw(_ column: Int32) -> Value {
        guard let current, column >= 0, Int(column) < current.count else { return .null }
        return current[Int(column)]
    }

    /// `row` with its dates as text, converted once when the row is stepped to: a cell is
    /// read several times (its type, its value, its bytes), and writing a date's exact text
    /// is most of what printing a table of timestamps costs.
    private func textDates(_ row: [Value]) -> [Value] {
        guard row.contains(where: { if case .date = $0 { return true } else { return false } }) else { return row }
        let types: [UInt32]
        switch try? rows() {
        case .whole(let result): types = result.types
        case .streamed(let stream): types = stream.types
        case nil: types = []
        }
        return row.enumerated().map { column, value in
            guard case .date(let seconds) = value else { return value }
            // A `date` column's cell is a day, which reads as its midnight in UTC.
            if column < types.count && types[column] == PostgresValue.TypeOID.date { return .text(PostgresValue.day(seconds)) }
            return .text(Value.dateRange.contains(seconds) ? Value.exactISO8601(seconds) : PostgresValue.timestamp(seconds))
        }
    }

    package func type(_ column: Int32) -> CellType {
        switch raw(column) {
        case .null: return .null
        case .integer, .bool: return .integer
        case .real, .date: return .real
        case .text, .textBytes, .decimal: return .text
        case .blob: return .blob
        }
    }

    /// By the cell type SQLite would give the value (a boolean an integer, a timestamp
    /// seconds), a `numeric` exact whatever the column (a sum in `sql()` too).
    package func value(_ column: Int32) -> Value {
        switch raw(column) {
        case .null: return .null
        case .integer, .bool: return .integer(int64(column))
        case .real, .date: return .real(double(column))
        case .decimal(let text): return .decimal(text)
        case .text(let text): return .text(text)
        case .textBytes(let bytes): return .textBytes(bytes)
        case .blob(let bytes): return .blob(bytes)
        }
    }

    package func text(_ column: Int32) -> UnsafeBufferPointer<UInt8> { bytes(column) }

    package func blob(_ column: Int32) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(bytes(column)) }

    package func bind(values: [Value]) { arguments = values }

    /// The bytes of the row's texts and blobs, as they would be lent.
    package var valueBytes: Int {
        (0..<Int32(columnCount)).reduce(0) { total, column in
            switch raw(column) {
            case .text(let s), .decimal(let s): return total + s.utf8.count
            case .textBytes(let b), .blob(let b): return total + b.count
            default: return total
            }
        }
    }

    /// As SQLite converts: a real rounded toward zero (saturating), text read as a number.
    package func int64(_ column: Int32) -> Int64 {
        switch raw(column) {
        case .integer(let i): return i
        case .bool(let b): return b ? 1 : 0
        case .real(let d), .date(let d):
            guard !d.isNaN else { return 0 }
            return d >= 9.223372036854775807e18 ? .max : d <= -9.223372036854775808e18 ? .min : Int64(d)
        case .text(let s): return Int64(s.trimmingCharacters(in: .whitespaces)) ?? 0
        case .decimal(let s):
            let d = Double(s) ?? 0
            return d >= 9.223372036854775807e18 ? .max : d <= -9.223372036854775808e18 ? .min : Int64(d)
        case .null, .textBytes, .blob: return 0
        }
    }

    package func double(_ column: Int32) -> Double {
        switch raw(column) {
        case .integer(let i): return Double(i)
        case .bool(let b): return b ? 1 : 0
        case .real(let d), .date(let d): return d
        case .text(let s): return Double(s.trimmingCharacters(in: .whitespaces)) ?? 0
        case .decimal(let s): return Double(s) ?? 0
        case .null, .textBytes, .blob: return 0
        }
    }

    /// A text's UTF-8 bytes or a blob's, kept until the next step; empty for others.
    package func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        if let kept = bytes[column] { return UnsafeBufferPointer(kept) }
        let content: [UInt8]
        switch raw(column) {
        case .text(let s), .decimal(let s): content = Array(s.utf8)
        case .textBytes(let b), .blob(let b): content = b
        default: return UnsafeBufferPointer(start: nil, count: 0)
        }
        guard !content.isEmpty else { return UnsafeBufferPointer(start: nil, count: 0) }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: content.count)
        _ = copy.initialize(from: content)
        bytes[column] = copy
        return UnsafeBufferPointer(copy)
    }

    private func freeBytes() {
        for (_, kept) in bytes { kept.deallocate() }
        bytes = [:]
    }
}

extension PostgresConnection {
    /// `body` with `sql`'s rows as a `RowCursor` (its `?` placeholders numbered as
    /// PostgreSQL takes them); the query runs with what `body` binds, at its first step,
    /// placeholders left unbound taking NULL.
    package func withRows(_ sql: String, _ body: (any RowCursor) throws -> Void) throws {
        let (numbered, count) = PostgreSQLDialect.numbering(sql)
        let rows = PostgresRows { arguments in
            // Placeholders past the arguments are NULL, as SQLite leaves them unbound.
            let padded = arguments + Array(repeating: Value.null, count: max(0, count - arguments.count))
            do { return try self.execute(numbered, padded) } catch { throw Self.explained(error, sql: sql) }
        }
        try body(rows)
    }

    /// `body` with `sql`'s rows as `withRows` gives them, read from the server a row at a
    /// time (`PostgresRowStream`), so memory does not grow with the rows (an export).
    func withStreamedRows(_ sql: String, _ body: (any RowCursor) throws -> Void) throws {
        let (numbered, count) = PostgreSQLDialect.numbering(sql)
        let rows = PostgresRows(stream: { arguments in
            let padded = arguments + Array(repeating: Value.null, count: max(0, count - arguments.count))
            do { return try PostgresRowStream(self, sql: numbered, arguments: padded) } catch { throw Self.explained(error, sql: sql) }
        })
        try body(rows)
    }

    /// A server error that stands for something Quarry's SQL could not do, said as what
    /// the user wrote; any other error as it was.
    package static func explained(_ error: Error, sql: String?) -> Error {
        guard case StoreError.engine(let failure as PostgresFailure) = error else { return error }
        let (state, refused, message) = (failure.sqlState, failure.sql, failure.said)
        switch state {
        case "42883":
            // Which function is missing is read from the statement Quarry wrote (the one
            // refused, or the one it stands for), never from the server's words.
            return missingFunction(calledBy: refused ?? sql ?? "") ?? missingFunction(calledBy: sql ?? "")
                ?? StoreError.postgres(sqlState: state, sql: sql, message: message)
        default: return error
        }
    }

    /// What follows `marker` (a refusal the SQL casts to an integer) in the server's
    /// "invalid input syntax for type integer: "MARKER TEXT"", nil without it. By bytes:
    /// the text may start with a mark, which String search would join to the marker.
    package static func refused(_ marker: String, in message: String) -> String? {
        let bytes = Array(message.utf8)
        guard let found = bytes.firstRange(of: Array(marker.utf8)) else { return nil }
        var tail = Array(bytes[found.upperBound...])
        if tail.last == UInt8(ascii: "\"") { tail.removeLast() }
        return String(decoding: tail, as: UTF8.self)
    }

    /// The text `PostgresFold` refused while the statement ran.
    static func unfoldable(in message: String) -> StoreError? {
        guard let text = refused(PostgresFold.refusal, in: message) else { return nil }
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return .database(
            message: "[d] (or a localized sort) cannot compare '\(shown)' on PostgreSQL: it has combining marks after a letter outside "
                + "Latin, Greek and Cyrillic (or before any letter), which Quarry folds only in SQLite; compare it without [d], or in a SQLite copy")
    }

    /// What a query needed of the functions Quarry installs into SQLite, which a
    /// PostgreSQL store does not have yet: said as what the user wrote, not as the
    /// server's "function does not exist".
    /// (A string's `length` is not among them: the predicate refuses it by name where the
    /// dialect cannot count it, before any SQL is written.)
    static func missingFunction(calledBy sql: String) -> StoreError? {
        let needs: [(function: String, what: String)] = [
            ("quarry_fold", "[c], [d] and sorts that ignore case in a database that is not UTF8 or has no ICU collation (und-x-icu)"),
            (
                "quarry_string_op",
                "MATCHES with [c] or [d], MATCHES with anchors, classes or flags, LIKE against a key path, and string tests in a database that is not UTF8 or has no ICU"
            ),
            ("quarry_arith", "arithmetic of decimals, dates, text or booleans"),
            (
                "quarry_fn",
                "functions of decimals, dates or booleans, FUNCTION(), and lowercase:/uppercase: in a database that is not UTF8 or has no ICU"
            ),
            ("quarry_summary", "summarize()'s one-scan statistics")
        ]
        guard let need = needs.first(where: { sql.contains($0.function + "(") }) else { return nil }
        return .database(
            message:
                "a PostgreSQL store does not support \(need.what) yet: they run in Quarry's SQL functions, which only SQLite has (see docs/postgresql.md)"
        )
    }
}

/// A statement a person wrote (`sql()`), as the server describes it before it runs: the
/// text to run (its `?` numbered, unless it numbers its own `$1`), its result columns and
/// how many parameters it takes.
package struct PostgresDescription {
    package let sql: String
    package let columns: [String]
    let parameters: Int
    package let isFollowedByAnother: Bool
}

extension PostgresConnection {
    /// `body` inside `BEGIN READ ONLY`, rolled back after whatever happened: nothing the
    /// statement did (or tried) outlives it.
    func inReadOnlyTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN TRANSACTION READ ONLY")
        transactionDepth += 1
        defer {
            transactionDepth -= 1
            if !isLost { _ = try? execute("ROLLBACK") }
        }
        return try body()
    }

    /// The server's description of `sql` (prepared unnamed, not run); nil when the text
    /// holds no statement.
    package func describe(_ sql: String) throws -> PostgresDescription? {
        let text = sql.contains("$1") ? sql : PostgreSQLDialect.numbered(sql)
        let prepared: Prepared?
        do { prepared = try prepareUnnamed(text) } catch StoreError.engine(let failure as PostgresFailure)
            where text != sql && Self.namesParameter(failure.said)
        {
            // The server speaks of a `$1` the person never typed: a `?` of theirs (jsonb's
            // `?`, `?|`, `?&`) was taken as a placeholder.
            throw StoreError.postgres(
                sqlState: failure.sqlState, sql: failure.sql,
                message: failure.said
                    + " (each ? outside quotes was taken as a placeholder, $1, $2, ...: for jsonb's ? operators write "
                    + "jsonb_exists(doc, 'key'), jsonb_exists_any or jsonb_exists_all, or number the parameters $1, $2 yourself, "
                    + "which keeps every ? as written)")
        }
        switch prepared {
        case .none: return nil
        case .statement(let columns, let parameters):
            return PostgresDescription(sql: text, columns: columns, parameters: parameters, isFollowedByAnother: false)
        case .several:
            return PostgresDescription(sql: text, columns: [], parameters: 0, isFollowedByAnother: true)
        }
    }

    /// Whether the server's words name a parameter (`$1`).
    static func namesParameter(_ said: String) -> Bool {
        guard let dollar = said.firstIndex(of: "$") else { return false }
        return said[said.index(after: dollar)...].first?.isNumber == true
    }

    /// `body` with the rows of a text already numbered (`describe`'s), as `withRows`, its
    /// dates as text: the rows of a statement a person wrote (`sql()`).
    package func withRows(_ sql: String, numbered: Bool, _ body: (any RowCursor) throws -> Void) throws {
        guard numbered else { return try withRows(sql, body) }
        let rows = PostgresRows { arguments in try self.execute(sql, arguments) }
        rows.datesAsText = true
        try body(rows)
    }

    /// The same rows read a row at a time (`PostgresRowStream`): an export of a statement a
    /// person wrote, which holds one row at a time however many there are.
    func withStreamedRows(numbered sql: String, _ body: (any RowCursor) throws -> Void) throws {
        let rows = PostgresRows(stream: { arguments in try PostgresRowStream(self, sql: sql, arguments: arguments) })
        rows.datesAsText = true
        try body(rows)
    }
}
