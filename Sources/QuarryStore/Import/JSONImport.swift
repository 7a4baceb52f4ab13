import CQuarrySignals
import Foundation
import QuarryModel

/// A JSON array of objects as an import table: columns in the order keys first appear,
/// nested arrays and objects kept as JSON text.
struct JSONImport {
    let path: String
    /// A new source over the document from its first byte.
    package let open: () throws -> ByteSource

    /// Streams the document twice, an element at a time: once to check it whole and infer
    /// the columns and their types from every element (so no error comes after a row was
    /// inserted that the whole document would not have given first), then to insert.
    func table() throws -> ImportTable {
        var probe = [UInt8](repeating: 0, count: 4)
        var first = try open()
        let n = try probe.withUnsafeMutableBytes { try first.read(into: $0) }
        let start = probe[0..<n].first { ![32, 10, 13, 9].contains($0) }
        // UTF-8 that is not an array: refused, once read through a value at a time (held
        // whole, a document from an endless FIFO took all memory), with the message the
        // whole document's parse gives.
        // (A byte-order mark goes to JSONSerialization, which skips it.)
        if n > 0, !probe[0..<n].contains(0), let start, start != 91, start != 0xEF {
            var reader = JSONArrayReader(source: try open())
            do { try reader.skipDocument() } catch is JSONSyntax {
                throw StoreError.importFailed(path: path, line: nil, reason: "not valid JSON")
            }
            throw StoreError.importFailed(path: path, line: nil, reason: "expected a JSON array of objects")
        }
        // Empty, white space only, or UTF-16/32 (which JSONSerialization detects): read whole, as before.
        if n == 0 || probe[0..<n].contains(0) || start.map({ $0 != 91 }) ?? true {
            var bytes = Array(probe[0..<n])
            var chunk = [UInt8](repeating: 0, count: CSVReader.chunkSize)
            while true {
                let got = try chunk.withUnsafeMutableBytes { try first.read(into: $0) }
                if got == 0 { break }
                bytes.append(contentsOf: chunk[0..<got])
            }
            // An array after a byte-order mark, in UTF-16 or UTF-32, or after more white
            // space than the probe holds (a pretty-printed file's indent): read as UTF-8
            // by the same reader, so its numbers keep every digit (a decimal column's
            // values are checked as the file wrote them; JSONSerialization made them
            // doubles) and its keys their order (JSONSerialization's dictionaries have none).
            if let utf8 = Self.utf8(bytes) ?? (bytes.contains(0) ? nil : bytes), utf8.first(where: { ![32, 10, 13, 9].contains($0) }) == 91 {
                return try JSONImport(path: path, open: { BytesSource(utf8) }).streamed()
            }
            return try wholeTable(Data(bytes))
        }
        return try streamed()
    }

    /// The table of a document in UTF-8 that is an array (after white space), read by
    /// `JSONArrayReader` twice, as `table()` says.
    private func streamed() throws -> ImportTable {
        let path = self.path
        func invalid() -> StoreError { .importFailed(path: path, line: nil, reason: "not valid JSON") }
        var columns: [String] = []
        var index: [String: Int] = [:]
        var types: [ColumnType] = []
        var count = 0
        // The first element that is refused; reported once the whole document is known to be JSON.
        var refusal: StoreError?
        var reader = JSONArrayReader(source: try open())
        var slots = KeySlots()
        do {
            guard try reader.begin() else { throw invalid() }
            while let element = try reader.next() {
                count += 1
                if count % 4096 == 0, quarry_should_stop() != 0 { throw StoreError.stopped() }
                guard refusal == nil else { continue }
                guard case .object(let members, let beyond) = element else {
                    refusal = .importFailed(path: path, line: nil, reason: "element \(count) is not an object")
                    continue
                }
                for (k, member) in members.enumerated() where slots.slot(k, member.key, index) == nil {
                    let key = member.key
                    if !key.isEmpty, let problem = SchemaName.problem(key) {
                        refusal = .importFailed(
                            path: path, line: nil, field: .key(key, element: count),
                            reason: "element \(count): the key \(SchemaName.shown(key)) \(problem)")
                        break
                    }
                    index[key] = columns.count
                    columns.append(key)
                    types.append(ColumnType())
                    // Earlier elements lacked this key: nil there.
                    if count > 1 { types[types.count - 1].observe(.null) }
                }
                if refusal != nil { continue }
                if let beyond {
                    refusal = .importFailed(
                        path: path, line: nil, field: .key(beyond.key, element: count),
                        reason: "element \(count): '\(beyond.key)' holds \(beyond.text), " + Self.beyondReason(beyond.text))
                    continue
                }
                var present = 0
                for (k, (key, value)) in members.enumerated() {
                    guard let i = slots.slot(k, key, index) else { continue }
                    types[i].observe(value)
                    present += 1
                }
                if present < columns.count {
                    let given = Set(members.map(\.key))
                    for (i, name) in columns.enumerated() where !given.contains(name) { types[i].observe(.null) }
                }
            }
        } catch is JSONSyntax {
            throw invalid()
        }
        if let refusal { throw refusal }
        let progress = ReadProgress()
        let width = columns.count
        return ImportTable(columns: columns, types: types, count: count, progress: progress) { _, body in
            var reader = JSONArrayReader(source: try open())
            var n = 0
            var row = [Value](repeating: .null, count: width)
            var slots = KeySlots()
            do {
                _ = try reader.begin()
                while let element = try reader.next() {
                    n += 1
                    guard case .object(let members, _) = element else { continue }
                    for i in 0..<width { row[i] = .null }
                    for (k, (key, value)) in members.enumerated() { if let i = slots.slot(k, key, index) { row[i] = value } }
                    try body(n) { i, attribute in try Self.convert(row[i], attribute, element: n - 1, path: path) }
                }
            } catch is JSONSyntax {
                throw invalid()
            }
        }
    }

    /// A JSON value as `attribute`'s type, or why it cannot be; `n` counts elements from 0.
    static func convert(_ value: Value, _ attribute: AttributeDescription, element n: Int, path: String) throws -> Value {
        var value = value
        if value.isNull { return .null }
        func failure(_ reason: String) -> StoreError {
            .importFailed(
                path: path, line: nil, field: .key(attribute.name, element: n + 1), reason: "element \(n + 1): '\(attribute.name)' " + reason)
        }
        switch (attribute.type, value) {
        case (.json, .textBytes(let bytes)):
            // `{"$bytes": ...}` read as text's bytes (`value(_:)`); a JSON attribute keeps
            // the object as it was written.
            value = .text(#"{"$bytes":""# + Data(bytes).base64EncodedString() + #""}"#)
        case (.binary, .text(let text)):
            // Bytes are exported as base64 text (`BinaryText`): the bytes it stands for.
            guard let bytes = BinaryText.bytes(text) else {
                throw StoreError.importFailed(
                    path: path, line: nil, field: .key(attribute.name, element: n + 1),
                    reason: "element \(n + 1): " + BinaryText.refusal(attribute, text))
            }
            return .blob(bytes)
        case (.double, .integer(let i)), (.decimal, .integer(let i)):
            // A double would keep 9007199254740992 for 9007199254740993: refused, not rounded.
            if Double(exactly: i) == nil { throw failure("expects \(attribute.type.rawValue), got \(i), an integer a double cannot hold exactly") }
        case (.string, .integer(let i)):
            // A column of numbers and text (or of integers too large to sit
            // beside fractions in a double) is text: numbers keep their digits.
            value = .text(String(i))
        case (.string, .real(let d)):
            value = .text(d.isFinite ? "\(d)" : Value.format(d))
        // A number with more digits than a double keeps, as text as its double was before.
        case (.string, .decimal(let s)):
            value = .text("\(DecimalText.double(s))")
        default:
            break
        }
        switch attribute.type.coerce(value) {
        case .success(.date(let d)) where !Value.dateRange.contains(d):
            // coerce accepts any ISO 8601 text, year 0000 too, which reads back as "date out of range".
            throw StoreError.importFailed(
                path: path, line: nil, field: .key(attribute.name, element: n + 1),
                reason: "element \(n + 1): " + outOfRange(attribute, value.displayString))
        case .success(let v): return v
        case .failure:
            // A date text outside the range is refused by coerce: say which.
            if attribute.type == .date, case .text(let text) = value, let seconds = Value.parseISO8601(text),
                !Value.dateRange.contains(seconds)
            {
                throw StoreError.importFailed(
                    path: path, line: nil, field: .key(attribute.name, element: n + 1), reason: "element \(n + 1): " + outOfRange(attribute, text))
            }
            throw StoreError.importFailed(
                path: path, line: nil, field: .key(attribute.name, element: n + 1),
                reason: "element \(n + 1): '\(attribute.name)' expects \(attribute.type.rawValue), got \(describe(value))")
        }
    }

    /// A document in UTF-8 after a byte-order mark, UTF-16 or UTF-32 (told by its mark, else
    /// by where its first bytes are zero, as RFC 4627 and JSONSerialization tell them), as
    /// UTF-8 without the mark; nil for another document or one that does not decode.
    static func utf8(_ bytes: [UInt8]) -> [UInt8]? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        guard bytes.contains(0) else { return nil }
        let marks: [([UInt8], String.Encoding)] = [
            ([0xFF, 0xFE, 0, 0], .utf32LittleEndian), ([0, 0, 0xFE, 0xFF], .utf32BigEndian), ([0xFF, 0xFE], .utf16LittleEndian),
            ([0xFE, 0xFF], .utf16BigEndian)
        ]
        var body = bytes[...]
        var encoding: String.Encoding?
        if let (mark, marked) = marks.first(where: { bytes.starts(with: $0.0) }) {
            body = bytes.dropFirst(mark.count)
            encoding = marked
        } else if bytes.count >= 4 {
            let zero = bytes.prefix(4).map { $0 == 0 }
            switch (zero[0], zero[1], zero[2], zero[3]) {
            case (true, true, true, false): encoding = .utf32BigEndian
            case (false, true, true, true): encoding = .utf32LittleEndian
            case (true, false, _, _): encoding = .utf16BigEndian
            case (false, true, _, _): encoding = .utf16LittleEndian
            default: break
            }
        }
        guard let encoding, let text = String(data: Data(body), encoding: encoding) else { return nil }
        return Array(text.utf8)
    }

    /// The whole document parsed at once: a document that is not an array (refused with
    /// the message it always had) or not UTF-8. Its columns come element by element, each
    /// one's new keys sorted: a parsed dictionary keeps no order of the file's.
    func wholeTable(_ data: Data) throws -> ImportTable {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            throw StoreError.importFailed(path: path, line: nil, reason: "not valid JSON")
        }
        guard let array = parsed as? [Any] else {
            throw StoreError.importFailed(path: path, line: nil, reason: "expected a JSON array of objects")
        }
        var columns: [String] = []
        var index: [String: Int] = [:]
        var rows: [[String: Value]] = []
        for (n, element) in array.enumerated() {
            guard let object = element as? [String: Any] else {
                throw StoreError.importFailed(path: path, line: nil, reason: "element \(n + 1) is not an object")
            }
            var row: [String: Value] = [:]
            for (key, element) in object.sorted(by: { $0.key < $1.key }) {
                if index[key] == nil {
                    if !key.isEmpty, let problem = SchemaName.problem(key) {
                        throw StoreError.importFailed(
                            path: path, line: nil, field: .key(key, element: n + 1),
                            reason: "element \(n + 1): the key \(SchemaName.shown(key)) \(problem)")
                    }
                    index[key] = columns.count
                    columns.append(key)
                }
                guard let value = try Self.value(element) else {
                    throw StoreError.importFailed(
                        path: path, line: nil, field: .key(key, element: n + 1),
                        reason: "element \(n + 1): '\(key)' holds \(element), an integer beyond the 64-bit integers Quarry holds")
                }
                row[key] = value
            }
            rows.append(row)
        }
        var types = Array(repeating: ColumnType(), count: columns.count)
        for row in rows { for (i, name) in columns.enumerated() { types[i].observe(row[name] ?? .null) } }
        let path = self.path
        return ImportTable(columns: columns, types: types, count: rows.count) { _, body in
            for (n, row) in rows.enumerated() {
                try body(n + 1) { i, attribute in try Self.convert(row[columns[i]] ?? .null, attribute, element: n, path: path) }
            }
        }
    }

    /// Why a number is refused: an integer beyond Int64, or a number beyond a double's
    /// range (1e400: valid JSON that no double holds; stored as text it would turn a
    /// column of numbers into text, so it is refused by name, as a too large integer is).
    static func beyondReason(_ text: String) -> String {
        isIntegerText(text)
            ? "an integer beyond the 64-bit integers Quarry holds"
            : "a number beyond the range of a double (about ±1.8e308)"
    }

    /// Whether a JSON number's text has neither fraction nor exponent.
    static func isIntegerText(_ text: String) -> Bool { !text.contains { $0 == "." || $0 == "e" || $0 == "E" } }

    /// The value of a JSON element, or nil for an integer beyond Int64 (JSONSerialization
    /// hands those out as unsigned, which Int64 would read as negative).
    package static func value(_ any: Any) throws -> Value? {
        switch any {
        case is NSNull: return .null
        case let b as Bool where !(any is NSNumber) || String(cString: (any as! NSNumber).objCType) == "c":
            return .bool(b)
        case let n as NSNumber:
            let kind = String(cString: n.objCType)
            if kind == "d" || kind == "f" { return .real(n.doubleValue) }
            if kind == "Q" || kind == "L" || kind == "I" {
                guard let i = Int64(exactly: n.uint64Value) else { return nil }
                return .integer(i)
            }
            return .integer(n.int64Value)
        case let s as String: return .text(s)
        default:
            // Text that is not UTF-8, as export writes it to JSON (`{"$bytes": base64}`):
            // its bytes again.
            if let object = any as? [String: Any], object.count == 1, let encoded = object["$bytes"] as? String,
                let bytes = Data(base64Encoded: encoded)
            {
                return .textBytes([UInt8](bytes))
            }
            let json = try JSONSerialization.data(withJSONObject: any, options: [.sortedKeys])
            return .text(String(decoding: json, as: UTF8.self))
        }
    }
}

/// Each key's column, remembered by its place among an element's members: the elements
/// of an array mostly share their keys, so comparing a key with the last element's at the
/// same place spares hashing it (a dictionary lookup per member was a sixth of a JSON
/// import's time).
struct KeySlots {
    private var keys: [String] = []
    private var columns: [Int] = []

    /// The column of `key`, the `k`th member of its element, or nil when `index` has none.
    mutating func slot(_ k: Int, _ key: String, _ index: [String: Int]) -> Int? {
        if k < keys.count, keys[k] == key { return columns[k] }
        guard let column = index[key] else { return nil }
        if k < keys.count {
            keys[k] = key
            columns[k] = column
        } else if k == keys.count {
            keys.append(key)
            columns.append(column)
        }
        return column
    }
}

extension Value {
    /// A scalar as `JSONSerialization` parsed it, with booleans, integers and reals told
    /// apart as JSON import tells them apart.
    public init(jsonScalar any: Any) {
        self = (try? JSONImport.value(any)) ?? .null
    }
}
