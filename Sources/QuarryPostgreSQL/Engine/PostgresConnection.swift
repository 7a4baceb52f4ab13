import CQuarryPQ
import CQuarrySignals
import Foundation
import QuarryModel
import QuarryStore

/// One connection to a PostgreSQL server through libpq, the library psql uses; it owns
/// its `PGconn` and closes it when released. Synchronous, as Quarry's single thread is:
/// each call sends a statement and waits for its whole result. Arguments are always
/// bound (`$1`, `$2`, ... in the SQL), never spliced into it.
public final class PostgresConnection {
    let pq: UnsafePointer<QuarryPQ>
    package let handle: OpaquePointer
    /// The schema whose writes this session announces at commit (`announce`).
    var announcedSchema: String?
    /// How deep in `inWriteTransaction` calls the session is (0: outside a write).
    var writeDepth = 0
    /// How many transactions of Quarry's are open (a write, a read-only `sql()`, the
    /// session's own setup): a lost connection is made again only outside them
    /// (`PostgresConnection+Reconnect`), never between a BEGIN and its end.
    var transactionDepth = 0
    /// What the session set up that lives as long as its connection (settings, LISTEN,
    /// temporary views), run again on a new one.
    var sessionSetup: [SessionStep] = []
    /// How many times the connection was made again: commits made meanwhile were not
    /// heard, so each counts as news for observers (`PostgresStore.outsideChangeCounter`).
    package var reconnections = 0
    /// How many statements were started (each passes `reestablishIfLost` first): what
    /// reads the catalog again only after the session did something (a redefined view,
    /// `PostgresStore+RedefinedViews`) sends nothing while the REPL waits idle.
    package var statementsStarted = 0
    /// Set while the session is being set up again, whose statements probe nothing.
    var reestablishing = false
    /// Says `reconnectingNote` (`reestablishIfLost`); nil says nothing.
    package var sayLoss: ((String) -> Void)?
    /// Whether the loss being made good was said: once for each loss, however many tries
    /// the server takes to answer again.
    var lossSaid = false
    /// Whether the last write transaction broke with its connection before COMMIT was
    /// sent: nothing of it was written, so it may run again (`PostgresStore.write`).
    package var lostBeforeCommit = false

    /// Connects to `url` (`postgres://user@host:port/db`, or any libpq connection string).
    public init(url: String) throws {
        var why = [CChar](repeating: 0, count: 512)
        guard let pq = quarry_pq_load(&why, why.count) else {
            throw StoreError.postgres(
                sqlState: nil, sql: nil, message: String(decoding: why.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
        guard let connectdb = pq.pointee.connectdb, let status = pq.pointee.status, let finish = pq.pointee.finish,
            let handle = connectdb(url)
        else {
            throw StoreError.postgres(sqlState: nil, sql: nil, message: "cannot connect: out of memory")
        }
        guard status(handle) == CONNECTION_OK else {
            let message = Self.text(pq.pointee.errorMessage?(handle)) ?? "cannot connect"
            finish(handle)
            throw StoreError.postgres(sqlState: nil, sql: nil, message: message)
        }
        self.pq = pq
        self.handle = handle
        quarry_pq_quiet(pq, handle)
        // The formats PostgresValue reads, whatever the server's or the role's defaults:
        // ISO dates in UTC, bytea as hex, floats with every digit, UTF-8 text; and no
        // NOTICE (libpq would print "relation already exists, skipping" on stderr).
        // One statement: the extended protocol takes no more.
        try executeForSession(
            """
            SELECT set_config('DateStyle', 'ISO, YMD', false), set_config('TimeZone', 'UTC', false),
                   set_config('IntervalStyle', 'postgres', false), set_config('bytea_output', 'hex', false),
                   set_config('extra_float_digits', '3', false), set_config('client_encoding', 'UTF8', false),
                   set_config('client_min_messages', 'warning', false)
            """)
    }

    deinit { pq.pointee.finish?(handle) }

    /// Whether the session was ended on purpose (`close`): every later statement is refused.
    package private(set) var isClosed = false

    /// Ends the session with the server now (`.open` of another store): the socket is shut
    /// down, so the server's backend ends at once, not when the last Lua value that holds
    /// this store is collected (`deinit` then frees libpq's connection). libpq's connection
    /// is kept until then, since a stream or a result may still hold it; nothing is sent on
    /// it again (`send` and `reestablishIfLost` refuse).
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        if let socket { _ = shutdown(socket, Int32(SHUT_RDWR)) }
    }

    /// The server's version as a number (150018 for 15.18).
    public var serverVersion: Int { Int(pq.pointee.serverVersion?(handle) ?? 0) }

    /// Runs `sql` with `arguments` bound to `$1`, `$2`, ... (their types left to the server
    /// to infer, as psql's `\bind` does) and returns every row, each column converted by
    /// its type (`PostgresValue`).
    ///
    /// It waits for the result as a SQLite statement's progress handler watches: when
    /// Ctrl-C or `--timeout` asks to stop, the server is asked to cancel the statement (a
    /// lock wait included), and its answer comes back as the result.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [Value] = []) throws -> PostgresResult {
        guard let clear = pq.pointee.clear, pq.pointee.getResult != nil else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "libpq was not loaded")
        }
        try send(sql, arguments)
        waitWhileBusy()
        guard let result = lastResult() else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: failure(or: "no result"))
        }
        defer { clear(result) }
        if cancelled, pq.pointee.resultStatus?(result) == PGRES_FATAL_ERROR {
            // Ctrl-C or --timeout, as SQLite's interrupted statement says it.
            throw StoreError.interrupted(.now(stopping: .serverStatement))
        }
        do { try check(result, sql: sql) } catch StoreError.engine(let failure as PostgresFailure) where isLost {
            let (state, sql, message) = (failure.sqlState, failure.sql, failure.said)
            // The server went away under the statement (a restart, a terminated backend).
            throw StoreError.postgres(sqlState: state, sql: sql, message: message + " (" + Self.lostNote + ")")
        }
        return try read(result, sql: sql)
    }

    /// Whether the statement last run was cancelled (Ctrl-C, `--timeout`).
    package var cancelled = false
    /// Whether running work is asked to stop: Ctrl-C or `--timeout` (process-wide); a
    /// test asks for one connection alone.
    package var shouldStop: () -> Bool = { quarry_should_stop() != 0 }

    /// Sends `sql` with `arguments` (as text, a blob as binary) without waiting for its
    /// result; `cancelled` starts false.
    package func send(_ sql: String, _ arguments: [Value]) throws {
        guard let send = pq.pointee.sendQueryParams else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "libpq was not loaded")
        }
        try reestablishIfLost()
        let parameters: [PostgresValue.Parameter]
        do { parameters = try arguments.map(PostgresValue.parameter) } catch StoreError.engine(let failure as PostgresFailure) {
            let message = failure.said
            throw StoreError.postgres(sqlState: nil, sql: sql, message: message)
        }
        // Every value in one buffer, each text ended by a NUL, a blob as binary (format 1):
        // a C string copied for each (twice: Swift's, then `strdup`'s) was half of sending
        // a save's 20,000 new rows. Each value is found by its place in the buffer; a NULL
        // has none.
        var bytes: [UInt8] = []
        var places: [Int?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        places.reserveCapacity(parameters.count)
        lengths.reserveCapacity(parameters.count)
        formats.reserveCapacity(parameters.count)
        for parameter in parameters {
            switch parameter {
            case .none:
                places.append(nil)
                lengths.append(0)
                formats.append(0)
            case .text(let text):
                places.append(bytes.count)
                bytes.append(contentsOf: text.utf8)
                bytes.append(0)
                lengths.append(0)
                formats.append(0)
            // Within Int32 (`PostgresValue.parameter` refused a longer one).
            case .binary(let blob):
                places.append(bytes.count)
                bytes.append(contentsOf: blob)
                // An empty blob's place is a byte of the buffer still (not its end).
                bytes.append(0)
                lengths.append(Int32(blob.count))
                formats.append(1)
            }
        }
        cancelled = false
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                let values: [UnsafePointer<CChar>?] = places.map { place in place.flatMap { at in chars.baseAddress.map { $0 + at } } }
                return send(handle, sql, Int32(parameters.count), nil, values, lengths, formats, 0)
            }
        }
        guard sent == 1 else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: failure(or: "cannot send the statement"))
        }
    }

    /// libpq's reason for the last failure (`fallback` when it gives none), and when the
    /// connection is gone, that the next statement makes it again.
    package func failure(or fallback: String) -> String {
        let reason = Self.text(pq.pointee.errorMessage?(handle)) ?? fallback
        guard isLost else { return reason }
        return reason + " (" + Self.lostNote + ")"
    }

    /// Waits until a result can be read without blocking, asking the server to cancel
    /// the statement when Ctrl-C or `--timeout` asks to stop (`cancelled` then says so).
    func waitWhileBusy() {
        let table = pq.pointee
        guard let isBusy = table.isBusy, let consume = table.consumeInput, let socket = table.socket else { return }
        while isBusy(handle) != 0 {
            var descriptor = pollfd(fd: socket(handle), events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
            if !cancelled, shouldStop() { cancelled = requestCancel() }
            guard consume(handle) == 1 else { break }
        }
    }

    /// Asks the server to cancel the running statement; whether the request was sent.
    func requestCancel() -> Bool {
        guard let get = pq.pointee.getCancel, let cancel = pq.pointee.cancel, let free = pq.pointee.freeCancel,
            let token = get(handle)
        else { return false }
        defer { free(token) }
        var why = [CChar](repeating: 0, count: 256)
        return cancel(token, &why, Int32(why.count)) == 1
    }

    /// What the server made of a text prepared (`prepareUnnamed`).
    enum Prepared {
        /// One statement: its result columns and parameter count.
        case statement(columns: [String], parameters: Int)
        /// More than one statement, which the extended protocol does not take.
        case several
    }

    /// Prepares `sql` as the unnamed statement and asks the server to describe it: its
    /// result columns and parameter count; nil for a text with no statement. Nothing runs.
    func prepareUnnamed(_ sql: String) throws -> Prepared? {
        let table = pq.pointee
        guard let prepare = table.prepare, let describe = table.describePrepared, let clear = table.clear,
            let nfields = table.nfields, let fname = table.fname, let nparams = table.nparams
        else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "libpq was not loaded")
        }
        try reestablishIfLost()
        guard let prepared = prepare(handle, "", sql, 0, nil) else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: Self.text(table.errorMessage?(handle)) ?? "no result")
        }
        defer { clear(prepared) }
        let status = table.resultStatus?(prepared)
        if status == PGRES_EMPTY_QUERY { return nil }
        // A text of several statements is refused as a syntax error (42601) with no place
        // in the text: every error of the parser's own points at where it stopped reading.
        if status == PGRES_FATAL_ERROR, Self.text(table.resultErrorField?(prepared, Int32(UInt8(ascii: "C")))) == "42601",
            table.resultErrorField?(prepared, Int32(UInt8(ascii: "P"))) == nil
        {
            return .several
        }
        try check(prepared, sql: sql)
        guard let described = describe(handle, "") else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: Self.text(table.errorMessage?(handle)) ?? "no result")
        }
        defer { clear(described) }
        try check(described, sql: sql)
        let columns = (0..<nfields(described)).map { Self.name(fname(described, $0)) }
        return .statement(columns: columns, parameters: Int(nparams(described)))
    }

    /// What "bigint out of range" is said as (a money column's overflow is named instead: `PostgresNumericOverflow`).
    static let bigintAdvice =
        "integer arithmetic in this statement leaves 64-bit integers, where PostgreSQL stops and SQLite "
        + "goes on in doubles; write one operand as a real (2.0) to compute in doubles"

    /// Throws the server's error for a result that is not a success.
    package func check(_ result: OpaquePointer, sql: String) throws {
        let status = pq.pointee.resultStatus?(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let code = Self.text(pq.pointee.resultErrorField?(result, Int32(UInt8(ascii: "C"))))
            let primary =
                Self.text(pq.pointee.resultErrorField?(result, Int32(UInt8(ascii: "M"))))
                ?? Self.text(pq.pointee.resultErrorMessage?(result)) ?? "the statement failed"
            // Text [d] could not fold (PostgresFold), said as the comparison, not as a cast.
            if code == "22P02", let refused = Self.unfoldable(in: primary) { throw refused }
            // Integers past Int64, which SQLite and Quarry go on with as doubles.
            if code == "22003", primary == "bigint out of range" {
                throw StoreError.database(message: Self.bigintAdvice)
            }
            if let code,
                let violation = Self.violation(
                    code, sql: sql, said: primary,
                    field: { letter in
                        Self.text(pq.pointee.resultErrorField?(result, Int32(UInt8(ascii: letter))))
                    })
            {
                throw StoreError.constraint(violation)
            }
            // A double's overflow or underflow, which SQLite and Quarry compute as an infinity or zero.
            if code == "22003", primary.hasPrefix("value out of range: ") {
                throw StoreError.database(
                    message: "a real number in this statement's arithmetic is past what a double holds (\(primary.dropFirst(20))), "
                        + "which PostgreSQL refuses where SQLite computes an infinity or zero")
            }
            // The server's hint says what to do ("Use the REFRESH MATERIALIZED VIEW command."),
            // as psql shows it after the message.
            // The server's detail says what in the value it refused ("Token "x" is
            // invalid."), and its hint what to do ("Use the REFRESH MATERIALIZED VIEW
            // command."), as psql shows them after the message.
            let field = { (letter: UInt8) in Self.text(self.pq.pointee.resultErrorField?(result, Int32(letter))) }
            let more = [field(UInt8(ascii: "D")), field(UInt8(ascii: "H"))].compactMap { $0 }
            // A number past a bound, in one line (the server quotes every digit).
            let shown = code == "22003" ? PostgresNumericBounds.said(primary) ?? primary : primary
            let message = more.isEmpty ? shown : "\(shown) (\(more.joined(separator: "; ")))"
            let context = field(UInt8(ascii: "W"))
            throw StoreError.engine(
                PostgresFailure(
                    sqlState: code, sql: sql, said: message, parameter: PostgresFailure.parameter(inContext: context),
                    routine: PostgresFailure.routine(inContext: context)))
        }
    }

    /// A constraint's refusal as parts, from the error's diagnostic fields (`field`
    /// reads one by its letter: `t` table, `c` column, `n` constraint, `D` detail): the
    /// one place a PostgreSQL violation becomes a `ConstraintViolation`. The columns of a
    /// uniqueness or a foreign key are the detail's key (`Key (a, b)=(x, y) ...`), the one
    /// field that lists them; a NOT NULL's is its column field. Nil for another SQLSTATE.
    package static func violation(_ code: String, sql: String?, said: String, field: (Unicode.Scalar) -> String?) -> ConstraintViolation? {
        let kind: ConstraintViolation.Kind
        switch code {
        case "23505": kind = .unique
        case "23502": kind = .notNull
        case "23503": kind = .foreignKey
        case "23514": kind = .check
        default: return nil
        }
        var columns: [String] = []
        switch kind {
        case .notNull:
            columns = field("c").map { [$0] } ?? []
        case .unique:
            columns = keyColumns(field("D")) ?? []
        case .foreignKey:
            // "... is not present in table p": the key is the referencing row's columns.
            // "... is still referenced from table c" names the parent's key instead, which
            // is not the constraint's columns: none are said then.
            if let detail = field("D"), detail.contains(") is not present in table ") {
                columns = keyColumns(detail) ?? []
            }
        case .check:
            break
        }
        return ConstraintViolation(
            kind, table: field("t"), columns: columns, constraint: field("n"),
            code: .sqlState(code), sql: sql, said: said)
    }

    /// The column names of a detail's `Key (a, "b c")=(...)`, unquoted; nil for another detail.
    package static func keyColumns(_ detail: String?) -> [String]? {
        guard let detail, detail.hasPrefix("Key ("), let end = detail.range(of: ")=(") else { return nil }
        return detail[detail.index(detail.startIndex, offsetBy: 5)..<end.lowerBound].components(separatedBy: ", ")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }

    /// The rows of `result`, converted; `columns`, when the caller knows them (a stream's
    /// rows after its first), saves reading the names again.
    package func read(_ result: OpaquePointer, sql: String, columns known: [String]? = nil) throws -> PostgresResult {
        let table = pq.pointee
        guard let ntuples = table.ntuples, let nfields = table.nfields, let fname = table.fname, let ftype = table.ftype,
            let isnull = table.getisnull, let getvalue = table.getvalue, let getlength = table.getlength
        else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "libpq was not loaded")
        }
        let columnCount = Int(nfields(result))
        let rowCount = Int(ntuples(result))
        let columns = known ?? (0..<columnCount).map { Self.name(fname(result, Int32($0))) }
        let types = (0..<columnCount).map { ftype(result, Int32($0)) }
        var rows: [[Value]] = []
        rows.reserveCapacity(rowCount)
        for r in 0..<Int32(rowCount) {
            var row: [Value] = []
            row.reserveCapacity(columnCount)
            for c in 0..<Int32(columnCount) {
                if isnull(result, r, c) != 0 {
                    row.append(.null)
                    continue
                }
                let length = Int(getlength(result, r, c))
                guard let pointer = getvalue(result, r, c) else {
                    row.append(.null)
                    continue
                }
                let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
                row.append(try PostgresValue.value(bytes, type: types[Int(c)], column: columns[Int(c)]))
            }
            rows.append(row)
        }
        let affected = known != nil ? nil : table.cmdTuples?(result).flatMap { Int(String(cString: $0)) }
        return PostgresResult(columns: columns, rows: rows, affectedRows: affected, types: types)
    }

    /// libpq's text as one line: its messages run over several ("...\n\tIs the server
    /// running...?"), and an error is one line.
    package static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let text = String(cString: pointer).split(whereSeparator: { $0 == "\n" || $0 == "\t" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    package static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? { text(UnsafePointer(pointer)) }

    /// A result column's name as the server gives it, which `text` would change (spaces at
    /// its ends, a line break in it); a name libpq has not, `?column?` as psql shows it.
    package static func name(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "?column?" }
}

/// The rows a statement returned, and how many rows a command changed where it says.
public struct PostgresResult: Equatable {
    public let columns: [String]
    public let rows: [[Value]]
    public let affectedRows: Int?
    /// Each column's type (its OID), by place.
    public var types: [UInt32] = []
}

extension PostgresConnection {
    /// The last of the results waiting, the others cleared (a statement gives one; a COPY's
    /// end its outcome); the caller clears it. Nil when there is none.
    func lastResult() -> OpaquePointer? {
        guard let clear = pq.pointee.clear, let getResult = pq.pointee.getResult else { return nil }
        var last: OpaquePointer?
        while let next = getResult(handle) {
            if let previous = last { clear(previous) }
            last = next
        }
        return last
    }
}
