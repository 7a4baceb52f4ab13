import Foundation
import QuarryModel
import QuarryStore

/// How tables print: the REPL's `.mode`. Data, not branches in the printing code.
public enum OutputMode: String, CaseIterable {
    case table, box, markdown, json, csv, line

    /// Modes that hold data for another program: every row, full precision, no notes.
    public var isData: Bool { self == .csv || self == .json || self == .line }
}

/// How the REPL prints tables: the mode, whether headers show, colour (a terminal only,
/// never with NO_COLOR), the terminal's width that aligned tables fit into (0: none),
/// how many rows a long result shows (`.maxrows`), dates in local time rather than UTC
/// (`.dates local`), and the columns to show when a table has them (`.columns`).
public struct TableFormat {
    public var mode: OutputMode = .table
    public var headers = true
    public var colors = false
    public var width = 0
    public var maxRows = 20
    public var localTime = false
    public var columns: [String] = []
    public init() {}
}

/// Rows of values as a table in one of the output modes (aligned with a header rule by
/// default), as the REPL prints results: numbers right-aligned in the aligned modes, with
/// at most 15 significant digits there (as `sqlite3` shows them), in full in the data modes.
public struct TextTable {
    public var headers: [String]
    public var rows: [[Value]]
    public var footer: String?
    /// A row index before which rows were left out (a long result shows its first and
    /// last rows): the aligned modes mark the gap with a line of "…".
    public var gap: Int?
    /// A mark after each row, outside the columns (the live view's +, ↕ and ~), in the
    /// aligned modes; nil: none.
    public var marks: [String]?

    public init(headers: [String], values: [[Value]], footer: String? = nil, gap: Int? = nil) {
        self.headers = headers
        self.rows = values
        self.footer = footer
        self.gap = gap
    }

    /// Cells of text (nil is nil), as a table shows names and IDs.
    public init(headers: [String], rows: [[String?]], footer: String? = nil) {
        self.init(headers: headers, values: rows.map { $0.map { $0.map(Value.text) ?? .null } }, footer: footer)
    }

    /// Cells wider than `maxWidth` characters are cut with "…" in the aligned modes; a nil
    /// cell is NULL, shown as `nil` (empty in CSV, null in JSON).
    public func render(mode: OutputMode = .table, maxWidth: Int = 40) -> String {
        var format = TableFormat()
        format.mode = mode
        return render(format, maxWidth: maxWidth)
    }

    public func render(_ format: TableFormat, maxWidth: Int = 40) -> String {
        let chosen = choosing(format.columns)
        guard chosen.headers.count == headers.count else { return chosen.render(format, maxWidth: maxWidth) }
        switch format.mode {
        case .table: return aligned(maxWidth: maxWidth, style: .plain, format: format)
        case .box: return aligned(maxWidth: maxWidth, style: .box, format: format)
        case .markdown:
            let cells = rows.map {
                $0.map { CellText.flat(CellText.display($0, local: format.localTime)).replacingOccurrences(of: "|", with: "\\|") }
            }
            var lines =
                format.headers
                ? ["| " + headers.map(CellText.flat).joined(separator: " | ") + " |", "|" + headers.map { _ in "---" }.joined(separator: "|") + "|"]
                : []
            lines += cells.map { "| " + $0.joined(separator: " | ") + " |" }
            return lines.joined(separator: "\n") + (footer.map { "\n" + $0 } ?? "")
        case .csv:
            // The one CSV and JSON writer, as export uses: what `.once` saves reads back
            // as what `export` writes.
            return TableWriter.render(format: .csv, columns: headers, rows: rows, header: format.headers)
        case .json:
            return TableWriter.render(format: .json, columns: headers, rows: rows)
        case .line:
            let names = headers.map(CellText.flat)
            let width = names.map(TerminalWidth.of).max() ?? 0
            return rows.map { row in
                zip(names, row).map {
                    String(repeating: " ", count: width - TerminalWidth.of($0)) + $0 + " = "
                        + CellText.flat(CellText.display($1, local: format.localTime, full: true))
                }.joined(separator: "\n")
            }.joined(separator: "\n\n")
        }
    }

    private struct Style {
        let separator: String, rule: String, fill: String, edges: Bool
        static let plain = Style(separator: " | ", rule: "-+-", fill: "-", edges: false)
        static let box = Style(separator: " │ ", rule: "─┼─", fill: "─", edges: true)
    }

    private func aligned(maxWidth: Int, style: Style, format: TableFormat) -> String {
        let showHeaders = format.headers
        let texts = rows.map { $0.map { CellText.flat(CellText.display($0, local: format.localTime)) } }
        // Headers are never cut: a column that cannot show its whole name is left out.
        var widths = headers.map { showHeaders ? TerminalWidth.of(CellText.flat($0)) : 0 }
        for row in texts {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], min(TerminalWidth.of(cell), maxWidth)) }
        }
        // Wide tables fit the terminal: the columns that fit, left to right, and a note of the rest.
        var shown = widths.count
        if format.width > 0 {
            var used = (style.edges ? 4 : 0) + (marks == nil ? 0 : 2)
            for (i, width) in widths.enumerated() {
                let needed = width + (i > 0 ? style.separator.count : 0)
                if used + needed > format.width, i > 0 {
                    shown = i
                    break
                }
                used += needed
            }
        }
        widths = Array(widths.prefix(shown))
        let bold = format.colors ? "\u{1B}[1m" : ""
        let dim = format.colors ? "\u{1B}[2m" : ""
        let reset = format.colors ? "\u{1B}[0m" : ""
        func line(_ cells: [String], values: [Value]?) -> String {
            let body = widths.indices.map { i -> String in
                let text = CellText.clip(cells[i], widths[i])
                let padding = String(repeating: " ", count: max(0, widths[i] - TerminalWidth.of(text)))
                guard let values else { return bold + text + padding + reset }
                if values[i].isNull { return dim + text + padding + reset }
                return values[i].isNumber ? padding + text : text + padding
            }.joined(separator: style.separator)
            return style.edges ? "│ " + body + " │" : body.trimmingTrailingSpaces()
        }
        func border(_ left: String, _ join: String, _ right: String) -> String {
            left + widths.map { String(repeating: "─", count: $0) }.joined(separator: join) + right
        }
        let ruleLine = widths.map { String(repeating: style.fill, count: $0) }.joined(separator: style.rule)
        var lines: [String] = []
        if style.edges { lines.append(border("┌─", "─┬─", "─┐")) }
        if showHeaders {
            // Flat as the widths measured them: a raw newline or return would break the row.
            lines.append(line(headers.map(CellText.flat), values: nil))
            lines.append(style.edges ? "├─" + ruleLine + "─┤" : ruleLine)
        }
        for (i, row) in texts.enumerated() {
            if i == gap { lines.append(line(widths.map { _ in "…" }, values: widths.map { _ in .text("…") })) }
            lines.append(line(row, values: rows[i]))
            if let marks, i < marks.count, !marks[i].isEmpty { lines[lines.count - 1] += " " + marks[i] }
        }
        if style.edges { lines.append(border("└─", "─┴─", "─┘")) }
        var notes: [String] = []
        if let footer { notes.append(footer) }
        if shown < headers.count { notes.append("… +\(headers.count - shown) \(headers.count - shown == 1 ? "column" : "columns")") }
        if !notes.isEmpty { lines.append(notes.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}

/// How one value reads in each mode.
public enum CellText {
    /// For reading: nil as nil, floating values with at most 15 significant digits, dates
    /// in UTC or (`local`) in the machine's time zone. `full`: floating values in full, as
    /// the line mode (data) keeps them.
    static func display(_ value: Value, local: Bool = false, full: Bool = false) -> String {
        switch value {
        case .date(let seconds) where local: return Value.localISO8601(seconds)
        case .real(let d) where !full: return real(d)
        default: return value.displayString
        }
    }

    /// A double as `sqlite3` shows it (`%.15g`): the shortest text when it has 15
    /// significant digits or fewer (money keeps its cents: 12615.05), else rounded to 15,
    /// so a sum's float noise goes (2328.600000000004 is 2328.6, 0.1 + 0.2 is 0.3). Exports,
    /// JSON and CSV, and `tostring` keep the exact value.
    public static func real(_ d: Double) -> String {
        guard d.isFinite else { return Value.format(d) }
        let text = String(format: "%.15g", d)
        guard let rounded = Double(text), rounded != d else { return Value.format(d) }
        // Any decimal of 15 digits reads back as a double whose shortest text is that
        // decimal; near the largest double it reads back as infinity, and stays as text.
        return rounded.isFinite ? Value.format(rounded) : text
    }

    /// Six significant digits without an exponent for everyday magnitudes, trailing zeros
    /// dropped (12.639070257 → 12.6391, 3.0 → 3.0 as Lua shows floats): a chart's labels,
    /// which name a scale rather than a value.
    static func rounded(_ d: Double) -> String {
        guard d.isFinite, d != d.rounded() || abs(d) >= 1e15 else { return Value.format(d) }
        let magnitude = abs(d)
        if magnitude >= 1e15 || magnitude < 1e-4 { return String(format: "%.4e", d) }
        let before = Int(log10(magnitude).rounded(.down)) + 1
        let decimals = min(10, max(1, 6 - before))
        var text = String(format: "%.\(decimals)f", d)
        while text.hasSuffix("0"), !text.hasSuffix(".0") { text.removeLast() }
        return text
    }

    /// Text drawn for a terminal, on one line: control characters (a newline, a return
    /// that would send the cursor back over the row, ESC sequences that clear the screen,
    /// set the window's title or the clipboard) written as Lua escapes, as `.schema` and
    /// error lines write them. CSV and JSON keep the bytes.
    static func flat(_ s: String) -> String {
        ErrorRendering.escaped(s)
    }

    /// `text` cut to `limit` terminal columns, its end marked with "…".
    static func clip(_ text: String, _ limit: Int) -> String {
        TerminalWidth.of(text) > limit ? TerminalWidth.prefix(text, columns: max(1, limit - 1)) + "…" : text
    }
}

extension Value {
    /// Integers and floating values: right-aligned in tables.
    var isNumber: Bool {
        switch self {
        case .integer, .real, .decimal: return true
        default: return false
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

extension TextTable {
    /// Only the `columns` this table has (an `id` column stays first), in their order;
    /// the whole table when it has none of them.
    func choosing(_ columns: [String]) -> TextTable {
        guard !columns.isEmpty else { return self }
        var indexes = columns.compactMap { headers.firstIndex(of: $0) }
        guard !indexes.isEmpty else { return self }
        if let id = headers.firstIndex(of: "id"), !indexes.contains(id) { indexes.insert(id, at: 0) }
        var seen = Set<Int>()
        indexes = indexes.filter { seen.insert($0).inserted }
        var chosen = TextTable(
            headers: indexes.map { headers[$0] }, values: rows.map { row in indexes.map { $0 < row.count ? row[$0] : .null } },
            footer: footer, gap: gap)
        chosen.marks = marks
        return chosen
    }

    /// One record (an object) as the REPL prints it: a one-row table when every column
    /// fits the terminal, else vertically, one `key | value` line per column, so that no
    /// column is left out or cut.
    public static func record(headers: [String], values: [Value], format: TableFormat) -> String {
        let table = TextTable(headers: headers, values: [values]).choosing(format.columns)
        guard !format.mode.isData, format.width > 0 else { return table.render(format) }
        let cells = (table.rows.first ?? []).map { TerminalWidth.of(CellText.flat(CellText.display($0, local: format.localTime))) }
        let cut = cells.contains { $0 > 40 }
        let needed =
            zip(table.headers, cells).map { max(TerminalWidth.of($0), min($1, 40)) }.reduce(0, +) + 3 * (table.headers.count - 1)
            + (format.mode == .box ? 4 : 0)
        if !cut, needed <= format.width { return table.render(format) }
        var vertical = format
        // Markdown needs its header row to be a table at all.
        vertical.headers = format.mode == .markdown
        // Both columns always show; a value too long for the line is cut instead.
        vertical.width = 0
        let keyWidth = table.headers.map(TerminalWidth.of).max() ?? 0
        // Values read left-aligned under one another; nil stays nil.
        let pairs: [[Value]] = zip(table.headers, table.rows.first ?? []).map { key, value in
            [.text(key), value.isNull ? .null : .text(CellText.display(value, local: format.localTime))]
        }
        return TextTable(headers: ["key", "value"], values: pairs)
            .render(vertical, maxWidth: max(20, format.width - keyWidth - 7))
    }

    /// Dictionary rows as the REPL prints them: every row in the data modes; in the
    /// aligned ones the first and last of a long list, with how many there are.
    public static func rows(headers: [String], values: [[Value]], format: TableFormat) -> TextTable {
        let total = values.count
        let noun = total == 1 ? "row" : "rows"
        guard !format.mode.isData, total > format.maxRows else {
            return TextTable(headers: headers, values: values, footer: format.mode.isData ? nil : "(\(grouped(total)) \(noun))")
        }
        let head = (format.maxRows + 1) / 2
        let tail = format.maxRows - head
        return TextTable(
            headers: headers, values: Array(values.prefix(head)) + Array(values.suffix(tail)),
            footer: "(\(grouped(total)) \(noun))", gap: tail > 0 ? head : nil)
    }
}
