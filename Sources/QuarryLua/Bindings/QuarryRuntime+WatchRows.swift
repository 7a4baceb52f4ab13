import CQuarrySignals
import Foundation
import QuarryFormat
import QuarryPredicates
import QuarryStore

/// `watch(rows)` for dictionary rows (`fetch{ ..., result = "dictionaries" }`) and
/// `sql()` rows: the query the rows remember runs again in SQLite whenever the store
/// changes (a save here, another process's commit: the triggers a results watch has),
/// and the table is redrawn in place. Rows have no identity to diff, so a row that was
/// not there before is marked: `~` when a row with the same first value was (a group
/// whose aggregate changed), else `+`.
extension QuarryRuntime {
    func watch(_ query: RowsQuery, markSeconds: Double) throws {
        let view = WatchRowsView(format: tableFormat, markSeconds: markSeconds) { [unowned self] in try self.rows(of: query, noting: false) }
        try view.refresh()
        // Not a terminal (a script, a pipe): the table once, as print would.
        guard console.isTerminal else {
            console.write(view.text() + "\n")
            return
        }
        view.startPaging()
        console.write(Self.watchHint + "\n")
        // Said as a results watch says it: psql's commits reach these rows only at refresh().
        noteUnheardCommits()
        let screen = console.makeScreen()
        screen.show(view.text())
        try console.readingKeys {
            var generation = context.generation
            while quarry_should_stop() == 0 {
                // 1-9 sort the rows shown by that column (again: the other way) and r
                // reverses, here, as the query cannot be changed; paging as for results.
                if let key = console.readKey(waiting: 100) {
                    if key == .character(UInt8(ascii: "q")) { break }
                    view.press(key)
                    screen.show(view.text())
                    continue
                }
                // Observers that print, print above the table, which is drawn again below.
                var printed = false
                noticeOutsideChanges(beforeOutput: { screen.clear() }, afterOutput: { printed = true })
                guard context.generation != generation || view.marksExpired || printed else { continue }
                if context.generation != generation {
                    generation = context.generation
                    try view.refresh()
                }
                screen.show(view.text())
            }
        }
        console.write("\n")
    }
}
