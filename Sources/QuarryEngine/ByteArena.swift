import CQuarryRows

extension RowCursor {
    /// One call a row, whatever the engine: this body is made for each cursor type (it
    /// is each one's witness), so its reads of every cell are direct calls, not dynamic
    /// ones through `any RowCursor` (4% of a loop over every row).
    package func readCells(_ columns: Range<Int32>, into cells: UnsafeMutablePointer<quarry_cell>, arena: inout ByteArena) {
        for column in columns { cells[Int(column - columns.lowerBound)] = arena.cell(self, column) }
    }
}

/// Grows while a batch is read; the cells hold offsets, so moving it is harmless.
@usableFromInline
package struct ByteArena {
    package init() {}

    private var storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    private var capacity = 4096
    private var used = 0

    package mutating func cell<Cursor: RowCursor>(_ statement: Cursor, _ column: Int32) -> quarry_cell {
        switch statement.type(column) {
        case .integer: return quarry_cell(value: statement.int64(column), length: 0, tag: Int32(QUARRY_CELL_INTEGER))
        case .real:
            return quarry_cell(value: Int64(bitPattern: statement.double(column).bitPattern), length: 0, tag: Int32(QUARRY_CELL_REAL))
        case .text:
            let text = statement.text(column)
            let count = text.count
            let offset = append(text.baseAddress, count)
            let plain = text.baseAddress.map { quarry_is_plain_utf8($0, count) != 0 } ?? true
            return quarry_cell(value: Int64(offset), length: Int32(count), tag: Int32(plain ? QUARRY_CELL_TEXT : QUARRY_CELL_RAW_TEXT))
        case .blob:
            let blob = statement.blob(column)
            let count = blob.count
            let offset = append(blob.baseAddress?.assumingMemoryBound(to: UInt8.self), count)
            return quarry_cell(value: Int64(offset), length: Int32(count), tag: Int32(QUARRY_CELL_BLOB))
        case .null: return quarry_cell(value: 0, length: 0, tag: Int32(QUARRY_CELL_NULL))
        }
    }

    private mutating func append(_ source: UnsafePointer<UInt8>?, _ count: Int) -> Int {
        let offset = used
        if used + count > capacity {
            let grown = max(capacity * 2, used + count)
            let next = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            next.update(from: storage, count: used)
            storage.deallocate()
            storage = next
            capacity = grown
        }
        if let source, count > 0 { (storage + used).update(from: source, count: count) }
        used += count
        return offset
    }

    /// The bytes, now owned by the caller.
    package func take() -> UnsafeMutablePointer<UInt8> { storage }
}
