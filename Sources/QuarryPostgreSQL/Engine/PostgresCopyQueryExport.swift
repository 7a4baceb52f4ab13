import CQuarrySignals
import Foundation
import QuarryEngine
import QuarryModel
import QuarryStore

/// `export({ sql = ... })` from a PostgreSQL store: the statement a person wrote, through
/// `COPY (...) TO STDOUT (FORMAT binary)`, each field written by Quarry's own writer as
/// `export(sql(...))` writes the value `sql()` reads from the server's text for it
/// (`PostgresValue.value`, dates as text, a boolean as 1 or 0, a bytea as the text a Lua
/// string reads back as: `QueryColumns`), so the file is the same byte for byte, with no
/// `PGresult`, text parsing or `Value` per row. `PostgresCopyExport` does the same for
/// `export(fetch(...))`, by attribute types; this reads by the result's types alone.
///
/// Only the types `CopyField` lists are read so. A statement with another column type, with
/// arguments (COPY takes none: they are bound, never spliced), with a repeated column
/// name, or that COPY cannot wrap (`SHOW`, or a comment after its `;`) returns nil before
/// anything is written, and its rows are read a row at a time instead.
extension PostgresConnection {
    /// Writes the rows of `sql` (described, numbered, without parameters) through COPY;
    /// returns how many, or nil when it cannot go through COPY (see above), before
    /// anything is written. Runs inside `prepareReadOnly`'s read-only transaction: the
    /// COPY is tried under a savepoint, so a wrapping the server refuses leaves the
    /// transaction usable for the row-at-a-time read.
    func copyQueryExport(_ sql: String, columns: QueryColumns, writer: inout TableWriter, file: OutputFile) throws -> Int? {
        guard let oids = try? resultTypes(of: sql), oids.count == columns.names.count else { return nil }
        var fields: [CopyField] = []
        for oid in oids {
            guard let field = CopyField(oid: oid) else { return nil }
            fields.append(field)
        }
        // A `;` at the end would close the COPY's parenthesis early; a line comment at the
        // end would hide it, so the parenthesis goes on a line of its own.
        var body = Substring(sql)
        while let last = body.last, last == ";" || last.isWhitespace { body = body.dropLast() }
        let copy = "COPY (" + body + "\n) TO STDOUT (FORMAT binary)"
        let reader = CopyRowReader(width: fields.count)
        var count = 0
        var started = false
        // A numeric's text, made in one buffer for every field.
        var scratch: [UInt8] = []
        try execute("SAVEPOINT quarry_copy")
        do {
            try copyOut(copy) { message in
                started = true
                try reader.consume(message) { row in
                    if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError.stopped() }
                    try file.append { out in
                        writer.beginRow(into: &out)
                        for (column, field) in fields.enumerated() {
                            if let bytes = reader.field(column, of: row) {
                                try Self.writeQueryField(bytes, as: field, writer: &writer, into: &out, scratch: &scratch)
                            } else {
                                writer.null(into: &out)
                            }
                        }
                        writer.endRow(into: &out)
                    }
                    count += 1
                }
            }
        } catch StoreError.engine(let failure as PostgresFailure) where !started && Self.refusesWrapping(failure.sqlState) {
            // The server would not take the statement inside COPY: read it row by row.
            try execute("ROLLBACK TO SAVEPOINT quarry_copy")
            return nil
        }
        try execute("RELEASE SAVEPOINT quarry_copy")
        return count
    }

    /// A refusal of the COPY around a statement the server described: a syntax error
    /// (class 42) or one COPY does not support (0A000), never one of running it.
    private static func refusesWrapping(_ state: String?) -> Bool {
        guard let state else { return false }
        return state.hasPrefix("42") || state == "0A000"
    }

    /// One field as `sql()` reads the server's text for it, then Lua gives it back.
    private static func writeQueryField(
        _ b: UnsafeRawBufferPointer, as field: CopyField, writer: inout TableWriter, into out: inout [UInt8],
        scratch: inout [UInt8]
    ) throws {
        func need(_ size: Int) throws {
            guard b.count == size else { throw CopyRowReader.malformed("a field of \(b.count) bytes where \(size) were expected") }
        }
        func real(_ d: Double) {
            // NaN reads as nil (PostgresValue.value).
            if d.isNaN { writer.null(into: &out) } else { writer.real(d, into: &out) }
        }
        func text(_ s: String) {
            var s = s
            s.withUTF8 { writer.text($0, into: &out) }
        }
        /// A date as `sql()` shows it: ISO 8601 in UTC, or the server's text out of that range.
        func dateText(_ seconds: Double) {
            text(Value.dateRange.contains(seconds) ? Value.exactISO8601(seconds) : PostgresValue.timestamp(seconds))
        }
        switch try field.number(b) {
        case .integer(let i)?: return writer.integer(i, into: &out)
        case .real(let d)?: return real(d)
        case nil: break
        }
        switch field {
        case .bool, .int2, .int4, .oid, .int8, .float8, .float4:
            break // numbers, written above
        case .numeric:
            // Exact as its text (`195.10`); NaN and the infinities as doubles. Digits and a
            // point are decimal text (`DecimalText.isDecimal`) up to a thousand of them.
            if try CopyRowReader.appendNumericText(b, to: &scratch) {
                if scratch.count <= 1000 {
                    // A short text (up to 15 bytes: most prices) is held in the string itself.
                    writer.decimal(String(decoding: scratch, as: UTF8.self), into: &out)
                } else if case let digits = String(decoding: scratch, as: UTF8.self), DecimalText.isDecimal(digits) {
                    writer.decimal(digits, into: &out)
                } else {
                    real(try CopyRowReader.numeric(b))
                }
            } else {
                real(try CopyRowReader.numeric(b))
            }
        case .timestamp:
            try need(8)
            let micros = Int64(bigEndian: b.loadUnaligned(as: Int64.self))
            // 'infinity' stays the server's text (PostgresValue.value).
            if micros == .max || micros == .min {
                text(micros == .max ? "infinity" : "-infinity")
            } else {
                dateText(CopyRowReader.seconds(micros))
            }
        case .date:
            try need(4)
            let days = Int32(bigEndian: b.loadUnaligned(as: Int32.self))
            if days == .max || days == .min {
                text(days == .max ? "infinity" : "-infinity")
            } else {
                // Its day, as `sql()` shows a `date` (`PostgresRows.datesAsText`).
                text(PostgresValue.day(CopyRowReader.seconds(Int64(days) * 86_400_000_000)))
            }
        case .bytea, .text:
            // Lua gives both back as text, its bytes as they are.
            writer.text(b.assumingMemoryBound(to: UInt8.self), into: &out)
        case .jsonb:
            // A version byte (1), then the text the server would write.
            guard b.count >= 1, b[0] == 1 else { throw CopyRowReader.malformed("a jsonb of version \(b.first ?? 0)") }
            writer.text(UnsafeRawBufferPointer(rebasing: b[1...]).assumingMemoryBound(to: UInt8.self), into: &out)
        case .uuid:
            try need(16)
            var digits: [UInt8] = []
            digits.reserveCapacity(36)
            for (i, byte) in b.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 { digits.append(45) } // -
                digits.append(hex[Int(byte >> 4)])
                digits.append(hex[Int(byte & 15)])
            }
            digits.withUnsafeBufferPointer { writer.text($0, into: &out) }
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
