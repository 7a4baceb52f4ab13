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
    func watch(_ results: FetchResults, markSeconds: Double) throws {
        let view = WatchView(results: results, format: tableFormat, markSeconds: markSeconds, screen: console.makeScreen())
        // Not a terminal (a script, a pipe): the table once, as print would.
        guard console.isTerminal else { return try view.draw() }
        console.write(Self.watchHint + "\n")
        noteUnheardCommits()
        // Tracked before anything is drawn: a commit made once the first page is on the
        // screen is then a change the watch marks, never part of what it started from.
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
                        let sort = Self.sort(after: byte, results.request.sortDescriptors, attributes: view.sortableColumns)
                    {
                        try results.reconfigure { $0.sortDescriptors = sort }
                        deliverBelow(view.clear)
                        try view.reconfigured()
                    } else {
                        try view.page(key)
                    }
                    continue
                }
                if let failure = view.failure { throw failure }
                // Observers that print, print above the table, which is drawn again below.
                var printed = false
                noticeOutsideChanges(beforeOutput: view.clear, afterOutput: { printed = true })
                // Drawn again only when something changed, or a mark's moment is over.
                guard context.generation != generation || view.marksExpired || printed else { continue }
                generation = context.generation
                try view.draw()
            }
        }
        // Ctrl-C ends the watch as it ends any statement; the prompt comes on a line of its
        // own, below the terminal's "^C".
        console.write("\n")
    }

    /// Said once as a watch starts, above the table: a person new to it sees how to stop it
    /// (nothing else on the screen says so) and what the keys do.
    static let watchHint = "watching: q or Ctrl-C stops; 1-9 sort by a column (again: reversed), r reverses, n/p page"

    /// Observers waiting to hear something, heard with `clear` first when there are any:
    /// what they print goes above a watch's drawing, not under it.
    func deliverBelow(_ clear: () -> Void) {
        guard !observerRegistry.queue.isEmpty else { return }
        clear()
        deliver()
        fflush(nil)
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
}
