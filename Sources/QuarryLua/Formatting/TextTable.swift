import QuarryStore

/// How tables print: the REPL's `.mode`. Data, not branches in the printing code.
public enum OutputMode: String, CaseIterable {
    case table, box, markdown, json, csv, line
}

/// Rows of text as a table in one of the output modes (aligned with a header rule by
/// default), as the REPL prints results.
public struct TextTable {
    public var headers: [String]
    public var rows: [[String?]]
    public var footer: String?

    public init(headers: [String], rows: [[String?]], footer: String? = nil) {
        self.headers = headers; self.rows = rows; self.footer = footer
    }

    /// Cells wider than `maxWidth` characters are cut with "…" in the aligned modes; a nil
    /// cell is NULL, shown as `nil` (empty in CSV, null in JSON).
    public func render(mode: OutputMode = .table, maxWidth: Int = 40) -> String {
        switch mode {
        case .table: return aligned(maxWidth: maxWidth, separator: " | ", rule: "-+-", fill: "-", edges: false)
        case .box: return aligned(maxWidth: maxWidth, separator: " │ ", rule: "─┼─", fill: "─", edges: true)
        case .markdown:
            let cells = rows.map { $0.map { ($0 ?? "nil").replacingOccurrences(of: "|", with: "\\|") } }
            var lines = ["| " + headers.joined(separator: " | ") + " |", "|" + headers.map { _ in "---" }.joined(separator: "|") + "|"]
            lines += cells.map { "| " + $0.joined(separator: " | ") + " |" }
            return lines.joined(separator: "\n") + (footer.map { "\n" + $0 } ?? "")
        case .csv:
            func field(_ s: String?) -> String {
                guard let s else { return "" }
                return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
            }
            return ([headers.map(field).joined(separator: ",")] + rows.map { $0.map(field).joined(separator: ",") }).joined(separator: "\n")
        case .json:
            let objects = rows.map { row in
                "{" + zip(headers, row).map { "\(jsonQuoted($0)): \($1.map(jsonQuoted) ?? "null")" }.joined(separator: ", ") + "}"
            }
            return "[" + objects.joined(separator: ",\n ") + "]"
        case .line:
            let width = headers.map(\.count).max() ?? 0
            return rows.map { row in
                zip(headers, row).map { String(repeating: " ", count: width - $0.count) + $0 + " = " + ($1 ?? "nil") }.joined(separator: "\n")
            }.joined(separator: "\n\n")
        }
    }

    private func aligned(maxWidth: Int, separator: String, rule: String, fill: Character, edges: Bool) -> String {
        func clip(_ s: String) -> String {
            let flat = s.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
            return flat.count > maxWidth ? String(flat.prefix(maxWidth - 1)) + "…" : flat
        }
        let cells = rows.map { $0.map { clip($0 ?? "nil") } }
        let heads = headers.map(clip)
        var widths = heads.map(\.count)
        for row in cells { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ values: [String]) -> String {
            let body = values.enumerated().map { i, v in v + String(repeating: " ", count: widths[i] - v.count) }.joined(separator: separator)
            return edges ? "│ " + body + " │" : body.trimmingTrailingSpaces()
        }
        let ruleLine = widths.map { String(repeating: fill, count: $0) }.joined(separator: rule)
        var lines: [String] = []
        if edges { lines.append("┌─" + widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┬─") + "─┐") }
        lines.append(line(heads))
        lines.append(edges ? "├─" + ruleLine + "─┤" : ruleLine)
        lines += cells.map(line)
        if edges { lines.append("└─" + widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┴─") + "─┘") }
        if let footer { lines.append(footer) }
        return lines.joined(separator: "\n")
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
