import QuarryStore

/// How tables print: the REPL's `.mode`. Data, not branches in the printing code.
public enum OutputMode: String, CaseIterable {
    case table, box, markdown, json, csv, line
}

/// How the REPL prints tables: the mode, whether headers show, colour (a terminal only,
/// never with NO_COLOR), and the terminal's width that aligned tables fit into (0: none).
public struct TableFormat {
    public var mode: OutputMode = .table
    public var headers = true
    public var colors = false
    public var width = 0
    public init() {}
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
        var format = TableFormat()
        format.mode = mode
        return render(format, maxWidth: maxWidth)
    }

    public func render(_ format: TableFormat, maxWidth: Int = 40) -> String {
        let table = self
        switch format.mode {
        case .table: return table.aligned(maxWidth: maxWidth, separator: " | ", rule: "-+-", fill: "-", edges: false, format: format)
        case .box: return table.aligned(maxWidth: maxWidth, separator: " │ ", rule: "─┼─", fill: "─", edges: true, format: format)
        default: return table.data(format.mode, headers: format.headers)
        }
    }

    private func data(_ mode: OutputMode, headers showHeaders: Bool) -> String {
        switch mode {
        case .table, .box: return ""
        case .markdown:
            let cells = rows.map { $0.map { ($0 ?? "nil").replacingOccurrences(of: "|", with: "\\|") } }
            var lines = showHeaders ? ["| " + headers.joined(separator: " | ") + " |", "|" + headers.map { _ in "---" }.joined(separator: "|") + "|"] : []
            lines += cells.map { "| " + $0.joined(separator: " | ") + " |" }
            return lines.joined(separator: "\n") + (footer.map { "\n" + $0 } ?? "")
        case .csv:
            func field(_ s: String?) -> String {
                guard let s else { return "" }
                return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
            }
            return ((showHeaders ? [headers.map(field).joined(separator: ",")] : []) + rows.map { $0.map(field).joined(separator: ",") }).joined(separator: "\n")
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

    private func aligned(maxWidth: Int, separator: String, rule: String, fill: Character, edges: Bool, format: TableFormat) -> String {
        let showHeaders = format.headers
        func flat(_ s: String) -> String {
            s.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
        }
        func clip(_ s: String, _ limit: Int) -> String {
            let text = flat(s)
            return text.count > limit ? String(text.prefix(max(1, limit - 1))) + "…" : text
        }
        var widths = headers.map { showHeaders ? min(flat($0).count, maxWidth) : 0 }
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], min(flat(cell ?? "nil").count, maxWidth)) } }
        // Wide tables fit the terminal: the widest columns give way first, down to 4.
        if format.width > 0 {
            let overhead = separator.count * max(0, widths.count - 1) + (edges ? 4 : 0)
            while widths.reduce(0, +) + overhead > format.width, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 4 {
                widths[widest] -= 1
            }
        }
        let bold = format.colors ? "\u{1B}[1m" : "", dim = format.colors ? "\u{1B}[2m" : "", reset = format.colors ? "\u{1B}[0m" : ""
        func line(_ values: [String?], header: Bool) -> String {
            let body = values.enumerated().map { i, v -> String in
                let text = clip(v ?? "nil", widths[i])
                let padded = text + String(repeating: " ", count: max(0, widths[i] - text.count))
                if header { return bold + padded + reset }
                return v == nil ? dim + padded + reset : padded
            }.joined(separator: separator)
            return edges ? "│ " + body + " │" : body.trimmingTrailingSpaces()
        }
        let ruleLine = widths.map { String(repeating: fill, count: $0) }.joined(separator: rule)
        var lines: [String] = []
        if edges { lines.append("┌─" + widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┬─") + "─┐") }
        if showHeaders {
            lines.append(line(headers, header: true))
            lines.append(edges ? "├─" + ruleLine + "─┤" : ruleLine)
        }
        lines += rows.map { line($0, header: false) }
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
