import CQuarrySignals
import GRDB
/// A CSV file as an import table, streamed: the header names the columns, the first
/// `sampleRows` records are read to infer the types, and the rows are then read again
/// from the start, a chunk at a time, as they are inserted. A later cell that does not
/// fit what the sample inferred is found as it is read (see `ImportRestart`).
struct CSVImport {
    let path: String
    /// A new source over the input from its first byte.
    let open: () throws -> ByteSource
    /// How many records the types are inferred from before inserting starts.
    var sampleRows = 20_000

    func table() throws -> ImportTable {
        let reader = CSVReader(source: try open())
        guard try read(reader) else { throw StoreError.importFailed(path: path, line: nil, reason: "the file is empty") }
        var columns: [String] = []
        // A set beside the list: a header of 100,000 names is checked in linear time.
        var seen = Set<String>()
        columns.reserveCapacity(reader.fields.count)
        for i in reader.fields.indices {
            guard let decoded = reader.withField(i, { b, _ in String(validating: b, as: UTF8.self) }) else {
                throw StoreError.importFailed(path: path, line: 1, reason: "the name of column \(i + 1) is not valid UTF-8")
            }
            let name = decoded.trimmingCharacters(in: .whitespaces)
            if !name.isEmpty, let problem = SchemaName.problem(name) {
                throw StoreError.importFailed(path: path, line: 1, reason: "the name of column \(i + 1), \(SchemaName.shown(name)), \(problem)")
            }
            if !seen.insert(name).inserted { throw StoreError.importFailed(path: path, line: 1, reason: "column '\(name)' appears twice in the header") }
            columns.append(name)
        }
        var types = Array(repeating: ColumnType(), count: columns.count)
        var count = 0
        var complete = false
        while true {
            guard count < sampleRows else { break }
            guard try read(reader) else { complete = true; break }
            if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT)) }
            try checkShape(reader, columns.count)
            for i in columns.indices { reader.withField(i) { b, quoted in types[i].observe(b, quoted: quoted) } }
            count += 1
        }
        let path = self.path, open = self.open, width = columns.count
        let progress = ReadProgress()
        return ImportTable(columns: columns, types: types, count: complete ? count : nil, progress: progress) { check, body in
            let reader = CSVReader(source: try open())
            _ = try reader.next()
            var types = check
            var n = 0
            while try Self.read(reader, path: path) {
                let line = reader.line
                if n % 4096 == 0 { progress.bytesRead = reader.bytesRead }
                n += 1
                if reader.fields.count != width {
                    throw StoreError.importFailed(path: path, line: line, reason: "expected \(width) fields, got \(reader.fields.count)")
                }
                if types != nil {
                    // Types from a sample: a cell that would change a column's type (or
                    // make it optional) starts the import again with the wider type.
                    for i in 0..<width where !reader.withField(i, { b, quoted in types![i].fits(b, quoted: quoted) }) {
                        let before = types![i]
                        reader.withField(i) { b, quoted in types![i].observe(b, quoted: quoted) }
                        if types![i].differs(from: before) { throw ImportRestart(types: types!) }
                    }
                }
                try body(line) { i, attribute in
                    try reader.withField(i) { b, quoted in try CSVImport.value(b, quoted: quoted, attribute, path: path, line: line) }
                }
            }
        }
    }

    private static func read(_ reader: CSVReader, path: String) throws -> Bool {
        do { return try reader.next() } catch let error as CSVReader.Malformed {
            throw StoreError.importFailed(path: path, line: error.line, reason: error.message)
        }
    }

    private func read(_ reader: CSVReader) throws -> Bool {
        try Self.read(reader, path: path)
    }

    private func checkShape(_ reader: CSVReader, _ expected: Int) throws {
        guard reader.fields.count == expected else {
            throw StoreError.importFailed(path: path, line: reader.line, reason: "expected \(expected) fields, got \(reader.fields.count)")
        }
    }

    static func value(_ b: UnsafeBufferPointer<UInt8>, quoted: Bool, _ attribute: AttributeDescription,
                      path: String, line: Int) throws -> Value {
        if ColumnType.isNil(b, quoted: quoted) { return .null }
        func fail() -> StoreError {
            let text = String(decoding: b.prefix(40), as: UTF8.self)
            return .importFailed(path: path, line: line, reason: "'\(attribute.name)' expects \(attribute.type.rawValue), got \"\(text)\"")
        }
        switch attribute.type {
        case .int16, .int32, .int64:
            guard let i = ColumnType.integer(b) else { throw fail() }
            // Every Int64 is an int64: coerce (a Result and a closure per cell) only checks narrower ranges.
            if attribute.type == .int64 { return .integer(i) }
            return try attribute.type.coerce(.integer(i)).mapError { _ in fail() }.get()
        case .double, .decimal:
            let integer = ColumnType.integer(b)
            // A double would keep 9007199254740992 for 9007199254740993: refused, not rounded.
            guard ColumnType.isExactDouble(b, integer) else {
                throw StoreError.importFailed(path: path, line: line,
                    reason: "'\(attribute.name)' expects \(attribute.type.rawValue), got \"\(String(decoding: b.prefix(40), as: UTF8.self))\", an integer a double cannot hold exactly")
            }
            if let i = integer { return .real(Double(i)) }
            guard let d = ColumnType.double(b) else { throw fail() }
            return .real(d)
        case .bool:
            if let flag = ColumnType.bool(b) { return .bool(flag) }
            if let i = ColumnType.integer(b), i == 0 || i == 1 { return .bool(i == 1) }
            throw fail()
        case .date:
            guard let seconds = Value.parseISO8601(bytes: b) else { throw fail() }
            // Year 0000 parses, but would read back as "date out of range".
            guard Value.dateRange.contains(seconds) else {
                throw StoreError.importFailed(path: path, line: line, reason: outOfRange(attribute, String(decoding: b.prefix(40), as: UTF8.self)))
            }
            return .date(seconds)
        case .binary:
            return .blob(Array(b))
        case .string, .uuid, .json:
            guard let text = String(validating: b, as: UTF8.self) else {
                throw StoreError.importFailed(path: path, line: line, reason: "'\(attribute.name)' is not valid UTF-8")
            }
            if attribute.type == .string {
                if b.contains(0) {
                    throw StoreError.importFailed(path: path, line: line, reason: "'\(attribute.name)' holds a NUL byte, which a string cannot (import into a binary attribute)")
                }
                // Valid UTF-8 without NUL is all a string needs: coerce would check again.
                return .text(text)
            }
            return try attribute.type.coerce(.text(text)).mapError { _ in fail() }.get()
        }
    }
}

import Foundation

/// The reason for a date cell outside the years Quarry can hold (one of 0001 to 9999 in UTC).
func outOfRange(_ attribute: AttributeDescription, _ text: String) -> String {
    "'\(attribute.name)' holds \(text), outside the dates a date attribute can hold (years 0001 to 9999 UTC)"
}
