import Foundation
import QuarryFetch
import QuarryFormat
import QuarryStore

/// What a watch shows: a page of the results, with the rows the last changes touched
/// marked until `markSeconds` have passed, drawn over the previous drawing.
final class WatchView {
    /// How long changed rows stay marked unless `watch(r, { marks = seconds })` says.
    static let markSeconds = 2.0
    let results: FetchResults
    let format: TableFormat
    private var tracker: ResultsTracker?
    private var marks: [Int64: String] = [:]
    private var markedAt = Date.distantPast
    private var pageStart: Int?
    private let screen: any ConsoleScreen

    let markSeconds: Double

    init(results: FetchResults, format: TableFormat, markSeconds: Double = WatchView.markSeconds, screen: any ConsoleScreen) {
        self.results = results
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
        self.screen = screen
    }

    var marksExpired: Bool { !marks.isEmpty && Date().timeIntervalSince(markedAt) > markSeconds }

    /// The table as it is now; drawn only when it differs from what is on the screen.
    func draw() throws {
        if marksExpired { marks = [:] }
        // Results that shrank under a later page: their last page is shown.
        if let start = pageStart { pageStart = min(start, try lastPageStart()) }
        var table = ResultsTable(results, format: format)
        table.pageStart = pageStart
        if tracker != nil {
            let marks = self.marks
            table.mark = { marks[$0] }
        }
        screen.show(try table.render())
    }

    /// The table taken off the screen before observers print (the next `draw` shows it
    /// again, below what they printed).
    func clear() {
        screen.clear()
    }

    /// From here on the results' changes are diffed, as observers hear them, to mark rows.
    func startTracking() throws {
        tracker = try ResultsTracker(results)
        if !results.isSectioned { pageStart = 0 }
        try draw()
    }

    /// Why the results cannot be shown any more (their table dropped by another
    /// process, say): the watch ends with it.
    private(set) var failure: Error?

    /// A save here or another process's commit, announced by the context.
    func heard(_ changes: ChangeSet) {
        guard let tracker else { return }
        do { mark(try tracker.apply(changes)) } catch { failure = error }
    }

    /// The attributes keys 1-9 sort by: the columns shown (`.columns`), else all.
    var sortableColumns: [String] {
        let names = results.entity.attributeNames
        let chosen = format.columns.filter { names.contains($0) }
        return chosen.isEmpty ? names : chosen
    }

    /// After the request changed (a new sort): every row that moved is marked.
    func reconfigured() throws {
        if let tracker { mark(try tracker.reload()) }
        try draw()
    }

    func mark(_ change: ResultsChange) {
        guard !change.isEmpty else { return }
        if Date().timeIntervalSince(markedAt) > markSeconds { marks = [:] }
        for row in change.inserted { marks[row.key] = "+" }
        for row in change.moved { marks[row.key] = "↕" }
        for row in change.updated { marks[row.key] = "~" }
        markedAt = Date()
    }

    /// Paging keys: n, space or Page Down the next page; p, b or Page Up the previous;
    /// g or Home the first; G or End the last.
    func page(_ key: ConsoleKey) throws {
        guard let start = pageStart else { return }
        let size = max(1, format.maxRows)
        let last = try lastPageStart()
        switch key {
        case .character(UInt8(ascii: "n")), .character(UInt8(ascii: " ")), .pageDown: pageStart = min(last, start + size)
        case .character(UInt8(ascii: "p")), .character(UInt8(ascii: "b")), .pageUp: pageStart = max(0, start - size)
        case .character(UInt8(ascii: "g")), .home: pageStart = 0
        case .character(UInt8(ascii: "G")), .end: pageStart = last
        default: return
        }
        try draw()
    }

    func lastPageStart() throws -> Int {
        let size = max(1, format.maxRows)
        let total = try results.count()
        return max(0, (total - 1) / size * size)
    }
}
