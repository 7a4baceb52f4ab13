import Foundation
import Testing

/// Trial 27: a DuckDB user's `quarry taxi.db job.lua > rows.txt` wrote 20 of the result's
/// rows around a line of "…", where sqlite3 and DuckDB write every row to a pipe or a
/// file. A batch run writes every row where its output is no terminal; at a terminal it
/// keeps the first and last rows and says how many it hid and what shows them.
@Suite struct BatchOutputRowsTests {
    /// A store of 30 numbered rows, more than the 20 a long result shows at a terminal.
    private func numbers(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3(
            sandbox, "n.db",
            "CREATE TABLE item (id INTEGER PRIMARY KEY, n INTEGER); WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 30) INSERT INTO item (n) SELECT i FROM k;"
        )
    }

    private static let script = #"print(fetch{ "item", sort = "n" }); print(sql("SELECT n FROM item ORDER BY n"))"#

    /// The numbers in the table's second column (objects) or first (rows), in order.
    private func numbers(in lines: [String]) -> [Int] {
        lines.compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return cells.last.flatMap { Int($0) }
        }
    }

    @Test func aScriptWritesEveryRowToAPipeAndAFile() async throws {
        let sandbox = try Sandbox()
        try await numbers(sandbox)
        // Through a real pipe, as `quarry n.db -e … | grep` runs.
        let piped = try await sandbox.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #""$0" n.db -e "$1" | cat"#, sandbox.binary.path, Self.script])
        // And into a file, as `> rows.txt` writes it; a script file runs the same.
        _ = try sandbox.write("job.lua", Self.script + "\n")
        let filed = try await sandbox.quarry(["n.db", "job.lua"])
        for result in [piped, filed] {
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            let lines = result.lines
            #expect(!lines.contains { $0.hasPrefix("…") } && !result.stdout.contains("hidden"), "\(result)")
            let objects = Array(lines.prefix { $0 != "(30 objects)" })
            #expect(objects.count == 32 && numbers(in: objects) == Array(1...30), "\(result)")
            #expect(lines.count == 32 + 1 + 32 + 1 && lines.last == "(30 rows)", "\(result)")
            #expect(numbers(in: Array(lines.dropFirst(33))) == Array(1...30), "\(result)")
        }
        // `.maxrows` in piped input is still the script's own say.
        let capped = try await sandbox.quarry(["n.db", "-"], stdin: ".maxrows 4\n" + Self.script + "\n")
        #expect(capped.status == 0 && capped.lines.filter { $0.hasPrefix("…") }.count == 2, "\(capped)")
        #expect(numbers(in: capped.lines) == [1, 2, 29, 30, 1, 2, 29, 30], "\(capped)")
    }

    /// At a terminal the script's long result shows its first and last rows, and its
    /// footer says how many it hid and that output to a file or pipe holds them all.
    @Test func aScriptAtATerminalSaysHowManyRowsItHid() async throws {
        let sandbox = try Sandbox()
        try await numbers(sandbox)
        let terminal = try await TmuxSession(sandbox, arguments: ["n.db", "-e", Self.script])
        #expect(try await terminal.waitForExit() == 0)
        let screen = try await terminal.screen()
        let hint = " hidden (output to a file or pipe shows every row)"
        #expect(screen.contains("(30 objects), 10 rows" + hint), "\(screen)")
        #expect(screen.contains("(30 rows), 10 rows" + hint), "\(screen)")
        #expect(screen.filter { $0.hasPrefix("…") }.count == 2, "\(screen)")
        #expect(numbers(in: screen) == Array(1...10) + Array(21...30) + Array(1...10) + Array(21...30), "\(screen)")
    }
}
