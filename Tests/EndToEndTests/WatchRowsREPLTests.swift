import Foundation
import Testing

/// `watch` of grouped dictionary rows and of `sql()` rows on a real terminal (issue 32):
/// another program's commit (here `sqlite3`) makes the query run again, and the table is
/// redrawn in place.
@Suite struct WatchRowsREPLTests {
    private func store(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            entity "Sale" { country = "string", total = "double" }
            Sale:new{ country = "FR", total = 10 }; Sale:new{ country = "FR", total = 5 }; Sale:new{ country = "DE", total = 7 }
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
    }

    @Test func aGroupedWatchIsRedrawnWhenAnotherProgramChangesTheFile() async throws {
        let sandbox = try Sandbox()
        try await store(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter(#"p = { "country", "sum(total) AS revenue" }"#) == [])
        #expect(try await repl.enter(#"g = fetch{ "Sale", result = "dictionaries", properties = p, group = { "country" }, sort = "country" }"#) == [])
        try await repl.type("watch(g, { marks = 8 })")
        try await repl.press("Enter")
        let first = try await repl.waitUntil("the grouped table") { $0.contains("(2 rows)") }
        #expect(first.contains { $0.hasPrefix("country | revenue") }, "\(first)")
        // One transaction: two statements of the shell are two commits, and a watch that
        // polled between them drew the first alone (its table then showed DE unchanged).
        let change = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("s.db"),
                "BEGIN; INSERT INTO Sale (country, total) VALUES ('US', 40); UPDATE Sale SET total = 20 WHERE country = 'DE'; COMMIT"
            ])
        try #require(change.status == 0, "\(change)")
        let redrawn = try await repl.waitUntil("the table redrawn with US") { $0.contains("(3 rows)") }
        // In place: one table on the screen; the new group marked +, the changed one ~.
        #expect(redrawn.filter { $0.hasPrefix("country | revenue") }.count == 1, "\(redrawn)")
        #expect(redrawn.contains { $0.hasPrefix("US ") && $0.contains("40") && $0.hasSuffix(" +") }, "\(redrawn)")
        #expect(redrawn.contains { $0.hasPrefix("DE ") && $0.contains("20") && $0.hasSuffix(" ~") }, "\(redrawn)")
        // 2 sorts the rows shown by revenue, here (the query keeps its own order).
        try await repl.type("2")
        let sorted = try await repl.waitUntil("sorted by revenue") { $0.contains("(3 rows) · sorted here by revenue") }
        let order = ["FR ", "DE ", "US "].map { prefix in sorted.firstIndex { $0.hasPrefix(prefix) } ?? -1 }
        #expect(order[0] >= 0 && order[0] < order[1] && order[1] < order[2], "\(sorted)")
        try await repl.type("q")
        try await repl.waitForPrompt()
        // The script's rows are as they were given; the watch ran the query itself.
        #expect(try await repl.enter("=#g") == ["2"])
    }

    /// A table row's cells, trimmed, with a whole number's ".0" left off.
    private static func cells(_ line: String) -> [String] {
        line.split(separator: "|").map { cell in
            let text = cell.trimmingCharacters(in: .whitespaces)
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
    }

    @Test func anSQLWatchRunsItsStatementAgainWithItsArguments() async throws {
        let sandbox = try Sandbox()
        try await store(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        try await repl.type(#"watch(sql("SELECT count(*) AS n, sum(total) AS big FROM Sale WHERE total > ?", 6))"#)
        try await repl.press("Enter")
        let first = try await repl.waitUntil("the sql table") { $0.contains { $0.hasPrefix("n | big") } && $0.contains("(1 row)") }
        #expect(first.contains { Self.cells($0) == ["2", "17"] }, "\(first)")
        let insert = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("s.db"),
                "INSERT INTO Sale (country, total) VALUES ('US', 40), ('US', 1)"
            ])
        try #require(insert.status == 0, "\(insert)")
        let redrawn = try await repl.waitUntil("the count redrawn") { $0.contains { Self.cells($0) == ["3", "57"] } }
        #expect(redrawn.filter { $0.hasPrefix("n | big") }.count == 1, "\(redrawn)")
        try await repl.press("C-c")
        try await repl.waitForPrompt()
        #expect(try await repl.enter("1 + 1") == ["2"])
    }
}
