import Foundation
import QuarryStore

/// Rows written as CSV (header row, RFC 4180 quoting, nil as an empty field) or, for a
/// `.json` path, as an array of objects, in chunks as they come, through `OutputFile`
/// (a symlink's target, a FIFO or a device is written as `>` would, and a plain file
/// stays as it was when the export fails). Results and dictionary rows both use it.
struct ExportWriter {
    private let names: [String]
    private let json: Bool
    private let file: OutputFile
    private(set) var count = 0
    private var line = ""

    init(path: String, columns: [String]) throws {
        names = columns
        json = path.lowercased().hasSuffix(".json")
        file = try OutputFile(path: path, operation: "export")
        try file.write(json ? "[" : names.map(csvField).joined(separator: ",") + "\n")
    }

    mutating func write(_ values: [Value]) throws {
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

    /// Closes the array and puts the file in place; returns how many rows went out.
    func finish() throws -> Int {
        if json { try file.write(count == 0 ? "]\n" : "\n]\n") }
        try file.commit()
        return count
    }
}

/// Writes dictionary rows (`sql()`, `summarize()`, group/having) as `export` writes results.
@discardableResult
public func exportRows(_ rows: QueryRows, to path: String) throws -> Int {
    var writer = try ExportWriter(path: path, columns: rows.columns)
    for row in rows.rows { try writer.write(row) }
    return try writer.finish()
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
