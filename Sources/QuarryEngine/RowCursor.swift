import CQuarryRows
import QuarryModel

/// One statement's rows being stepped, on whichever engine ran it: the one shape Swift
/// binds, steps and reads rows through. Reads that go row by row without making values
/// (batches of cells, export, keys) read every engine's rows the same way.
///
/// Texts and blobs are lent: valid until the next step. A read past the last column gives
/// NULL, never a crash. Each engine conforms in its own folder (`SQLiteCursor`,
/// `PostgresRows`); nothing above the engines asks which one it has. Classes: called
/// through `any RowCursor` at every row, a reference needs no box to be projected.
@usableFromInline
package protocol RowCursor: AnyObject {
    /// Binds Quarry's values to parameters 1..., as the engine stores them.
    func bind(values: [Value])
    /// Steps to the next row: true at a row, false when the statement is done.
    func step() throws -> Bool
    var columnCount: Int { get }
    func type(_ column: Int32) -> CellType
    func int64(_ column: Int32) -> Int64
    func double(_ column: Int32) -> Double
    /// The column's text as bytes.
    func text(_ column: Int32) -> UnsafeBufferPointer<UInt8>
    func blob(_ column: Int32) -> UnsafeRawBufferPointer
    /// The value of `column` by its cell type, as a read that keeps it takes it.
    func value(_ column: Int32) -> Value
    /// Copies `columns` of the current row into `cells`, texts and blobs into `arena`
    /// (`RowBatch`): every cursor takes the one body in `ByteArena.swift`.
    func readCells(_ columns: Range<Int32>, into cells: UnsafeMutablePointer<quarry_cell>, arena: inout ByteArena)
    /// Writes `types.count` columns from `firstColumn` of the current row through
    /// `writer` (an export) by the cell writers of `StoreConnection+RowStream`: its body
    /// there, or SQLite's own, which reads each cell through its value first.
    func writeColumns(from firstColumn: Int32, as types: [AttributeType], writer: inout TableWriter, into out: inout [UInt8])
    /// The bytes of the row's texts and blobs, counted before any is copied: what keeping
    /// the row will cost, known before it is held.
    var valueBytes: Int { get }
}

extension RowCursor {
    /// Binds integer keys to parameters 1... (a batch of keys), as their values.
    package func bind(keys: [Int64]) { bind(values: keys.map(Value.integer)) }

    /// By the typed reads: text as `Value(rowText:)` keeps it (its bytes whole where they
    /// are not UTF-8), a blob copied. Made for each cursor type (its witness), so the
    /// reads are direct calls.
    @inlinable
    package func value(_ column: Int32) -> Value {
        switch type(column) {
        case .integer: return .integer(int64(column))
        case .real: return .real(double(column))
        case .text:
            let bytes = text(column)
            // Plain UTF-8, nearly every value, is checked by one pass in C, then decoded.
            guard let start = bytes.baseAddress, quarry_is_plain_utf8(start, bytes.count) == 0 else {
                return .text(String(decoding: bytes, as: UTF8.self))
            }
            return Value(rowText: bytes)
        case .blob: return .blob([UInt8](blob(column)))
        case .null: return .null
        }
    }
}
