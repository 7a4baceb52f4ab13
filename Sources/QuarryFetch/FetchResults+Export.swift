import Foundation
import QuarryStore

extension FetchResults {
    /// Writes every object to `path` as CSV (header row, RFC 4180 quoting, nil as an
    /// empty field) or, for a `.json` path, as an array of objects; returns the count.
    /// The file is written whole to a temporary name and moved into place.
    @discardableResult
    public func export(to path: String) throws -> Int {
        let names = entity.attributeNames
        var out = ""
        var count = 0
        let json = path.lowercased().hasSuffix(".json")
        if json { out = "[" } else { out = names.map(csvField).joined(separator: ",") + "\n" }
        var index = 0
        while let object = try object(at: index) {
            index += 1
            let values = names.map { (try? object.value(forKey: $0)) ?? .null }
            if json {
                let fields = zip(names, values).map { "\(jsonQuoted($0)): \(jsonValue($1))" }
                out += (count == 0 ? "\n  {" : ",\n  {") + fields.joined(separator: ", ") + "}"
            } else {
                out += values.map { $0.isNull ? "" : csvField($0.displayString) }.joined(separator: ",") + "\n"
            }
            count += 1
        }
        if json { out += count == 0 ? "]\n" : "\n]\n" }
        let url = URL(fileURLWithPath: path)
        do {
            try Data(out.utf8).write(to: url, options: .atomic)
        } catch {
            throw StoreError.database(message: "export: cannot write \(path): \((error as NSError).localizedDescription)")
        }
        return count
    }
}

private func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text == "NA" else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

private func jsonValue(_ value: Value) -> String {
    switch value {
    case .null: return "null"
    case .integer(let i): return String(i)
    case .real(let d): return d.isFinite ? "\(d)" : "null"
    case .bool(let b): return b ? "true" : "false"
    case .text(let s): return jsonQuoted(s)
    case .date(let d): return jsonQuoted(Value.iso8601(d))
    case .blob(let b): return jsonQuoted(Data(b).base64EncodedString())
    }
}
