import Foundation
import QuarryModel
import QuarryStore

/// How tables print: the REPL's `.mode`. Data, not branches in the printing code.
public enum OutputMode: String, CaseIterable {
    case table, box, markdown, json, csv, line

    /// Modes that hold data for another program: every row, full precision, no notes.
    public var isData: Bool { self == .csv || self == .json || self == .line }

    /// Modes whose cells are written as a person reads them (`line` too: one value a
    /// line, as a table shows it); CSV and JSON keep values for a program.
    public var showsReadCells: Bool { self != .csv && self != .json }
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
    /// `.width N`: the most columns of the terminal a cell takes (0: no cap); nil: a cap
    /// only when the table would not fit the terminal, shared fairly among the columns.
    public var textWidth: Int?
    /// The terminal's rows when long output goes through a pager (0: it does not): a table
    /// longer than that is laid out whole, no column left out or cut, for `less -S`.
    public var pagerRows = 0
    /// What follows `… +2 columns` under a table that left columns out: the ways the
    /// program running it has to show them (the REPL's dot-commands); nil: nothing.
    public var leftOutHint: String?
    /// What follows `, 43 rows hidden` under a long result that showed its first and last
    /// rows only: how the program running it shows more (the REPL's `.maxrows`); nil: the
    /// footer says only how many there are, as a script's print has always written it.
    public var hiddenRowsHint: String?
    public init() {}

    /// The most rows a long result shows: `maxRows`, where 0 is no limit (as other
    /// shells' 0 is).
    public var rowLimit: Int { maxRows > 0 ? maxRows : .max }

    /// The terminal's rows at the prompt (0: none known, as in a script or a watch).
    public var screenRows = 0
    /// `.maxrows N` was typed: its N holds even where the screen would hold a result whole.
    public var maxRowsChosen = false

    /// The most rows a flat result of `total` rows shows: every one when the screen holds
    /// them with the command above and the prompt below (a result of 27 rows hid 7 of them
    /// on a terminal of 50 lines, trial 29), unless `.maxrows` was chosen; else `rowLimit`.
    public func rowLimit(total: Int) -> Int {
        if maxRows > 0, !maxRowsChosen, screenRows > 0, total <= screenRows - 6 { return .max }
        return rowLimit
    }

    /// Whether a listing of `total` rows that shows at most `shown` leaves rows out: only
    /// when two or more would go, as the line of "…" standing for one row takes the row's
    /// place (psql and DuckDB never hide a single row either).
    public static func hides(total: Int, shown: Int) -> Bool { total - 1 > shown }

    /// The footer of a result of `total` rows (`noun`: "objects", "rows") of which `shown`
    /// are shown: `(63 objects)`, then, where the REPL says how to see them,
    /// `, 43 rows hidden (.maxrows N shows N, .maxrows 0 all)`.
    public func footer(_ counted: String, total: Int, shown: Int) -> String {
        guard shown < total, let hint = hiddenRowsHint else { return counted }
        let hidden = total - shown
        return counted + ", \(grouped(hidden)) \(hidden == 1 ? "row" : "rows") hidden (\(hint))"
    }
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
    /// Significant digits of floating values in the modes people read (summarize's
    /// statistics); nil: as Lua's `tostring` writes them. CSV and JSON keep every digit.
    public var digits: Int?
    /// The narrowest a cap cuts cells to before columns past the terminal's edge are left
    /// out instead: 12, so that a long text gives up its width (cut, with "…") before a
    /// narrow column (a flag, a count) leaves the screen; the cut text is whole in `.mode
    /// line`, with `.width 0` or in the pager.
    public var narrowestCap = 12
    /// Columns never cut, as numbers never are (a summary's column names).
    public var wholeColumns: Set<Int> = []
    /// Columns of numbers by their type (a results table's number attributes), whose nils
    /// are right-aligned even where no row shown holds a number; any column holding one is too.
    public var numberColumns: Set<Int> = []
    /// Cells holding estimates (summarize's distinct counts and quartiles of large columns):
    /// `~` before their text where people read it (`~20,113` reads as "about"), the value
    /// itself unchanged; nil cells are not marked.
    public var estimated: Set<TableCell> = []
    /// A line under the table and its footer in the modes people read (what `~` means).
    public var footnote: String?
    /// A line above the table in the modes people read (which way a diff reads); the data
    /// modes hold the rows alone.
    public var caption: String?

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

    /// Cells wider than `maxWidth` characters are cut with "…" in the aligned modes (nil:
    /// as `TableFormat.textWidth` and the terminal decide); a nil cell is NULL, shown as
    /// `nil` (empty in CSV, null in JSON).
    public func render(mode: OutputMode = .table, maxWidth: Int? = nil) -> String {
        var format = TableFormat()
        format.mode = mode
        return render(format, maxWidth: maxWidth)
    }

    public func render(_ format: TableFormat, maxWidth: Int? = nil) -> String {
        let body = renderRows(format, maxWidth: maxWidth)
        guard let caption, !format.mode.isData else { return body }
        return caption + "\n" + body
    }

    private func renderRows(_ format: TableFormat, maxWidth: Int?) -> String {
        let chosen = choosing(format.columns)
        guard chosen.headers.count == headers.count else { return chosen.renderRows(format, maxWidth: maxWidth) }
        switch format.mode {
        case .table: return aligned(maxWidth: maxWidth, style: .plain, format: format)
        case .box: return aligned(maxWidth: maxWidth, style: .box, format: format)
        case .markdown:
            let cells = readRows(format).map { $0.map { CellText.flat($0).replacingOccurrences(of: "|", with: "\\|") } }
            var lines =
                format.headers
                ? ["| " + headers.map(CellText.flat).joined(separator: " | ") + " |", "|" + headers.map { _ in "---" }.joined(separator: "|") + "|"]
                : []
            lines += cells.map { "| " + $0.joined(separator: " | ") + " |" }
            // The footer after a blank line: a line right under a table is one more row of
            // it to a Markdown reader (trial 31's `.once top.md` ended in a row "(3 objects)").
            return lines.joined(separator: "\n") + (footer.map { "\n\n" + $0 } ?? "") + (footnote.map { "\n" + $0 } ?? "")
        case .csv:
            // The one CSV and JSON writer, as export uses: what `.once` saves reads back
            // as what `export` writes.
            return TableWriter.render(format: .csv, columns: headers, rows: dataRows(format), header: format.headers)
        case .json:
            return TableWriter.render(format: .json, columns: headers, rows: dataRows(format))
        case .line:
            let names = headers.map(CellText.flat)
            let width = names.map(TerminalWidth.of).max() ?? 0
            return readRows(format).map { row in
                zip(names, row).map {
                    String(repeating: " ", count: width - TerminalWidth.of($0)) + $0 + " = " + CellText.flat($1)
                }.joined(separator: "\n")
            }.joined(separator: "\n\n")
        }
    }

    /// The rows the CSV and JSON modes write. On a terminal a person reads them, so a
    /// double is the one Lua's `tostring` shows (90.09 for a sum's 90.08999999999992), as
    /// every other mode there shows it: the writer gives the shortest text of the double
    /// that `%.14g` reads back as. To a file (`.once`) or a pipe, where a program reads
    /// them, they are exact, as `export` writes them.
    private func dataRows(_ format: TableFormat) -> [[Value]] {
        guard format.width > 0 else { return rows }
        return rows.map { row in
            row.map { value in
                guard case .real(let d) = value, d.isFinite, let shown = Double(String(format: "%.14g", d)) else { return value }
                return .real(shown)
            }
        }
    }

    /// The widest a cell shows (nil: no cap). `.width N` decides when set; off a terminal
    /// (a pipe, a file), no cap, as sqlite3 writes rows to a pipe whole: what reads them
    /// is a program or a pager, not a screen; on one, no cap when the table fits in `room`, else the largest cap (of
    /// `narrowest`, 12 unless said, or more) under which it fits, so the widest columns
    /// give up the same and the others keep theirs; only when it does not fit even at
    /// `narrowest` are the columns past the edge left out.
    public static func cap(_ natural: [Int], headers: [Int], room: Int, format: TableFormat, narrowest: Int = 12) -> Int? {
        if let fixed = format.textWidth { return fixed > 0 ? fixed : nil }
        guard format.width > 0 else { return nil }
        let floor = min(40, narrowest)
        func needed(_ cap: Int) -> Int { zip(natural, headers).reduce(0) { $0 + max($1.1, min($1.0, cap)) } }
        let widest = natural.max() ?? 0
        if needed(widest) <= room { return nil }
        var low = floor
        var high = widest
        guard needed(low) <= room else { return floor }
        // The largest cap that fits: needed() grows with the cap.
        while low < high {
            let middle = (low + high + 1) / 2
            if needed(middle) <= room { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The cells as a person reads them (a date as every table shows it: a summary's
    /// dates are given to it at the precision they are shown at, `datesShown`).
    private func readRows(_ format: TableFormat) -> [[String]] {
        rows.enumerated().map { r, row in
            row.enumerated().map { c, value in
                let text = CellText.display(value, local: format.localTime, digits: digits)
                if !value.isNull, estimated.contains(TableCell(row: r, column: c)) { return "~" + text }
                return text
            }
        }
    }

    private struct Style {
        let separator: String, rule: String, fill: String, edges: Bool
        static let plain = Style(separator: " | ", rule: "-+-", fill: "-", edges: false)
        static let box = Style(separator: " │ ", rule: "─┼─", fill: "─", edges: true)
    }

    private func aligned(maxWidth: Int?, style: Style, format: TableFormat) -> String {
        let showHeaders = format.headers
        let texts = readRows(format).map { $0.map(CellText.flat) }
        // Headers are never cut: a column that cannot show its whole name is left out. Nor
        // are numbers (a number cut reads as another number), nor dates (`2020-09-13T…`
        // says no time: a summary's min and max of one week were all cut so), nor the whole
        // columns: each column is at least as wide as those.
        var headerWidths = headers.map { showHeaders ? TerminalWidth.of(CellText.flat($0)) : 0 }
        var natural = headerWidths
        for (r, row) in texts.enumerated() {
            for (i, cell) in row.enumerated() where i < natural.count {
                let width = TerminalWidth.of(cell)
                natural[i] = max(natural[i], width)
                if wholeColumns.contains(i) || rows[r][i].isNumber || rows[r][i].isDate { headerWidths[i] = max(headerWidths[i], width) }
            }
        }
        let overhead = (style.edges ? 4 : 0) + (marks == nil ? 0 : 2) + style.separator.count * max(0, headers.count - 1)
        // A table a pager will take is laid out whole, for `less -S` to scroll to.
        let lineCount = rows.count + (showHeaders ? 2 : 0) + (style.edges ? 2 : 0) + (footer == nil ? 0 : 1) + (gap == nil ? 0 : 1)
        let whole = format.pagerRows > 0 && lineCount > format.pagerRows
        let cap =
            maxWidth
            ?? (whole ? nil : Self.cap(natural, headers: headerWidths, room: format.width - overhead, format: format, narrowest: narrowestCap))
        var widths = cap.map { cap in zip(natural, headerWidths).map { max($1, min($0, cap)) } } ?? natural
        // Wide tables fit the terminal: the columns that fit, left to right, and a note of the rest.
        var shown = widths.count
        if format.width > 0, !whole, format.textWidth != 0 {
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
        // A column holding numbers: its nils are right-aligned with them, as DuckDB's shell
        // aligns NULL, so a column of numbers reads as one column.
        let numeric = headers.indices.map { i in numberColumns.contains(i) || rows.contains { i < $0.count && $0[i].isNumber } }
        let bold = format.colors ? "\u{1B}[1m" : ""
        let dim = format.colors ? "\u{1B}[2m" : ""
        let reset = format.colors ? "\u{1B}[0m" : ""
        // One line's bytes, its cells appended in place: joining a list of padded cells,
        // then appending each to a string, was most of laying out a long table.
        let lineBytes = widths.reduce(0, +) + style.separator.utf8.count * widths.count + 8
        func line(_ cells: [String], values: [Value]?) -> String {
            var out: [UInt8] = []
            out.reserveCapacity(lineBytes)
            func put(_ text: String) { out.append(contentsOf: text.utf8) }
            func pad(_ count: Int) { if count > 0 { out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) } }
            if style.edges { put("│ ") }
            for i in widths.indices {
                if i > 0 { put(style.separator) }
                let text = CellText.clip(cells[i], widths[i])
                let padding = widths[i] - TerminalWidth.of(text)
                guard let values else {
                    put(bold + text)
                    pad(padding)
                    put(reset)
                    continue
                }
                if values[i].isNull { put(dim) }
                if values[i].isNumber || values[i].isNull && numeric[i] {
                    pad(padding)
                    put(text)
                } else {
                    put(text)
                    pad(padding)
                }
                if values[i].isNull { put(reset) }
            }
            if style.edges {
                put(" │")
            } else {
                while out.last == UInt8(ascii: " ") { out.removeLast() }
            }
            return String(decoding: out, as: UTF8.self)
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
        if shown < headers.count {
            // Named, the first two (a long name cut), where the line still fits: a sort's
            // key left out (`sort = "-total_amt_usd"` on twelve columns) was nowhere to be
            // seen, nor said to be among those left out.
            let left = headers.count - shown
            let names = headers[shown...].prefix(2).map { CellText.clip(CellText.flat($0), 24) }.joined(separator: ", ") + (left > 2 ? ", …" : "")
            let counted = "… +\(left) \(left == 1 ? "column" : "columns")"
            let hint = format.leftOutHint.map { " (\($0))" } ?? ""
            let named = counted + ": " + names + hint
            let line = (notes + [named]).joined(separator: ", ")
            notes.append(format.width > 0 && TerminalWidth.of(line) > format.width ? counted + hint : named)
        }
        if !notes.isEmpty { lines.append(notes.joined(separator: ", ")) }
        if let footnote { lines.append(footnote) }
        return lines.joined(separator: "\n")
    }
}

extension Value {
    /// Dates: never cut in tables, as numbers are not.
    var isDate: Bool {
        if case .date = self { return true }
        return false
    }

    /// Integers and floating values: right-aligned in tables.
    var isNumber: Bool {
        switch self {
        case .integer, .real, .decimal: return true
        default: return false
        }
    }
}

extension TextTable {
    /// Only the `columns` this table has (an `id` or `objectID` column stays first), in their order;
    /// the whole table when it has none of them.
    func choosing(_ columns: [String]) -> TextTable {
        guard !columns.isEmpty else { return self }
        var indexes = columns.compactMap { headers.firstIndex(of: $0) }
        guard !indexes.isEmpty else { return self }
        if let id = headers.firstIndex(of: "id") ?? (headers.first == "objectID" ? 0 : nil), !indexes.contains(id) {
            indexes.insert(id, at: 0)
        }
        var seen = Set<Int>()
        indexes = indexes.filter { seen.insert($0).inserted }
        var chosen = TextTable(
            headers: indexes.map { headers[$0] }, values: rows.map { row in indexes.map { $0 < row.count ? row[$0] : .null } },
            footer: footer, gap: gap)
        chosen.marks = marks
        chosen.digits = digits
        chosen.narrowestCap = narrowestCap
        chosen.wholeColumns = Set(indexes.enumerated().filter { wholeColumns.contains($0.element) }.map(\.offset))
        chosen.numberColumns = Set(indexes.enumerated().filter { numberColumns.contains($0.element) }.map(\.offset))
        chosen.estimated = Set(
            estimated.compactMap { cell in indexes.firstIndex(of: cell.column).map { TableCell(row: cell.row, column: $0) } })
        chosen.footnote = footnote
        chosen.caption = caption
        return chosen
    }

    /// One record (an object) as the REPL prints it: a one-row table when every column
    /// fits the terminal, else vertically, one `key | value` line per column, so that no
    /// column is left out or cut.
    public static func record(headers: [String], values: [Value], format: TableFormat) -> String {
        let table = TextTable(headers: headers, values: [values]).choosing(format.columns)
        guard !format.mode.isData, format.width > 0 else { return table.render(format) }
        let cells = (table.rows.first ?? []).map { TerminalWidth.of(CellText.flat(CellText.display($0, local: format.localTime))) }
        // `.width N` cuts a value past N; otherwise a value may take the whole line.
        let limit = format.textWidth.flatMap { $0 > 0 ? $0 : nil } ?? Int.max
        let cut = cells.contains { $0 > limit }
        let needed =
            zip(table.headers, cells).map { max(TerminalWidth.of($0), min($1, limit)) }.reduce(0, +) + 3 * (table.headers.count - 1)
            + (format.mode == .box ? 4 : 0)
        if !cut, needed <= format.width { return table.render(format) }
        var vertical = format
        // Markdown needs its header row to be a table at all.
        vertical.headers = format.mode == .markdown
        // Both columns always show.
        vertical.width = 0
        let keyWidth = table.headers.map(TerminalWidth.of).max() ?? 0
        let valueWidth = max(20, format.width - keyWidth - 7)
        // Values read left-aligned under one another; nil stays nil. A value longer than
        // the line goes on over the lines below it, as psql's expanded view wraps it: the
        // one-object view is where a person reads a long text whole. With `.width N`
        // chosen it is cut instead, as every table cuts it.
        let wraps = format.textWidth == nil && format.mode != .markdown
        var pairs: [[Value]] = []
        for (key, value) in zip(table.headers, table.rows.first ?? []) {
            guard !value.isNull else {
                pairs.append([.text(key), .null])
                continue
            }
            let text = CellText.display(value, local: format.localTime)
            let lines = wraps ? TerminalWidth.wrapped(CellText.flat(text), columns: valueWidth) : [text]
            for (index, line) in lines.enumerated() { pairs.append([.text(index == 0 ? key : ""), .text(line)]) }
        }
        // `.width 0`: no cap, the value whole on its line.
        return TextTable(headers: ["key", "value"], values: pairs).render(vertical, maxWidth: format.textWidth == 0 ? nil : valueWidth)
    }

    /// Dictionary rows as the REPL prints them: every row in the data modes; in the
    /// aligned ones the first and last of a long list, with how many there are.
    /// `estimated`: cells of `values` holding estimates, kept on the rows shown.
    public static func rows(headers: [String], values: [[Value]], format: TableFormat, estimated: Set<TableCell> = []) -> TextTable {
        let total = values.count
        let noun = total == 1 ? "row" : "rows"
        guard !format.mode.isData, TableFormat.hides(total: total, shown: format.rowLimit(total: total)) else {
            var table = TextTable(headers: headers, values: values, footer: format.mode.isData ? nil : "(\(grouped(total)) \(noun))")
            table.estimated = estimated
            return table
        }
        let head = (format.maxRows + 1) / 2
        let tail = format.maxRows - head
        var table = TextTable(
            headers: headers, values: Array(values.prefix(head)) + Array(values.suffix(tail)),
            footer: format.footer("(\(grouped(total)) \(noun))", total: total, shown: head + tail), gap: tail > 0 ? head : nil)
        // The first `head` rows keep their places; the last `tail` follow them.
        table.estimated = Set(
            estimated.compactMap { cell in
                if cell.row < head { return cell }
                return cell.row >= total - tail ? TableCell(row: head + cell.row - (total - tail), column: cell.column) : nil
            })
        return table
    }
}

/// A cell of a table, by row and column, both from 0.
public struct TableCell: Hashable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}
