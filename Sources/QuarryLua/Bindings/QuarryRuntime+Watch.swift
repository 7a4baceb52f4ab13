import CLua
import CQuarrySignals
import Foundation
import QuarryFetch
import QuarryFormat
import QuarryStore

/// `watch(r)`: results as a table that redraws in place whenever they change, the way a
/// SwiftUI List over @FetchRequest does, until Ctrl-C (or --timeout). Changes are noticed
/// as the REPL notices them at its prompt: another process's commit moves SQLite's
/// data_version, `refreshFromStore` tells the observers, and the context's generation
/// moves; only then are the results drawn again.
extension QuarryRuntime {
    func installWatch() {
        defineGlobal("watch") { [unowned self] call in
            let handle = try self.results(call, 1)
            try self.watch(handle.results)
            return 0
        }
    }

    private func watch(_ results: FetchResults) throws {
        var lines = 0
        var shown = ""
        func draw() throws {
            let text = try ResultsTable(results, format: tableFormat).render()
            guard text != shown else { return }
            // Back to the table's first line and clear below it, then the new table.
            let back = lines > 0 ? "\u{1B}[\(lines)A\r\u{1B}[J" : ""
            FileHandle.standardOutput.write(Data((back + text + "\n").utf8))
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            shown = text
        }
        try draw()
        // Not a terminal (a script, a pipe): the table once, as print would.
        guard isatty(STDOUT_FILENO) != 0 else { return }
        var generation = context.generation
        while quarry_should_stop() == 0 {
            usleep(100_000)
            noticeOutsideChanges()
            guard context.generation != generation else { continue }
            generation = context.generation
            try draw()
        }
        // Ctrl-C ends the watch as it ends any statement; the prompt comes on a line of its
        // own, below the terminal's "^C".
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
