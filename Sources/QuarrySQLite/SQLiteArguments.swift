import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel

/// Quarry's values as arguments of a GRDB statement. GRDB binds text from a `String`,
/// which cannot hold text whose bytes are not UTF-8 (`Value.textBytes`, a hash another
/// program stored as TEXT): GRDB binds every value, then each such text is bound again,
/// byte for byte, as TEXT. Written back, its bytes and storage class are unchanged; given
/// to a comparison, it finds its row.
struct SQLiteArguments {
    /// The values as GRDB binds them.
    private(set) var databaseValues: [DatabaseValue] = []
    /// Texts bound again after GRDB's binding, by parameter number.
    private var texts: [(index: Int32, bytes: [UInt8])] = []

    init(_ values: [Value] = []) { append(contentsOf: values) }

    mutating func append(_ value: Value) { append(value.databaseValue, for: value) }

    /// Room for `count` values at once (a save's UPDATE grew its arguments twice a row).
    mutating func reserve(_ count: Int) { databaseValues.reserveCapacity(count) }

    mutating func append(contentsOf values: [Value]) { for value in values { append(value) } }

    /// `stored`, what a column's format writes for `value` (`ColumnFormats.stored`): the
    /// value's own bytes where the format kept it as it is.
    mutating func append(_ stored: DatabaseValue, for value: Value) {
        databaseValues.append(stored)
        if case .textBytes(let bytes) = value, stored == value.databaseValue { texts.append((Int32(databaseValues.count), bytes)) }
    }

    /// The bytes of the texts and blobs, as SQLite copies them when bound.
    var byteCount: Int {
        databaseValues.reduce(0) { total, value in
            switch value.storage {
            case .string(let s): return total + s.utf8.count
            case .blob(let data): return total + data.count
            default: return total
            }
        }
    }

    /// Whether any text is bound again: a statement with none runs as GRDB runs it.
    var bindsTexts: Bool { !texts.isEmpty }

    /// Returns SQLite's first refusal (SQLITE_OK for none).
    fileprivate func bindTexts(to handle: OpaquePointer) -> Int32 {
        var refused = SQLITE_OK
        for text in texts { SQLiteCursor.keepFirstRefusal(SQLiteCursor.bindText(text.bytes, at: text.index, of: handle), in: &refused) }
        return refused
    }
}

extension Statement {
    /// Binds `arguments` (GRDB checks that they are as many as the statement's parameters),
    /// then the texts GRDB cannot hold.
    func setArguments(_ arguments: SQLiteArguments) throws {
        try setArguments(StatementArguments(arguments.databaseValues))
        try refuseIfRefused(arguments.bindTexts(to: sqliteStatement))
    }

    /// A bind SQLite refused (out of memory under `--memory`) as its error: run anyway,
    /// the statement would write or compare NULL where the value was.
    private func refuseIfRefused(_ code: Int32) throws {
        guard code != SQLITE_OK else { return }
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
    }

    /// Runs the statement with `arguments`: as GRDB runs it when every text is a `String`
    /// (it binds them without copying), else bound here first (GRDB keeps the bindings of
    /// a statement it runs given no arguments).
    func execute(_ arguments: SQLiteArguments) throws {
        guard arguments.bindsTexts else { return try execute(arguments: StatementArguments(arguments.databaseValues)) }
        try setArguments(arguments)
        try execute()
    }

    /// Runs the statement with `arguments` as `execute(_:)` does, bound here and run by
    /// GRDB (which tells its observers of the run, as they hear every other write): GRDB's
    /// own binding copied the arguments through a key path, 11% of a save of 20,000 new
    /// objects (issue 62). GRDB runs a statement given no arguments with the bindings it
    /// has, once told they are set.
    func executeBound(_ arguments: SQLiteArguments) throws {
        var told = false
        try executeBound(arguments, told: &told)
    }

    /// The same, for a statement run many times (a save's inserts): `told` says GRDB was
    /// told once that the statement's arguments are set, which it then believes until
    /// other arguments are given (telling it again for each of 20,000 rows was 1.7% of
    /// their save). Every parameter is bound anew at each run.
    func executeBound(_ arguments: SQLiteArguments, told: inout Bool) throws {
        // GRDB's check, kept: a statement run with other arguments than it names is a bug.
        guard Int(sqlite3_bind_parameter_count(sqliteStatement)) == arguments.databaseValues.count else { return try execute(arguments) }
        try runBound(arguments) {
            if !told {
                setUncheckedArguments(StatementArguments())
                told = true
            }
        } run: {
            try execute()
        }
    }

    /// Binds every parameter of the statement anew to `arguments` and runs it with `run`,
    /// after `prepare`. The statement is reset first (a failed run's error is taken there:
    /// GRDB's `setUncheckedArguments` resets it expecting none) and after, its values'
    /// copies cleared (a statement of many rows kept each row's text until the save ended,
    /// against `--memory` and the rows written after it).
    private func runBound(_ arguments: SQLiteArguments, prepare: () -> Void = {}, run: () throws -> Void) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        prepare()
        try refuseIfRefused(SQLiteCursor.bind(arguments.databaseValues, to: handle))
        try refuseIfRefused(arguments.bindTexts(to: handle))
        try run()
    }

    /// Runs the statement with `arguments` stepped by SQLite itself, without GRDB's checks
    /// and observers' preparation around each run: for a save's UPDATEs of Quarry's own
    /// tables that compare their row (`SQLiteSaveStatements+ComparedRows`), inside the
    /// save's transaction, which GRDB began and ends. GRDB's transaction observers hear
    /// the commit or rollback (SQLite's hooks) but not each row these change; none of
    /// Quarry's listens for rows (Core Data's external data, the one observer, hears
    /// commits alone). Every parameter is bound anew at each run.
    func stepBound(_ arguments: SQLiteArguments) throws {
        let handle = sqliteStatement
        guard Int(sqlite3_bind_parameter_count(handle)) == arguments.databaseValues.count else { return try execute(arguments) }
        try runBound(arguments) {
            var code = sqlite3_step(handle)
            while code == SQLITE_ROW { code = sqlite3_step(handle) }
            guard code == SQLITE_DONE else {
                let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
            }
        }
    }

    /// The rows the statement returns with `arguments`, read as `SQLiteCursor.value` reads
    /// a column (text that is not UTF-8 kept whole), where GRDB's rows would have replaced
    /// its bytes.
    func rows(_ arguments: SQLiteArguments) throws -> [[Value]] {
        try setArguments(arguments)
        let cursor = try Row.fetchCursor(self)
        let columns = SQLiteCursor(handle: sqliteStatement)
        var rows: [[Value]] = []
        while try cursor.next() != nil { rows.append(columns.rowValues) }
        return rows
    }
}
