import Foundation

/// A JSON array of objects as an import table: columns in the order keys first appear,
/// nested arrays and objects kept as JSON text.
struct JSONImport {
    let path: String
    let data: Data

    func table() throws -> ImportTable {
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
                        throw StoreError.importFailed(path: path, line: nil, reason: "element \(n + 1): the key \(SchemaName.shown(key)) \(problem)")
                    }
                    index[key] = columns.count; columns.append(key)
                }
                guard let value = try Self.value(element) else {
                    throw StoreError.importFailed(path: path, line: nil,
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
                try body(n + 1) { i, attribute in
                    var value = row[columns[i]] ?? .null
                    if value.isNull { return .null }
                    func failure(_ reason: String) -> StoreError {
                        .importFailed(path: path, line: nil, reason: "element \(n + 1): '\(attribute.name)' " + reason)
                    }
                    switch (attribute.type, value) {
                    case (.double, .integer(let i)), (.decimal, .integer(let i)):
                        // A double would keep 9007199254740992 for 9007199254740993: refused, not rounded.
                        if Double(exactly: i) == nil { throw failure("expects \(attribute.type.rawValue), got \(i), an integer a double cannot hold exactly") }
                    case (.string, .integer(let i)):
                        // A column of numbers and text (or of integers too large to sit
                        // beside fractions in a double) is text: numbers keep their digits.
                        value = .text(String(i))
                    case (.string, .real(let d)):
                        value = .text(d.isFinite ? "\(d)" : Value.format(d))
                    default:
                        break
                    }
                    switch attribute.type.coerce(value) {
                    case .success(.date(let d)) where !Value.dateRange.contains(d):
                        // coerce accepts any ISO 8601 text, year 0000 too, which reads back as "date out of range".
                        throw StoreError.importFailed(path: path, line: nil, reason: "element \(n + 1): " + outOfRange(attribute, value.displayString))
                    case .success(let v): return v
                    case .failure:
                        // A date text outside the range is refused by coerce: say which.
                        if attribute.type == .date, case .text(let text) = value, let seconds = Value.parseISO8601(text),
                           !Value.dateRange.contains(seconds) {
                            throw StoreError.importFailed(path: path, line: nil, reason: "element \(n + 1): " + outOfRange(attribute, text))
                        }
                        throw StoreError.importFailed(path: path, line: nil,
                            reason: "element \(n + 1): '\(attribute.name)' expects \(attribute.type.rawValue), got \(describe(value))")
                    }
                }
            }
        }
    }

    /// The value of a JSON element, or nil for an integer beyond Int64 (JSONSerialization
    /// hands those out as unsigned, which Int64 would read as negative).
    static func value(_ any: Any) throws -> Value? {
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
            let json = try JSONSerialization.data(withJSONObject: any, options: [.sortedKeys])
            return .text(String(decoding: json, as: UTF8.self))
        }
    }
}
