import CQuarryPQ
import CQuarrySignals
import Foundation
import QuarryModel
import QuarryStore

/// `export` from a PostgreSQL store through `COPY (SELECT ...) TO STDOUT (FORMAT binary)`:
/// the server sends each row as one message of typed binary fields, which are written
/// straight through `TableWriter`, with no `PGresult`, text parsing or `Value` per row
/// (single-row mode made all three for every row: 3x psql's `\copy`).
///
/// The file is the same, byte for byte, as the rows read one at a time write it: each
/// field becomes what `PostgresValue.value` makes of the server's text for that type (a
/// timestamp the same double of seconds, a numeric the same double its text reads as,
/// a float4 the double of its shortest text, text the same UTF-8), then goes through the
/// same per-cell writing (`StoreConnection.writeInteger`, `writeReal`, `writeText`).
/// Only the types `CopyField` writes by attribute type are read so; a query with any
/// other column type (or with arguments, which COPY cannot take: they are never spliced
/// into SQL) returns nil and is streamed a row at a time as before.
extension PostgresConnection {
    /// How a result column's binary field is read: one list for `export(fetch(...))`,
    /// which writes by attribute types, and `export({ sql = ... })`
    /// (`PostgresCopyQueryExport`), which writes as `sql()` reads.
    enum CopyField {
        case bool, int2, int4, int8, oid, float4, float8, numeric, timestamp, date, bytea, text, jsonb, uuid

        package init?(oid: UInt32) {
            typealias T = PostgresValue.TypeOID
            switch oid {
            case T.bool: self = .bool
            case T.int2: self = .int2
            case T.int4: self = .int4
            case T.int8: self = .int8
            case T.oid: self = .oid
            case T.float4: self = .float4
            case T.float8: self = .float8
            case T.numeric: self = .numeric
            case T.timestamp, T.timestamptz: self = .timestamp
            case T.date: self = .date
            case T.bytea: self = .bytea
            // text, varchar, bpchar, name, json: their binary form is their text.
            case 25, 1043, 1042, 19, 114: self = .text
            case 3802: self = .jsonb
            case 2950: self = .uuid
            default: return nil
            }
        }

        /// A fixed-width number as the row path reads the server's text of it: an integer
        /// (bool, int2, int4, oid, int8) or a real (float8; float4 by its shortest text,
        /// 1.1 rather than 1.100000023841858). nil for a field of another type.
        enum Number {
            case integer(Int64)
            case real(Double)
        }

        @inline(__always)
        func number(_ b: UnsafeRawBufferPointer) throws -> Number? {
            func need(_ size: Int) throws {
                guard b.count == size else { throw CopyRowReader.malformed("a field of \(b.count) bytes where \(size) were expected") }
            }
            switch self {
            case .bool:
                try need(1)
                return .integer(b[0] != 0 ? 1 : 0)
            case .int2:
                try need(2)
                return .integer(Int64(Int16(bigEndian: b.loadUnaligned(as: Int16.self))))
            case .int4:
                try need(4)
                return .integer(Int64(Int32(bigEndian: b.loadUnaligned(as: Int32.self))))
            case .oid:
                try need(4)
                return .integer(Int64(UInt32(bigEndian: b.loadUnaligned(as: UInt32.self))))
            case .int8:
                try need(8)
                return .integer(Int64(bigEndian: b.loadUnaligned(as: Int64.self)))
            case .float8:
                try need(8)
                return .real(Double(bitPattern: UInt64(bigEndian: b.loadUnaligned(as: UInt64.self))))
            case .float4:
                try need(4)
                let f = Float(bitPattern: UInt32(bigEndian: b.loadUnaligned(as: UInt32.self)))
                return .real(f.isFinite ? Double(f.description) ?? Double(f) : Double(f))
            case .numeric, .timestamp, .date, .bytea, .text, .jsonb, .uuid:
                return nil
            }
        }

        /// Whether `export(fetch(...))` writes this field by an attribute's type. A date,
        /// jsonb or uuid attribute is read from the server's text by the row path, whose
        /// value this reader does not yet make the same: such a fetch goes row by row.
        var writesByAttributeType: Bool {
            switch self {
            case .date, .jsonb, .uuid: false
            default: true
            }
        }
    }

    /// Writes `sql`'s rows (columns from `firstColumn` on, of `types`) through COPY;
    /// returns how many, or nil when the query cannot go through COPY (see above), before
    /// anything is written.
    package func copyExport(
        _ sql: String, arguments: [Value], types: [AttributeType], firstColumn: Int,
        writer: inout TableWriter, file: OutputFile
    ) throws -> Int? {
        guard arguments.isEmpty, PostgreSQLDialect.numbering(sql).1 == 0,
            let oids = try? resultTypes(of: sql), oids.count == firstColumn + types.count
        else { return nil }
        var fields: [CopyField] = []
        for oid in oids {
            guard let field = CopyField(oid: oid), field.writesByAttributeType else { return nil }
            fields.append(field)
        }
        let copy = "COPY (" + sql + ") TO STDOUT (FORMAT binary)"
        let reader = CopyRowReader(fields: fields, types: types, firstColumn: firstColumn)
        var count = 0
        try copyOut(copy) { message in
            try reader.consume(message) { row in
                if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError.stopped() }
                try file.append { out in try reader.write(row, writer: &writer, into: &out) }
                count += 1
            }
        }
        return count
    }

    /// The type OIDs of `sql`'s result columns, as the server describes it (prepared
    /// unnamed, not run).
    func resultTypes(of sql: String) throws -> [UInt32] {
        let table = pq.pointee
        guard let prepare = table.prepare, let describe = table.describePrepared, let clear = table.clear,
            let nfields = table.nfields, let ftype = table.ftype
        else { throw StoreError.postgres(sqlState: nil, sql: sql, message: "libpq was not loaded") }
        guard let prepared = prepare(handle, "", sql, 0, nil) else { throw StoreError.postgres(sqlState: nil, sql: sql, message: "no result") }
        defer { clear(prepared) }
        try check(prepared, sql: sql)
        guard let described = describe(handle, "") else { throw StoreError.postgres(sqlState: nil, sql: sql, message: "no result") }
        defer { clear(described) }
        try check(described, sql: sql)
        return (0..<nfields(described)).map { UInt32(ftype(described, $0)) }
    }

    /// Runs `sql`, a `COPY ... TO STDOUT`, handing each message the server sends to
    /// `body` (valid only during the call). Ctrl-C or `--timeout` cancels it; when `body`
    /// throws, the rest is cancelled and read to its end, so the connection can run the
    /// next statement, and the error is thrown.
    func copyOut(_ sql: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let table = pq.pointee
        guard let getResult = table.getResult, let clear = table.clear, let status = table.resultStatus,
            let getCopyData = table.getCopyData, let freemem = table.freemem,
            let consume = table.consumeInput, let socket = table.socket
        else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "libpq was not loaded")
        }
        try send(sql, [])
        waitWhileBusy()
        guard let started = getResult(handle) else {
            throw StoreError.postgres(sqlState: nil, sql: sql, message: failure(or: "no result"))
        }
        guard status(started) == PGRES_COPY_OUT else {
            defer {
                clear(started)
                while let more = getResult(handle) { clear(more) }
            }
            if cancelled, status(started) == PGRES_FATAL_ERROR { throw StoreError.interrupted(.now(stopping: .serverStatement)) }
            try check(started, sql: sql)
            throw StoreError.postgres(sqlState: nil, sql: sql, message: "the server did not start the COPY")
        }
        clear(started)
        var failure: Error?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = getCopyData(handle, &buffer, 1)
            if length > 0, let buffer {
                defer { freemem(buffer) }
                // After a failure the rest is read and dropped (a cancel is on its way).
                guard failure == nil else { continue }
                do { try body(UnsafeRawBufferPointer(start: buffer, count: Int(length))) } catch {
                    failure = error
                    if !cancelled { cancelled = requestCancel() }
                }
            } else if length == 0 {
                // Nothing whole yet: wait for the socket, asking the server to stop on Ctrl-C.
                var descriptor = pollfd(fd: socket(handle), events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 100)
                if !cancelled, quarry_should_stop() != 0 { cancelled = requestCancel() }
                if consume(handle) != 1 { break }
            } else {
                break // -1: the COPY is over; -2: the connection failed (getResult says why)
            }
        }
        let last = lastResult()
        defer { if let last { clear(last) } }
        if let failure { throw failure }
        guard let last else { throw StoreError.postgres(sqlState: nil, sql: sql, message: self.failure(or: "the connection to the server was lost")) }
        if cancelled, status(last) == PGRES_FATAL_ERROR { throw StoreError.interrupted(.now(stopping: .serverStatement)) }
        try check(last, sql: sql)
    }
}

/// Reads binary COPY data (a header, then per row a field count and each field as a
/// length and bytes, -1 for NULL; a count of -1 ends it) and writes the rows' fields.
/// Lengths are checked against the message: a malformed one is an error, never a read
/// past its end. A class: a row is written (reading its fields' places) from within
/// the reading of its message.
final class CopyRowReader {
    package let fields: [PostgresConnection.CopyField]
    package let types: [AttributeType]
    package let firstColumn: Int
    /// How many fields each row has.
    private let width: Int
    private var headerRead = false
    /// Each column's field of the row being written: start and length (-1 for NULL).
    private var spans: [(start: Int, length: Int)]

    package init(fields: [PostgresConnection.CopyField], types: [AttributeType], firstColumn: Int) {
        self.fields = fields
        self.types = types
        self.firstColumn = firstColumn
        width = fields.count
        spans = Array(repeating: (0, -1), count: fields.count)
    }

    /// A reader of rows of `width` fields, read one by one (`field`) rather than written
    /// by attribute types (`export({ sql = ... })`, `PostgresCopyQueryExport`).
    package init(width: Int) {
        fields = []
        types = []
        firstColumn = 0
        self.width = width
        spans = Array(repeating: (0, -1), count: width)
    }

    /// The bytes of the row's field `column`; nil for NULL.
    package func field(_ column: Int, of row: Row) -> UnsafeRawBufferPointer? {
        let span = spans[column]
        guard span.length >= 0 else { return nil }
        return UnsafeRawBufferPointer(rebasing: row.bytes[span.start..<span.start + span.length])
    }

    /// A row: the message it is in and where its fields are.
    package struct Row {
        package let bytes: UnsafeRawBufferPointer
    }

    static func malformed(_ what: String) -> StoreError {
        .postgres(sqlState: nil, sql: nil, message: "the server's COPY data is not as expected: \(what)")
    }

    private static func int16(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(Int16(bigEndian: b.loadUnaligned(fromByteOffset: at, as: Int16.self)))
    }

    private static func int32(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(Int32(bigEndian: b.loadUnaligned(fromByteOffset: at, as: Int32.self)))
    }

    private static func int64(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int64 {
        Int64(bigEndian: b.loadUnaligned(fromByteOffset: at, as: Int64.self))
    }

    private static let signature: [UInt8] = [80, 71, 67, 79, 80, 89, 10, 255, 13, 10, 0] // PGCOPY\n\377\r\n\0

    /// Reads the rows in one message of the server's, calling `row` for each.
    func consume(_ b: UnsafeRawBufferPointer, row: (Row) throws -> Void) throws {
        var at = 0
        if !headerRead {
            guard b.count >= 19, b.prefix(11).elementsEqual(Self.signature) else { throw Self.malformed("no binary header") }
            let extensionLength = Self.int32(b, 15)
            guard extensionLength >= 0, 19 + extensionLength <= b.count else { throw Self.malformed("a header extension past the data") }
            at = 19 + extensionLength
            headerRead = true
        }
        while at < b.count {
            guard at + 2 <= b.count else { throw Self.malformed("a row cut short") }
            let count = Self.int16(b, at)
            at += 2
            if count == -1 { return } // the trailer
            guard count == width else { throw Self.malformed("\(count) fields where the query has \(width)") }
            for i in 0..<width {
                guard at + 4 <= b.count else { throw Self.malformed("a row cut short") }
                let length = Self.int32(b, at)
                at += 4
                guard length <= b.count - at else { throw Self.malformed("a field past the row's end") }
                spans[i] = (at, length)
                if length > 0 { at += length }
            }
            try row(Row(bytes: b))
        }
    }

    /// Writes the row's columns from `firstColumn` on.
    package func write(_ row: Row, writer: inout TableWriter, into out: inout [UInt8]) throws {
        writer.beginRow(into: &out)
        for (i, type) in types.enumerated() {
            let column = firstColumn + i
            let span = spans[column]
            guard span.length >= 0 else {
                writer.null(into: &out)
                continue
            }
            let field = UnsafeRawBufferPointer(rebasing: row.bytes[span.start..<span.start + span.length])
            try Self.write(field, as: fields[column], type: type, writer: &writer, into: &out)
        }
        writer.endRow(into: &out)
    }

    private static func write(
        _ b: UnsafeRawBufferPointer, as field: PostgresConnection.CopyField, type: AttributeType,
        writer: inout TableWriter, into out: inout [UInt8]
    ) throws {
        func need(_ size: Int) throws { guard b.count == size else { throw malformed("a field of \(b.count) bytes where \(size) were expected") } }
        func real(_ d: Double) {
            // NaN reads as nil, as SQLite stores it (PostgresValue.value).
            if d.isNaN { writer.null(into: &out) } else { StoreConnection.writeReal(d, as: type, writer: &writer, into: &out) }
        }
        switch try field.number(b) {
        case .integer(let i)?: return StoreConnection.writeInteger(i, as: type, writer: &writer, into: &out)
        case .real(let d)?: return real(d)
        case nil: break
        }
        switch field {
        case .numeric:
            // A decimal attribute keeps the server's text, as the row-by-row path reads it.
            if type == .decimal, let text = try numericText(b) {
                writer.decimal(text, into: &out)
            } else {
                real(try numeric(b))
            }
        case .timestamp:
            try need(8)
            let micros = int64(b, 0)
            // 'infinity' stays the server's text (PostgresValue.value).
            if micros == .max || micros == .min {
                var text = micros == .max ? "infinity" : "-infinity"
                text.withUTF8 { StoreConnection.writeText($0, as: type, writer: &writer, into: &out) }
            } else {
                real(seconds(micros))
            }
        case .bytea:
            writer.blob(b, into: &out)
        case .text:
            let bytes = b.bindMemory(to: UInt8.self)
            // Text that is not valid UTF-8 is written as reading it into a String makes it.
            if bytes.contains(where: { $0 >= 0x80 }) {
                var text = String(decoding: bytes, as: UTF8.self)
                text.withUTF8 { StoreConnection.writeText($0, as: type, writer: &writer, into: &out) }
            } else {
                StoreConnection.writeText(bytes, as: type, writer: &writer, into: &out)
            }
        case .bool, .int2, .int4, .oid, .int8, .float8, .float4:
            break // numbers, written above
        case .date, .jsonb, .uuid:
            // `copyExport` declines these before anything is written.
            throw malformed("a field of a type read only row by row")
        }
    }

    /// A timestamp's microseconds since 2000-01-01 as the seconds since 1970 that
    /// `PostgresValue.seconds` reads from its text (UTC), computed in the same steps so
    /// the double is the same: the day's number times 86,400, plus the hours and minutes,
    /// plus the seconds with their fraction (an exact integer of microseconds divided by
    /// a million rounds as reading "SS.ffffff" does).
    package static func seconds(_ micros: Int64) -> Double {
        let perDay: Int64 = 86_400_000_000
        var days = micros / perDay
        var rest = micros % perDay
        if rest < 0 {
            rest += perDay
            days -= 1
        }
        let dayCount = Double(days + 10_957) // 1970-01-01 to 2000-01-01
        let secondOfDay = rest / 1_000_000
        let wholeMinutes = Int(secondOfDay - secondOfDay % 60)
        let second = Double(secondOfDay % 60 * 1_000_000 + rest % 1_000_000) / 1_000_000
        let offset = 0.0
        return dayCount * 86_400 + Double(wholeMinutes) + second - offset
    }

    /// A finite numeric's binary form as the server writes its text (`0.9900`, `1.00`,
    /// `-0.000001`: the display scale's digits after the point); nil for NaN and the
    /// infinities, which are read as doubles on both paths.
    static func numericText(_ b: UnsafeRawBufferPointer) throws -> String? {
        var text: [UInt8] = []
        guard try appendNumericText(b, to: &text) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// `numericText` into `text` (emptied first, its capacity kept: a scratch buffer an
    /// export reuses for every field); false for NaN and the infinities.
    static func appendNumericText(_ b: UnsafeRawBufferPointer, to text: inout [UInt8]) throws -> Bool {
        text.removeAll(keepingCapacity: true)
        guard b.count >= 8 else { throw malformed("a numeric of \(b.count) bytes") }
        let ndigits = int16(b, 0)
        let weight = int16(b, 2)
        let sign = UInt16(bitPattern: Int16(int16(b, 4)))
        let scale = int16(b, 6)
        guard sign == 0x0000 || sign == 0x4000 else { return false }
        guard ndigits >= 0, scale >= 0, b.count == 8 + 2 * ndigits else { throw malformed("a numeric of \(b.count) bytes") }
        func digit(_ i: Int) throws -> Int {
            guard i >= 0, i < ndigits else { return 0 }
            let d = int16(b, 8 + 2 * i)
            guard (0..<10_000).contains(d) else { throw malformed("a numeric digit \(d)") }
            return d
        }
        // Bytes with a running count: asking a String its count walks it, and doing that
        // at every digit group made a 16,383-digit scale quadratic.
        if sign == 0x4000 { text.append(45) } // "-"
        text.reserveCapacity(2 + 4 * (max(weight, 0) + 1) + scale + 4)
        func append(group d: Int) {
            text.append(UInt8(48 + d / 1000))
            text.append(UInt8(48 + d / 100 % 10))
            text.append(UInt8(48 + d / 10 % 10))
            text.append(UInt8(48 + d % 10))
        }
        if weight < 0 {
            text.append(48) // "0"
        } else {
            text.append(contentsOf: String(try digit(0)).utf8)
            for i in stride(from: 1, through: weight, by: 1) { append(group: try digit(i)) }
        }
        if scale > 0 {
            text.append(46) // "."
            let end = text.count + scale
            var i = weight + 1
            while text.count < end {
                append(group: try digit(i))
                i += 1
            }
            text.removeLast(text.count - end)
        }
        return true
    }

    /// 10^0 through 10^22, every one an exact double.
    private static let powersOfTen: [Double] = (0...22).map { Double("1e\($0)") ?? 0 }

    /// A numeric's binary form (digit count, weight, sign, display scale, base-10,000
    /// digits) as the double its text reads as: the same decimal, written as
    /// 0.DDDD...e(4 * (weight + 1)), read by the same correctly rounded conversion.
    package static func numeric(_ b: UnsafeRawBufferPointer) throws -> Double {
        guard b.count >= 8 else { throw malformed("a numeric of \(b.count) bytes") }
        let ndigits = int16(b, 0)
        let weight = int16(b, 2)
        let sign = UInt16(bitPattern: Int16(int16(b, 4)))
        switch sign {
        case 0xC000: return .nan
        case 0xD000: return .infinity
        case 0xF000: return -.infinity
        case 0x0000, 0x4000: break
        default: throw malformed("a numeric's sign \(sign)")
        }
        guard ndigits >= 0, b.count == 8 + 2 * ndigits else { throw malformed("a numeric of \(b.count) bytes") }
        if ndigits == 0 { return 0 }
        // Clinger's fast path: digits that make an integer below 2^53 and a power of ten
        // up to 10^22 are both exact doubles, so one multiplication or division rounds
        // once, correctly, to the double that reading the text gives (0.99 is 99 / 100).
        var mantissa: UInt64 = 0
        var exact = ndigits <= 4
        if exact {
            for i in 0..<ndigits {
                let digit = int16(b, 8 + 2 * i)
                guard (0..<10_000).contains(digit) else {
                    exact = false
                    break
                }
                mantissa = mantissa * 10_000 + UInt64(digit)
            }
        }
        let exponent = 4 * (weight + 1 - ndigits)
        if exact, mantissa <= 1 << 53, (-22...22).contains(exponent) {
            let magnitude = exponent < 0 ? Double(mantissa) / powersOfTen[-exponent] : Double(mantissa) * powersOfTen[exponent]
            return sign == 0x4000 ? -magnitude : magnitude
        }
        var text: [UInt8] = sign == 0x4000 ? [45, 48, 46] : [48, 46] // "-0." or "0."
        text.reserveCapacity(text.count + 4 * ndigits + 8)
        for i in 0..<ndigits {
            let digit = int16(b, 8 + 2 * i)
            guard (0..<10_000).contains(digit) else { throw malformed("a numeric digit \(digit)") }
            text.append(UInt8(48 + digit / 1000))
            text.append(UInt8(48 + digit / 100 % 10))
            text.append(UInt8(48 + digit / 10 % 10))
            text.append(UInt8(48 + digit % 10))
        }
        text.append(101) // e
        text.append(contentsOf: String(4 * (weight + 1)).utf8)
        guard let d = Double(String(decoding: text, as: UTF8.self)) else { throw malformed("a numeric out of a double's range") }
        return d
    }
}
