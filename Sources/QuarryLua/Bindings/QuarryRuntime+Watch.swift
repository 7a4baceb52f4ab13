import CLua
import CQuarryShim
import CQuarrySignals
import Foundation
import QuarryFetch
import QuarryFormat
import QuarryStore

/// `watch(r)`: results as a table that redraws in place whenever they change, the way a
/// SwiftUI List over @FetchRequest does, until Ctrl-C or q (or --timeout). Changes are
/// noticed as the REPL notices them at its prompt: another process's commit moves
/// SQLite's data_version and `refreshFromStore` announces it; a save here is announced
/// at once. Each announcement goes through the results' own tracker (the observers'
/// diff), whose inserted, moved and updated rows are marked (+, ↕, ~) for a moment.
extension QuarryRuntime {
    func installWatch() {
        register(Self.watchLibrary)
    }

    private func watch(_ results: FetchResults, markSeconds: Double) throws {
        let view = WatchView(results: results, format: tableFormat, markSeconds: markSeconds, screen: console.makeScreen())
        try view.draw()
        // Not a terminal (a script, a pipe): the table once, as print would.
        guard console.isTerminal else { return }
        try view.startTracking()
        let listener = context.addChangeListener { [weak view] changes in view?.heard(changes) }
        defer { listener.cancel() }
        try console.readingKeys {
            var generation = context.generation
            while quarry_should_stop() == 0 {
                // Keys change the request as a click on a SwiftUI Table's column header does
                // (1-9 sort by that attribute, again: the other way; r reverses), page through
                // long results (n or space, p or b, g first, G last), and q ends.
                if let key = console.readKey(waiting: 100) {
                    if key == .character(UInt8(ascii: "q")) { break }
                    if case .character(let byte) = key,
                       let sort = Self.sort(after: byte, results.request.sortDescriptors, attributes: view.sortableColumns) {
                        try results.reconfigure { $0.sortDescriptors = sort }
                        deliver()
                        try view.reconfigured()
                    } else {
                        try view.page(key)
                    }
                    continue
                }
                if let failure = view.failure { throw failure }
                noticeOutsideChanges()
                // Drawn again only when something changed, or a mark's moment is over.
                guard context.generation != generation || view.marksExpired else { continue }
                generation = context.generation
                try view.draw()
            }
        }
        // Ctrl-C ends the watch as it ends any statement; the prompt comes on a line of its
        // own, below the terminal's "^C".
        console.write("\n")
    }

    /// The sort a key asks for, or nil for a key that means nothing here.
    static func sort(after key: UInt8, _ current: [QuarryFetch.SortDescriptor], attributes: [String]) -> [QuarryFetch.SortDescriptor]? {
        if key == UInt8(ascii: "r") {
            guard var first = current.first else { return nil }
            first.ascending.toggle()
            return [first] + current.dropFirst()
        }
        guard key >= UInt8(ascii: "1"), key <= UInt8(ascii: "9") else { return nil }
        let index = Int(key - UInt8(ascii: "1"))
        guard index < attributes.count else { return nil }
        let name = attributes[index]
        let ascending = current.first?.key == name ? !(current.first?.ascending ?? false) : true
        return [QuarryFetch.SortDescriptor(key: name, ascending: ascending)]
    }

    /// Globals (also fields of `quarry`), registered as lua.c registers a library: name → function.
    static let watchLibrary: [LuaBinding] = [
        LuaBinding("watch", QuarryRuntime.luaWatch),
    ]

    // MARK: Bindings

    func luaWatch(_ call: LuaCall) throws -> Int32 {
        // watch(r, { marks = seconds }): how long changed rows stay marked.
        var markSeconds = WatchView.markSeconds
        if call.argumentCount >= 2, call.type(2) == LUA_TTABLE {
            try Self.checkOptions(call, 2, allowed: ["marks"], operation: "watch")
            _ = LuaTable.field(call.state, 2, "marks")
            if lua_type(call.state, -1) == LUA_TNUMBER { markSeconds = max(0, lua_tonumberx(call.state, -1, nil)) }
            quarry_pop(call.state, 1)
        }
        // Dictionary rows and sql() rows: their query runs again at each change.
        if let query = rememberedQuery(call.state, 1) {
            try self.watch(query, markSeconds: markSeconds)
            return 0
        }
        guard let handle = swiftObject(call.state, 1, kind: .results, as: ResultsHandle.self) else {
            if isQuarryRows(call.state, 1) {
                throw LuaError("these rows have no query to run again (summarize's); watch results, fetch{ ..., result = \"dictionaries\" } or sql(...)", operation: "watch")
            }
            throw call.typeError(1, expected: "results, dictionary results or sql() rows")
        }
        try self.watch(handle.results, markSeconds: markSeconds)
        return 0
    }
}

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

    private func mark(_ change: ResultsChange) {
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
        let size = max(1, format.maxRows), last = try lastPageStart()
        switch key {
        case .character(UInt8(ascii: "n")), .character(UInt8(ascii: " ")), .pageDown: pageStart = min(last, start + size)
        case .character(UInt8(ascii: "p")), .character(UInt8(ascii: "b")), .pageUp: pageStart = max(0, start - size)
        case .character(UInt8(ascii: "g")), .home: pageStart = 0
        case .character(UInt8(ascii: "G")), .end: pageStart = last
        default: return
        }
        try draw()
    }

    private func lastPageStart() throws -> Int {
        let size = max(1, format.maxRows), total = try results.count()
        return max(0, (total - 1) / size * size)
    }
}
