import CQuarrySignals
import GRDB
/// A CSV file as an import table: the header names the columns, the first pass checks
/// every row's shape and infers the types, the second converts the cells.
struct CSVImport {
    let path: String
    let bytes: [UInt8]

    func table() throws -> ImportTable {
        var reader = CSVReader(bytes: bytes)
        guard try read(&reader) else { throw StoreError.importFailed(path: path, line: nil, reason: "the file is empty") }
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
        while try read(&reader) {
            if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError(DatabaseError(resultCode: .SQLITE_INTERRUPT)) }
            try checkShape(reader, columns.count)
            for i in columns.indices { reader.withField(i) { b, quoted in types[i].observe(b, quoted: quoted) } }
            count += 1
        }
        let path = self.path, bytes = self.bytes
        return ImportTable(columns: columns, types: types, count: count) { body in
            var reader = CSVReader(bytes: bytes)
            _ = try reader.next()
            while try reader.next() {
                let line = reader.line
                try body(line) { i, attribute in
                    try reader.withField(i) { b, quoted in try CSVImport.value(b, quoted: quoted, attribute, path: path, line: line) }
                }
            }
        }
    }

    private func read(_ reader: inout CSVReader) throws -> Bool {
        do { return try reader.next() } catch let error as CSVReader.Malformed {
            throw StoreError.importFailed(path: path, line: error.line, reason: error.message)
        }
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
            if attribute.type == .string, text.utf8.contains(0) {
                throw StoreError.importFailed(path: path, line: line, reason: "'\(attribute.name)' holds a NUL byte, which a string cannot (import into a binary attribute)")
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
