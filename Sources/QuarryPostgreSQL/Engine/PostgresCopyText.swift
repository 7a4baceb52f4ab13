import CQuarryRows
import QuarryModel
import QuarryStore

/// Rows of an import's `CellBatch`es in the text format of PostgreSQL's COPY: a row a
/// line, cells between tabs, `\N` for nil, and backslash, tab, newline and carriage
/// return escaped in text. Each cell is written as its attribute's type says: booleans as
/// `1`/`0` (which `boolean` reads), dates as `timestamptz` text in UTC, blobs as `bytea`
/// hex, numbers in their shortest exact text; the server converts each by its column's
/// type, as it converts a bound argument.
struct PostgresCopyText {
    package let types: [AttributeType]
    /// Columns, by place, that `format()` declared to hold times as numbers: a date or a
    /// nil is written as the column's number (`PostgresNumberTimes`).
    var numberTimes: [Int: PostgresNumberTimes.Column] = [:]

    /// Appends every row of `batch` to `out`, handing `out` to `flush` whenever it passes a
    /// MiB (rows of long text), so it never holds a whole batch of them.
    package func append(_ batch: CellBatch, to out: inout [UInt8], flush: (inout [UInt8]) throws -> Void) throws {
        let width = batch.width
        let arena = batch.arena.assumingMemoryBound(to: UInt8.self)
        for row in 0..<batch.rows {
            for column in 0..<width {
                if column > 0 { out.append(9) }
                let cell = row * width + column
                if let times = numberTimes[column] {
                    try Self.appendTime(batch, cell, times, to: &out)
                    continue
                }
                switch Int(batch.kinds[cell]) {
                case QUARRY_IMPORT_NULL:
                    out.append(92)
                    out.append(78)
                case QUARRY_IMPORT_INTEGER:
                    Self.appendInteger(batch.values[cell], to: &out)
                case QUARRY_IMPORT_REAL:
                    let d = Double(bitPattern: UInt64(bitPattern: batch.values[cell]))
                    if types[column] == .date {
                        PostgresValue.appendTimestamp(d, to: &out)
                    } else if d.isNaN {
                        // Nil, as an import into a SQLite file stores it.
                        out.append(92)
                        out.append(78)
                    } else if d.isInfinite {
                        out.append(contentsOf: (d < 0 ? "-Infinity" : "Infinity").utf8)
                    } else {
                        out.append(contentsOf: d.description.utf8)
                    }
                case QUARRY_IMPORT_BLOB:
                    let bytes = UnsafeBufferPointer(start: arena + Int(batch.values[cell]), count: Int(batch.lengths[cell]))
                    // `\\x` reaches bytea's input as `\x`, its hex form.
                    out.append(92)
                    out.append(92)
                    out.append(120)
                    for byte in bytes {
                        out.append(Self.hex[Int(byte >> 4)])
                        out.append(Self.hex[Int(byte & 15)])
                    }
                default:
                    let bytes = UnsafeBufferPointer(start: arena + Int(batch.values[cell]), count: Int(batch.lengths[cell]))
                    Self.appendEscaped(bytes, to: &out)
                }
            }
            out.append(10)
            if out.count >= 1 << 20 { try flush(&out) }
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A cell of a number column of times: a date (or nil) as the column's number; any
    /// other cell (a number, text) as it is, for the server to read as the column's type.
    private static func appendTime(_ batch: CellBatch, _ cell: Int, _ times: PostgresNumberTimes.Column, to out: inout [UInt8]) throws {
        let value: Value
        switch Int(batch.kinds[cell]) {
        case QUARRY_IMPORT_NULL: value = .null
        case QUARRY_IMPORT_REAL: value = .date(Double(bitPattern: UInt64(bitPattern: batch.values[cell])))
        case QUARRY_IMPORT_INTEGER: return appendInteger(batch.values[cell], to: &out)
        default:
            let arena = batch.arena.assumingMemoryBound(to: UInt8.self)
            return appendEscaped(UnsafeBufferPointer(start: arena + Int(batch.values[cell]), count: Int(batch.lengths[cell])), to: &out)
        }
        switch try times.written(value) {
        case .integer(let n): appendInteger(n, to: &out)
        case .real(let d): out.append(contentsOf: d.description.utf8)
        default:
            out.append(92)
            out.append(78)
        }
    }

    @inline(__always) static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value == 0 {
            out.append(48)
            return
        }
        var magnitude = value.magnitude
        if value < 0 { out.append(45) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[i]) }
        }
    }

    @inline(__always) static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case 92:
                out.append(92)
                out.append(92)
            case 9:
                out.append(92)
                out.append(116)
            case 10:
                out.append(92)
                out.append(110)
            case 13:
                out.append(92)
                out.append(114)
            default: out.append(byte)
            }
        }
    }
}
