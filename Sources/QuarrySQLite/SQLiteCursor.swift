import CQuarryRows
import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A prepared SQLite statement being stepped, lent by GRDB's statement cache for one use
/// (GRDB owns it and finalizes it): the SQLite engine's `RowCursor`. Every step's result
/// code is checked here; a code other than a row or done is thrown (as `StepFailure`,
/// which `Database.withStatement` turns into SQLite's error for it).
///
/// A class, as every `RowCursor` is: a cursor is used through `any RowCursor`, and a
/// class reference needs no boxing to call through (a struct's box was projected at every
/// call, 2% of a loop over every row); one is made per statement run, not per row.
package final class SQLiteCursor: QuarryEngine.RowCursor {
    let handle: OpaquePointer
    /// The first bind SQLite refused (out of memory under `--memory`): the next step
    /// throws it, as SQLite would otherwise run the statement with that parameter NULL.
    private var refusedBind = SQLITE_OK

    init(handle: OpaquePointer) { self.handle = handle }

    /// A `sqlite3_step` result other than a row or done.
    struct StepFailure: Error { let code: Int32 }

    /// SQLite copies a value bound or returned with this destructor.
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds `values` to parameters 1... (SQLite copies texts and blobs).
    package func bind(_ values: [DatabaseValue]) { note(Self.bind(values, to: handle)) }

    private func note(_ code: Int32) { Self.keepFirstRefusal(code, in: &refusedBind) }

    /// Keeps `code` in `refused` when it is SQLite's first refusal of a bind.
    static func keepFirstRefusal(_ code: Int32, in refused: inout Int32) {
        if code != SQLITE_OK, refused == SQLITE_OK { refused = code }
    }

    /// Binds `values` to parameters 1... of the statement `handle`; returns SQLite's
    /// first refusal (SQLITE_OK for none), after which a parameter would be NULL.
    static func bind(_ values: [DatabaseValue], to handle: OpaquePointer) -> Int32 {
        var refused = SQLITE_OK
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let code: Int32
            switch value.storage {
            case .null: code = sqlite3_bind_null(handle, index)
            case .int64(let v): code = sqlite3_bind_int64(handle, index, v)
            case .double(let v): code = sqlite3_bind_double(handle, index, v)
            // Through the string's own buffer: passed as is, it was copied into a new
            // array first (`utf8CString`) for each value bound.
            case .string(let s): code = s.withCString { sqlite3_bind_text(handle, index, $0, -1, Self.transient) }
            case .blob(let data):
                code = data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            keepFirstRefusal(code, in: &refused)
        }
        return refused
    }

    /// Binds Quarry's values as SQLite stores them, text that is not UTF-8 as TEXT, byte
    /// for byte.
    package func bind(values: [Value]) {
        bind(values.map(\.databaseValue))
        for (i, value) in values.enumerated() {
            if case .textBytes(let bytes) = value { note(Self.bindText(bytes, at: Int32(i + 1), of: handle)) }
        }
    }

    /// Binds `bytes` as TEXT whatever they are (SQLite copies them): its storage class is
    /// TEXT, as the value's column keeps it, so `=` with the column finds its row.
    /// Returns SQLite's answer.
    static func bindText(_ bytes: [UInt8], at index: Int32, of handle: OpaquePointer) -> Int32 {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                // Never empty: an empty text is UTF-8, a `.text`.
                sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), transient)
            }
        }
    }

    package func step() throws -> Bool {
        if refusedBind != SQLITE_OK { throw StepFailure(code: refusedBind) }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw StepFailure(code: code)
    }

    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The current row, each column as `value(_:)` reads it.
    var rowValues: [Value] { (0..<Int32(columnCount)).map(value) }

    /// `RowCursor.readCells` with numbers read through the column's value: one call into
    /// SQLite a column (`sqlite3_column_value`), where `type` then `int64` were two, each
    /// finding the column again (a loop over every flight read a row's key and two columns
    /// in 500 instructions, 325 now). Texts, blobs and NULLs take the shared body.
    package func readCells(_ columns: Range<Int32>, into cells: UnsafeMutablePointer<quarry_cell>, arena: inout ByteArena) {
        for column in columns {
            let out = cells + Int(column - columns.lowerBound)
            guard let value = sqlite3_column_value(handle, column) else {
                out.pointee = arena.cell(self, column)
                continue
            }
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER:
                out.pointee = quarry_cell(value: sqlite3_value_int64(value), length: 0, tag: Int32(QUARRY_CELL_INTEGER))
            case SQLITE_FLOAT:
                out.pointee = quarry_cell(value: Int64(bitPattern: sqlite3_value_double(value).bitPattern), length: 0, tag: Int32(QUARRY_CELL_REAL))
            default:
                out.pointee = arena.cell(self, column)
            }
        }
    }

    /// `RowCursor.writeColumns` with each cell read through its value (an export): one
    /// call into SQLite finds the column, where `type` then `int64` (or `text` and `bytes`)
    /// found it two or three times, each call checking the statement and its error state
    /// again (line 10a of docs/benchmarks.md). Blobs take the shared body.
    package func writeColumns(from firstColumn: Int32, as types: [AttributeType], writer: inout TableWriter, into out: inout [UInt8]) {
        for (i, type) in types.enumerated() {
            let column = firstColumn + Int32(i)
            guard let value = sqlite3_column_value(handle, column) else {
                StoreConnection.writeColumn(self, column, as: type, writer: &writer, into: &out)
                continue
            }
            switch sqlite3_value_type(value) {
            case SQLITE_NULL: writer.null(into: &out)
            case SQLITE_INTEGER: StoreConnection.writeInteger(sqlite3_value_int64(value), as: type, writer: &writer, into: &out)
            case SQLITE_FLOAT: StoreConnection.writeReal(sqlite3_value_double(value), as: type, writer: &writer, into: &out)
            case SQLITE_TEXT:
                // The text first, then its length, as SQLite asks.
                let start = sqlite3_value_text(value)
                let count = Int(sqlite3_value_bytes(value))
                StoreConnection.writeText(UnsafeBufferPointer(start: count > 0 ? start : nil, count: count), as: type, writer: &writer, into: &out)
            default: StoreConnection.writeColumn(self, column, as: type, writer: &writer, into: &out)
            }
        }
    }

    package func type(_ column: Int32) -> CellType {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    package func text(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let start = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeBufferPointer(start: count > 0 ? start : nil, count: count)
    }

    package func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        let start = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count)
    }
}

extension Database {
    /// `body` with `sql` as a cursor from GRDB's cache (or, not `cached`, prepared for this
    /// use alone: SQL that varies with each request need not stay in the cache), reset and
    /// with no bindings; a failed step comes out as SQLite's error for it.
    package func withStatement<T>(_ sql: String, cached: Bool = true, _ body: (SQLiteCursor) throws -> T) throws -> T {
        let prepared = cached ? try cachedStatement(sql: sql) : try makeStatement(sql: sql)
        return try withExtendedLifetime(prepared) {
            let handle = prepared.sqliteStatement
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            defer { sqlite3_reset(handle) }
            do { return try body(SQLiteCursor(handle: handle)) } catch let failure as SQLiteCursor.StepFailure {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: failure.code), message: String(cString: sqlite3_errmsg(sqliteConnection)), sql: sql)
            }
        }
    }
}

extension SQLiteCursor {
    /// A cell of a statement a person wrote, exported as `export(sql(...))` writes it
    /// (see `SQLitePreparedQuery.exportRows`). Read through the column's value, one call
    /// into SQLite a cell, as `writeColumns` reads one: `sqlite3_column_type` then
    /// `_int64` (or `_text` and `_bytes`) each found the column, checked the statement
    /// and took the connection's mutex again.
    func writeQueryCell(_ column: Int32, writer: inout TableWriter, into out: inout [UInt8]) {
        // No value only for a column the statement does not have, which reads as NULL.
        guard let value = sqlite3_column_value(handle, column) else { return writer.null(into: &out) }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: writer.integer(sqlite3_value_int64(value), into: &out)
        case SQLITE_FLOAT: writer.real(sqlite3_value_double(value), into: &out)
        case SQLITE_TEXT:
            // The text first, then its length, as SQLite asks.
            let start = sqlite3_value_text(value)
            let count = Int(sqlite3_value_bytes(value))
            let bytes = UnsafeBufferPointer(start: count > 0 ? start : nil, count: count)
            if let start = bytes.baseAddress, quarry_is_plain_utf8(start, bytes.count) == 0 {
                // A NUL or bytes that are not UTF-8: as the value keeps them.
                writer.value(self.value(column), into: &out)
            } else {
                writer.text(bytes, into: &out)
            }
        case SQLITE_BLOB: writer.text(blob(column).assumingMemoryBound(to: UInt8.self), into: &out)
        default: writer.null(into: &out)
        }
    }
}
