/// Rows of text as an aligned table with a header rule, as the REPL prints results.
public struct TextTable {
    public var headers: [String]
    public var rows: [[String]]
    public var footer: String?

    public init(headers: [String], rows: [[String]], footer: String? = nil) {
        self.headers = headers; self.rows = rows; self.footer = footer
    }

    /// Columns wider than `maxWidth` characters are cut with "…".
    public func render(maxWidth: Int = 40) -> String {
        func clip(_ s: String) -> String {
            let flat = s.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
            return flat.count > maxWidth ? String(flat.prefix(maxWidth - 1)) + "…" : flat
        }
        let cells = rows.map { $0.map(clip) }
        let heads = headers.map(clip)
        var widths = heads.map(\.count)
        for row in cells { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ values: [String]) -> String {
            values.enumerated().map { i, v in v + String(repeating: " ", count: widths[i] - v.count) }
                .joined(separator: " | ").trimmingTrailingSpaces()
        }
        var lines = [line(heads), widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")]
        lines += cells.map(line)
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
