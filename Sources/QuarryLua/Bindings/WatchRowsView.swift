import Foundation
import QuarryFormat
import QuarryModel
import QuarryPredicates
import QuarryStore

/// What a watch of rows shows: the query's latest rows, re-sorted when keys asked, a page
/// of them on a terminal, and the rows that changed marked for `markSeconds`.
final class WatchRowsView {
    let format: TableFormat
    let markSeconds: Double
    private let run: () throws -> DictionaryRows
    private(set) var headers: [String] = []
    /// The rows in the query's order.
    private var queried: [[Value]] = []
    /// A sort chosen with keys: a column shown and its direction; nil: the query's order.
    private(set) var order: (column: String, ascending: Bool)?
    private var reversed = false
    private var pageStart: Int?
    private var marks: [[Value]: String] = [:]
    private var markedAt = Date.distantPast
    private var runs = 0

    init(format: TableFormat, markSeconds: Double = WatchView.markSeconds, run: @escaping () throws -> DictionaryRows) {
        // A live view is drawn in place, never paged: it fits the terminal as it is.
        var format = format
        format.pagerRows = 0
        format.screenRows = 0
        // Nor can a dot-command be typed in it: its columns are what its keys and the terminal give.
        format.leftOutHint = nil
        format.hiddenRowsHint = nil
        // Its pages hold `.maxrows` rows; with no limit (0), a terminal's worth.
        if format.maxRows <= 0 { format.maxRows = TableFormat().maxRows }
        self.format = format
        self.markSeconds = markSeconds
        self.run = run
    }

    var marksExpired: Bool { !marks.isEmpty && Date().timeIntervalSince(markedAt) > markSeconds }

    /// Runs the query again; rows that are new since the last run are marked.
    func refresh() throws {
        let rows = try run()
        let shown = rows.shown ?? rows.columns
        let positions = shown.map { rows.columns.firstIndex(of: $0) }
        let values = rows.rows.map { row in positions.map { $0.map { rows.shownValue(row[$0], of: rows.columns[$0]) } ?? .null } }
        if runs > 0 {
            if marksExpired { marks = [:] }
            let before = Set(queried)
            let firsts = Set(queried.compactMap(\.first))
            let changed = values.filter { !before.contains($0) }
            for row in changed { marks[row] = row.first.map(firsts.contains) == true ? "~" : "+" }
            if !changed.isEmpty { markedAt = Date() }
        }
        runs += 1
        // No rows may mean no column names (a grouped request learns them from a row):
        // the header stays.
        if !shown.isEmpty || headers.isEmpty { headers = shown }
        queried = values
    }

    /// From here on a page at a time, as a results watch shows.
    func startPaging() { pageStart = 0 }

    /// The columns keys 1-9 sort by: those shown (`.columns`), else all.
    var sortableColumns: [String] {
        let chosen = format.columns.filter(headers.contains)
        return chosen.isEmpty ? headers : chosen
    }

    /// The rows in the order shown.
    var rows: [[Value]] {
        guard let order, let column = headers.firstIndex(of: order.column) else { return reversed ? queried.reversed() : queried }
        // Nil first going up, as SQLite sorts; ties keep the query's order.
        return queried.enumerated().sorted { a, b in
            let (x, y) = (a.element[column], b.element[column])
            let c = x.isNull || y.isNull ? (x.isNull ? (y.isNull ? 0 : -1) : 1) : SQLOrdering.compare(x, y) ?? 0
            if c != 0 { return order.ascending ? c < 0 : c > 0 }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// A key: 1-9 sort by a column (again: the other way), r reverses, and the paging keys.
    func press(_ key: ConsoleKey) {
        if case .character(let byte) = key, byte == UInt8(ascii: "r") {
            if let current = order { order = (current.column, !current.ascending) } else { reversed.toggle() }
            return
        }
        if case .character(let byte) = key, byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") {
            let index = Int(byte - UInt8(ascii: "1"))
            guard index < sortableColumns.count else { return }
            let name = sortableColumns[index]
            order = (name, order?.column == name ? !(order?.ascending ?? false) : true)
            return
        }
        guard let start = pageStart else { return }
        let size = max(1, format.maxRows)
        let last = max(0, (queried.count - 1) / size * size)
        switch key {
        case .character(UInt8(ascii: "n")), .character(UInt8(ascii: " ")), .pageDown: pageStart = min(last, start + size)
        case .character(UInt8(ascii: "p")), .character(UInt8(ascii: "b")), .pageUp: pageStart = max(0, start - size)
        case .character(UInt8(ascii: "g")), .home: pageStart = 0
        case .character(UInt8(ascii: "G")), .end: pageStart = last
        default: return
        }
    }

    /// The table as it is now: as print shows the rows, or one page of them.
    func text() -> String {
        if marksExpired { marks = [:] }
        let rows = self.rows
        let sorted = order.map { " · sorted here by \($0.ascending ? "" : "-")\($0.column)" } ?? (reversed ? " · reversed" : "")
        guard let start = pageStart, !format.mode.isData else {
            var table = TextTable.rows(headers: headers, values: rows, format: format)
            if let footer = table.footer { table.footer = footer + sorted }
            return table.render(format)
        }
        let size = max(1, format.maxRows)
        let total = rows.count
        // Rows that shrank under a later page: their last page is shown.
        let first = min(start, max(0, (total - 1) / size * size))
        pageStart = first
        let page = Array(rows[min(first, total)..<min(total, first + size)])
        let noun = total == 1 ? "row" : "rows"
        let footer = total > size ? "rows \(grouped(first + 1))–\(grouped(first + page.count)) of \(grouped(total))" : "(\(grouped(total)) \(noun))"
        var table = TextTable(headers: headers, values: page, footer: footer + sorted)
        table.marks = page.map { marks[$0] ?? "" }
        return table.render(format)
    }
}
