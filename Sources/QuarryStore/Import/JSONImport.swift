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
            for key in object.keys.sorted() {
                if index[key] == nil { index[key] = columns.count; columns.append(key) }
                row[key] = try Self.value(object[key]!)
            }
            rows.append(row)
        }
        var types = Array(repeating: ColumnType(), count: columns.count)
        for row in rows { for (i, name) in columns.enumerated() { types[i].observe(row[name] ?? .null) } }
        let path = self.path
        return ImportTable(columns: columns, types: types, count: rows.count) { body in
            for (n, row) in rows.enumerated() {
                try body(n + 1) { i, attribute in
                    let value = row[columns[i]] ?? .null
                    if value.isNull { return .null }
                    switch attribute.type.coerce(value) {
                    case .success(let v): return v
                    case .failure:
                        throw StoreError.importFailed(path: path, line: nil,
                            reason: "element \(n + 1): '\(attribute.name)' expects \(attribute.type.rawValue), got \(value.kindName)")
                    }
                }
            }
        }
    }

    static func value(_ any: Any) throws -> Value {
        switch any {
        case is NSNull: return .null
        case let b as Bool where !(any is NSNumber) || String(cString: (any as! NSNumber).objCType) == "c":
            return .bool(b)
        case let n as NSNumber:
            let kind = String(cString: n.objCType)
            if kind == "d" || kind == "f" { return .real(n.doubleValue) }
            return .integer(n.int64Value)
        case let s as String: return .text(s)
        default:
            let json = try JSONSerialization.data(withJSONObject: any, options: [.sortedKeys])
            return .text(String(decoding: json, as: UTF8.self))
        }
    }
}
