import CQuarryRows
import CQuarrySignals
import Foundation
import QuarryModel

/// A CSV file as an import table, streamed: the header names the columns (or, in a file
/// without one, `column1`, `column2`, …: `CSVFirstRecord`), the first
/// `sampleRows` records are read to infer the types, and the rows are then read again
/// from the start, a chunk at a time, as they are inserted. A later cell that does not
/// fit what the sample inferred is found as it is read (see `ImportRestart`).
struct CSVImport {
    let path: String
    /// A new source over the input from its first byte.
    package let open: () throws -> ByteSource
    /// How many records the types are inferred from before inserting starts.
    var sampleRows = 20_000
    /// The fields read as nil.
    var nulls = NullTexts.standard
    /// The byte between fields (`CSVSeparator` finds it when the import is not told).
    var separator = CSVSeparator.comma
    /// Whether the first record names the columns; nil: as it reads (`CSVFirstRecord`).
    var header: Bool?

    func table() throws -> ImportTable {
        let reader = CSVReader(source: try open(), separator: separator)
        guard try read(reader) else { throw StoreError.importFailed(path: path, line: nil, reason: "the file is empty") }
        let firstLine = reader.line
        let first = CSVFirstRecord(reader)
        // A header quoted throughout: the writer quotes every field, so quotes mean nothing.
        let quotesEverything = first.quotesEverything
        var column = ColumnType()
        column.quotedIsText = !quotesEverything
        // And a quoted empty field is no empty text there (`NullTexts`).
        let nulls = {
            var nulls = self.nulls
            nulls.quotedEmptyIsNil = quotesEverything
            return nulls
        }()
        column.nulls = nulls
        let width = first.fields.count
        var types = Array(repeating: column, count: width)
        var count = 0
        var complete = false
        while true {
            guard count < sampleRows else { break }
            guard try read(reader) else {
                complete = true
                break
            }
            if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError.stopped() }
            try checkShape(reader, width)
            let line = reader.line
            for i in 0..<width { reader.withField(i) { b, quoted in types[i].observe(b, quoted: quoted, line: line) } }
            count += 1
        }
        // Whether the first record names the columns: as told, else as it reads
        // (`CSVFirstRecord`). A record of data is a row, observed as the others were.
        let data = header == nil ? first.readsAsData(under: types) : nil
        let named = header ?? (data == nil)
        let names = named ? try first.names(path: path) : (columns: CSVFirstRecord.generatedNames(width), unnamed: [])
        let columns = names.columns
        if !named {
            for (i, field) in first.fields.enumerated() {
                field.bytes.withUnsafeBufferPointer { b in types[i].observe(b, quoted: field.quoted, line: firstLine) }
            }
            count += 1
        }
        let path = self.path
        let open = self.open
        let separator = self.separator
        let progress = ReadProgress()
        var table = ImportTable(
            columns: columns, types: types, count: complete ? count : nil, progress: progress,
            produce: { check, attributes, fixed, pipeline in
                try Self.produce(
                    reader: CSVReader(source: try open(), separator: separator), header: named, width: width, check: check,
                    attributes: attributes, fixed: fixed, pipeline: pipeline, path: path, nulls: nulls)
            }
        ) { check, body in
            let reader = CSVReader(source: try open(), separator: separator)
            if named { _ = try reader.next() }
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
                        reader.withField(i) { b, quoted in types![i].observe(b, quoted: quoted, line: line) }
                        if types![i].differs(from: before) { throw ImportRestart(types: types!) }
                    }
                }
                try body(line) { i, attribute in
                    try reader.withField(i) { b, quoted in
                        try CSVImport.value(b, quoted: quoted, attribute, path: path, line: line, column: i + 1, nulls: nulls)
                    }
                }
            }
        }
        table.firstRowIsData = data
        table.namedByFile = named
        table.unnamedColumns = names.unnamed
        return table
    }

    /// How the fast path reads a column's cells (`produce`); `other` always takes the slow one.
    private enum FastKind { case int64, double, decimal, bool, date, string, other }

    /// Every row into the pipeline's batches, on the parser thread. Each cell is taken
    /// straight from the read buffer where it plainly fits its attribute (an integer, a
    /// double, a date, text that is valid UTF-8) and fits the sampled types; a row with a
    /// cell that does not is read again the way `rows` reads it (the sampled types
    /// widened, or the cell converted and refused), so both give the same rows and errors.
    static func produce(
        reader: CSVReader, header: Bool, width: Int, check: [ColumnType]?, attributes: [AttributeDescription],
        fixed: [Value], pipeline: ImportPipeline, path: String, nulls: NullTexts
    ) throws {
        if header { _ = try reader.next() }
        var types = check
        let kinds: [FastKind] = attributes.map { a in
            switch a.type {
            case .int64: return .int64
            case .double: return .double
            case .decimal: return .decimal
            case .bool: return .bool
            case .date: return .date
            case .string: return .string
            default: return .other
            }
        }
        let optional = attributes.map(\.isOptional)
        var batch: CellBatch?
        var n = 0
        while try Self.read(reader, path: path) {
            let line = reader.line
            n += 1
            if n % 4096 == 0, quarry_should_stop() != 0 { throw StoreError.stopped() }
            if reader.fields.count != width {
                throw StoreError.importFailed(path: path, line: line, reason: "expected \(width) fields, got \(reader.fields.count)")
            }
            if batch == nil { batch = pipeline.take() }
            guard let current = batch else { throw ImportPipeline.Stopped() }
            let mark = current.arenaUsed
            current.beginRow(line: line)
            var fast = true
            for i in 0..<width {
                let kind = kinds[i]
                // Text fits a column the sample saw only nil in no more than any other value.
                let textFits = types.map { $0[i].sawValue || $0[i].declared != nil } ?? true
                fast = reader.withField(i) { b, quoted in
                    if nulls.contains(b, quoted: quoted) {
                        guard optional[i] else { return false }
                        current.putNull()
                        return true
                    }
                    // A leading zero makes an inferred column text (see ColumnType).
                    if types != nil, kind == .int64 || kind == .double || kind == .decimal, ColumnType.hasLeadingZero(b) { return false }
                    switch kind {
                    case .int64:
                        guard let v = ColumnType.integer(b) else { return false }
                        current.put(v)
                    case .double:
                        if let v = ColumnType.integer(b) {
                            guard let d = Double(exactly: v) else { return false }
                            current.put(d)
                        } else {
                            guard ColumnType.isExactDouble(b, nil), let d = ColumnType.double(b) else { return false }
                            current.put(d)
                        }
                    case .decimal:
                        // Its text, every digit, as `value` gives it: plain digits and a point here.
                        guard ColumnType.isPlainDecimal(b) else { return false }
                        current.put(b, blob: false)
                    case .bool:
                        guard let flag = ColumnType.bool(b) else { return false }
                        current.put(Int64(flag ? 1 : 0))
                    case .date:
                        guard let seconds = Value.parseISO8601(bytes: b), Value.dateRange.contains(seconds) else { return false }
                        current.put(seconds)
                    case .string:
                        guard textFits, b.baseAddress.map({ quarry_is_plain_utf8($0, b.count) != 0 }) ?? true else { return false }
                        current.put(b, blob: false)
                    case .other:
                        return false
                    }
                    return true
                }
                if !fast { break }
            }
            if !fast {
                current.abandonRow(arenaMark: mark)
                if types != nil {
                    // Types from a sample: a cell that would change a column's type (or
                    // make it optional) starts the import again with the wider type.
                    for i in 0..<width where !reader.withField(i, { b, quoted in types![i].fits(b, quoted: quoted) }) {
                        let before = types![i]
                        reader.withField(i) { b, quoted in types![i].observe(b, quoted: quoted, line: line) }
                        if types![i].differs(from: before) { throw ImportRestart(types: types!) }
                    }
                }
                current.beginRow(line: line)
                for i in 0..<width {
                    let value = try reader.withField(i) { b, quoted in
                        try CSVImport.value(b, quoted: quoted, attributes[i], path: path, line: line, column: i + 1, nulls: nulls)
                    }
                    if value.isNull, !attributes[i].isOptional {
                        throw StoreError.importFailed(
                            path: path, line: line, field: .column(i + 1, attributes[i].name), reason: "'\(attributes[i].name)' is required but empty"
                        )
                    }
                    current.put(value)
                }
            }
            for value in fixed { current.put(value) }
            current.endRow()
            if current.isFull {
                current.bytesRead = reader.bytesRead
                pipeline.send(current)
                batch = nil
            }
        }
        if let batch {
            batch.bytesRead = reader.bytesRead
            pipeline.send(batch)
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

    package static func value(
        _ b: UnsafeBufferPointer<UInt8>, quoted: Bool, _ attribute: AttributeDescription,
        path: String, line: Int, column: Int, nulls: NullTexts
    ) throws -> Value {
        if nulls.contains(b, quoted: quoted) { return .null }
        // A quoted empty field (`""`) is the empty text (`NullTexts`): a string's, or a
        // binary's no bytes; a type with no empty value reads it as the empty field it is.
        if b.isEmpty, nulls.readsEmpty, attribute.type != .string, attribute.type != .binary { return .null }
        let field = ErrorDetail<ImportField?>.column(column, attribute.name)
        func fail() -> StoreError {
            let text = String(decoding: b.prefix(40), as: UTF8.self)
            return .importFailed(
                path: path, line: line, field: field, reason: "'\(attribute.name)' expects \(attribute.type.rawValue), got \"\(text)\"")
        }
        switch attribute.type {
        case .int16, .int32, .int64:
            guard let i = ColumnType.integer(b) else { throw fail() }
            // Every Int64 is an int64: coerce (a Result and a closure per cell) only checks narrower ranges.
            if attribute.type == .int64 { return .integer(i) }
            return try attribute.type.coerce(.integer(i)).mapError { _ in fail() }.get()
        case .decimal:
            // Its text, every digit: PostgreSQL's numeric keeps them all, and an import into
            // SQLite refuses one no double holds as a save does (`ImportRequest+SQLite`).
            let text = String(decoding: b, as: UTF8.self)
            guard DecimalText.isDecimal(text) else { throw fail() }
            return .decimal(text)
        case .double:
            let integer = ColumnType.integer(b)
            // A double would keep 9007199254740992 for 9007199254740993: refused, not rounded.
            guard ColumnType.isExactDouble(b, integer) else {
                throw StoreError.importFailed(
                    path: path, line: line, field: field,
                    reason:
                        "'\(attribute.name)' expects \(attribute.type.rawValue), got \"\(String(decoding: b.prefix(40), as: UTF8.self))\", an integer a double cannot hold exactly"
                )
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
                throw StoreError.importFailed(
                    path: path, line: line, field: field, reason: outOfRange(attribute, String(decoding: b.prefix(40), as: UTF8.self)))
            }
            return .date(seconds)
        case .binary:
            guard let bytes = BinaryText.bytes(b) else {
                throw StoreError.importFailed(path: path, line: line, field: field, reason: BinaryText.refusal(attribute, b))
            }
            return .blob(bytes)
        case .string, .uuid, .json:
            guard let text = String(validating: b, as: UTF8.self) else {
                // Text that is not UTF-8 goes into a string as its bytes, whatever they are,
                // as export writes a TEXT cell another program stored.
                if attribute.type == .string { return .textBytes(Array(b)) }
                throw StoreError.importFailed(path: path, line: line, field: field, reason: "'\(attribute.name)' is not valid UTF-8")
            }
            if attribute.type == .string {
                if b.contains(0) {
                    throw StoreError.importFailed(
                        path: path, line: line, field: field,
                        reason: "'\(attribute.name)' holds a NUL byte, which a string cannot (import into a binary attribute)")
                }
                // Valid UTF-8 without NUL is all a string needs: coerce would check again.
                return .text(text)
            }
            return try attribute.type.coerce(.text(text)).mapError { _ in fail() }.get()
        }
    }
}

/// The reason for a date cell outside the years Quarry can hold (one of 0001 to 9999 in UTC).
func outOfRange(_ attribute: AttributeDescription, _ text: String) -> String {
    "'\(attribute.name)' holds \(text), outside the dates a date attribute can hold (years 0001 to 9999 UTC)"
}
