import CQuarryRows
import QuarryModel

/// Rows parsed for insertion, as the import's SQLite side binds them (`quarry_insert_cells`):
/// each cell a kind and a 64-bit value (an integer, a double's bits, or where its bytes
/// start in `arena`), in fixed arrays reused from batch to batch, so parsing allocates
/// nothing per cell. Filled on the parser thread, read on the SQLite thread, never both
/// at once (the pipeline hands it over).
package final class CellBatch {
    package let width: Int
    let capacity: Int
    package private(set) var rows = 0
    /// The line (CSV) or element (JSON) each row came from, for errors SQLite raises.
    package private(set) var lines: [Int]
    /// How far the source was read when the batch was full (progress estimates).
    var bytesRead = 0
    package let kinds: UnsafeMutablePointer<UInt8>
    package let values: UnsafeMutablePointer<Int64>
    package let lengths: UnsafeMutablePointer<Int32>
    package private(set) var arena: UnsafeMutableRawPointer
    private(set) var arenaUsed = 0
    private var arenaCapacity: Int
    /// The cell being written.
    private var cell = 0

    init(width: Int, capacity: Int) {
        self.width = width
        self.capacity = capacity
        let cells = max(1, width * capacity)
        kinds = .allocate(capacity: cells)
        values = .allocate(capacity: cells)
        lengths = .allocate(capacity: cells)
        lines = []
        lines.reserveCapacity(capacity)
        arenaCapacity = 1 << 16
        arena = .allocate(byteCount: arenaCapacity, alignment: 8)
    }

    deinit {
        kinds.deallocate()
        values.deallocate()
        lengths.deallocate()
        arena.deallocate()
    }

    var isFull: Bool { rows == capacity }

    func reset() {
        rows = 0
        cell = 0
        arenaUsed = 0
        bytesRead = 0
        lines.removeAll(keepingCapacity: true)
    }

    /// Starts a row read from `line`; its cells follow.
    @inline(__always) func beginRow(line: Int) {
        cell = rows * width
        lines.append(line)
    }

    /// Ends the row begun last.
    @inline(__always) func endRow() { rows += 1 }

    /// Drops the cells written since `beginRow` (a row the fast path could not finish).
    func abandonRow(arenaMark: Int) {
        cell = rows * width
        arenaUsed = arenaMark
        lines.removeLast()
    }

    @inline(__always) func putNull() {
        kinds[cell] = UInt8(QUARRY_IMPORT_NULL)
        cell += 1
    }

    @inline(__always) func put(_ i: Int64) {
        kinds[cell] = UInt8(QUARRY_IMPORT_INTEGER)
        values[cell] = i
        cell += 1
    }

    @inline(__always) func put(_ d: Double) {
        kinds[cell] = UInt8(QUARRY_IMPORT_REAL)
        values[cell] = Int64(bitPattern: d.bitPattern)
        cell += 1
    }

    @inline(__always) func put(_ bytes: UnsafeBufferPointer<UInt8>, blob: Bool) {
        let n = bytes.count
        if arenaUsed + n > arenaCapacity { grow(arenaUsed + n) }
        if n > 0, let base = bytes.baseAddress { (arena + arenaUsed).copyMemory(from: base, byteCount: n) }
        kinds[cell] = UInt8(blob ? QUARRY_IMPORT_BLOB : QUARRY_IMPORT_TEXT)
        values[cell] = Int64(arenaUsed)
        lengths[cell] = Int32(truncatingIfNeeded: n)
        arenaUsed += n
        cell += 1
    }

    /// A value as SQLite stores it: booleans as 0/1, dates as seconds since 1970.
    func put(_ value: Value) {
        switch value {
        case .null: putNull()
        case .integer(let i): put(i)
        case .real(let d): put(d)
        case .bool(let b): put(Int64(b ? 1 : 0))
        case .date(let d): put(d)
        case .text(var s):
            // Up to a NUL, as every other write of a string binds it (a C string).
            s.withUTF8 { b in
                let end = b.firstIndex(of: 0) ?? b.count
                put(UnsafeBufferPointer(rebasing: b[..<end]), blob: false)
            }
        // Its bytes as TEXT, whatever they are, as the column they came from kept them.
        case .textBytes(let b): b.withUnsafeBufferPointer { put($0, blob: false) }
        case .blob(let b): b.withUnsafeBufferPointer { put($0, blob: true) }
        // Its text: a numeric column reads it exactly; an import into SQLite makes it the
        // double the column keeps, or refuses it, before binding (`ImportRequest+SQLite`).
        case .decimal(var s): s.withUTF8 { put($0, blob: false) }
        }
    }

    /// The text of a TEXT cell (a decimal as the file wrote it); nil for another kind.
    package func text(ofCell cell: Int) -> String? {
        guard kinds[cell] == UInt8(QUARRY_IMPORT_TEXT) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: arena + Int(values[cell]), count: Int(lengths[cell]))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Makes a cell the double `d` (a decimal's, where the store keeps decimals as doubles).
    package func setReal(_ d: Double, cell: Int) {
        kinds[cell] = UInt8(QUARRY_IMPORT_REAL)
        values[cell] = Int64(bitPattern: d.bitPattern)
    }

    private func grow(_ needed: Int) {
        var capacity = arenaCapacity
        while capacity < needed { capacity *= 2 }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        bigger.copyMemory(from: arena, byteCount: arenaUsed)
        arena.deallocate()
        arena = bigger
        arenaCapacity = capacity
    }
}
