import Foundation
import QuarryStore

extension FetchResults {
    /// Writes every object to `path` as CSV (header row, RFC 4180 quoting, nil as an
    /// empty field) or, for a `.json` path, as an array of objects; returns the count.
    /// Rows go out in chunks as they are read, through `OutputFile`: a symlink's target,
    /// a FIFO or a device is written as `>` would, and a plain file keeps its mode, owner
    /// and links, and stays as it was when the export fails.
    @discardableResult
    public func export(to path: String) throws -> Int {
        let names = entity.attributeNames
        let json = path.lowercased().hasSuffix(".json")
        let file = try OutputFile(path: path, operation: "export")
        var count = 0
        var line = ""
        try file.write(json ? "[" : names.map(csvField).joined(separator: ",") + "\n")
        while let object = try object(at: count) {
            // A value that cannot be read stops the export (the file stays as it was).
            let values = try names.map { try object.value(forKey: $0) }
            line.removeAll(keepingCapacity: true)
            if json {
                let fields = zip(names, values).map { "\(jsonQuoted($0)): \(jsonValue($1))" }
                line += (count == 0 ? "\n  {" : ",\n  {") + fields.joined(separator: ", ") + "}"
            } else {
                line += values.map { $0.isNull ? "" : csvField($0.displayString) }.joined(separator: ",") + "\n"
            }
            try file.write(line)
            count += 1
        }
        if json { try file.write(count == 0 ? "]\n" : "\n]\n") }
        try file.commit()
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
