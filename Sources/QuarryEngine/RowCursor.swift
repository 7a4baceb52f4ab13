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
    /// Binds integer keys to parameters 1... (the cheap bind of a batch of keys).
    func bind(keys: [Int64])
    /// Steps to the next row: true at a row, false when the statement is done.
    func step() throws -> Bool
    var columnCount: Int { get }
    func type(_ column: Int32) -> CellType
    func int64(_ column: Int32) -> Int64
    /// The column's integer, or nil when it holds another type (a row's key, read at
    /// every row of a batch: one call where `type` then `int64` are two).
    func integer(_ column: Int32) -> Int64?
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
    /// `writer` (an export): every cursor takes the one body in `StoreConnection+RowStream`.
    func writeColumns(from firstColumn: Int32, as types: [AttributeType], writer: inout TableWriter, into out: inout [UInt8])
    /// The bytes of the row's texts and blobs, counted before any is copied: what keeping
    /// the row will cost, known before it is held.
    var valueBytes: Int { get }
}

extension RowCursor {
    package func integer(_ column: Int32) -> Int64? { type(column) == .integer ? int64(column) : nil }
}
