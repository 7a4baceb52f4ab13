import Foundation
import Testing

/// The REPL's own habits, met in the first half hour by a new user (issue 63, item 6).
extension REPLHabitsTests {
    /// A sum's float noise is not shown: tables show reals with 15 significant digits, as
    /// sqlite3 does, in CSV on the terminal too; CSV written to a file keeps the exact value.
    @Test func tablesShowRealsAsSqlite3Does() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "r.db", "-e",
            #"""
            entity "L" { g = "string", p = "double" }
            L:new{ g = "a", p = 0.1 }; L:new{ g = "a", p = 0.2 }; L:new{ g = "b", p = 12615.05 }; save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["r.db"])
        try await repl.waitForPrompt()
        let grouped = try await repl.enter(#"fetch{ "L", result = "dictionaries", properties = { "g", "sum(p)" }, group = { "g" }, sort = "g" }"#)
        #expect(grouped.contains { $0.hasPrefix("a ") && $0.hasSuffix(" 0.3") }, "\(grouped)")
        #expect(grouped.contains { $0.hasPrefix("b ") && $0.hasSuffix(" 12615.05") }, "\(grouped)")
        #expect(!grouped.contains { $0.contains("0.30000000000000004") }, "\(grouped)")
        let summed = try await repl.enter(#"sql("SELECT sum(p) AS total FROM L WHERE g = 'a'")"#)
        #expect(summed.contains { $0.trimmingCharacters(in: .whitespaces) == "0.3" }, "\(summed)")
        // CSV on the terminal is read by a person, as the table is; to a file, by a program,
        // which gets the exact value.
        _ = try await repl.enter(".mode csv")
        let shown = try await repl.enter(#"sql("SELECT sum(p) AS total FROM L WHERE g = 'a'")"#)
        #expect(shown == ["total", "0.3"], "\(shown)")
        _ = try await repl.enter(".once sum.csv")
        _ = try await repl.enter(#"sql("SELECT sum(p) AS total FROM L WHERE g = 'a'")"#)
        let exact = try String(contentsOfFile: sandbox.path("sum.csv"), encoding: .utf8)
        #expect(exact == "total\n0.30000000000000004\n", "CSV to a file keeps the exact value: \(exact)")
    }
}

extension REPLHabitsTests {
    /// `.tables`, the first thing a sqlite3 user types: the entities and the tables they
    /// are read from, in `.help` and completed by Tab as every dot-command is.
    @Test func dotTablesListsEntitiesAndTheirTables() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("f.db"),
                "CREATE TABLE invoice_items (id INTEGER PRIMARY KEY, price REAL); INSERT INTO invoice_items (price) VALUES (1.5)"
            ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["f.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"entity "Note" { text = "string" }"#)
        let tables = try await repl.enter(".tables")
        #expect(tables.first?.hasPrefix("entity") == true && tables.first?.hasSuffix("table") == true, "\(tables)")
        #expect(tables.contains { $0.hasSuffix("| invoice_items") }, "the foreign table by its own name: \(tables)")
        #expect(tables.contains { $0.hasPrefix("Note ") && $0.hasSuffix("| Note") }, "\(tables)")
        let help = try await repl.enter(".help")
        #expect(help.contains { $0.hasPrefix(".tables ") }, "\(help)")
        // Tab completes it.
        let before = try await repl.screen().count
        try await repl.type(".tabl")
        try await repl.press("Tab")
        try await repl.press("Enter")
        let again = try await repl.waitForPrompt(after: before)
        #expect(again.contains("> .tables") && again.contains { $0.hasSuffix("| invoice_items") }, "\(again.suffix(6))")
    }
}

extension REPLHabitsTests {
    /// `.quit` or Ctrl-D with unsaved changes says what would be lost and asks for the
    /// same again, as an editor does; the second one quits without them.
    @Test func quittingWithUnsavedChangesAsksFirst() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["q.db", "-e", #"entity "T" { n = "int64" }; T:new{ n = 1 }; save()"#])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["q.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter("T:new{ n = 2 }")
        let first = try await repl.enter(".quit")
        #expect(
            first.count == 1 && first[0].contains("1 pending change (1 inserted) would be lost") && first[0].contains("save()")
                && first[0].contains("rollback()") && first[0].contains(".quit again"), "\(first)")
        // Another line in between: the next .quit asks again.
        #expect(try await repl.enter("=haschanges()") == ["true"])
        #expect(try await repl.enter(".quit").first?.contains(".quit again") == true)
        // Ctrl-D right after counts as the same again.
        let before = try await repl.screen()
        try await repl.press("C-d")
        #expect(try await repl.waitForExit() == 0)
        let after = try await repl.screen()
        #expect(!after[before.count...].contains { $0.contains("would be lost") }, "the second asks nothing: \(after.suffix(4))")
        let stored = try await sandbox.quarry(["q.db", "-e", "print(count('T'))"])
        #expect(stored.lines == ["1"], "the unsaved object was dropped: \(stored)")
    }

    @Test func ctrlDWithUnsavedChangesAsksAndSaveLetsItQuit() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["d.db", "-e", #"entity "T" { n = "int64" }; save()"#])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["d.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter("T:new{ n = 7 }")
        let before = try await repl.screen()
        try await repl.press("C-d")
        let asked = try await repl.waitForPrompt(after: before.count)
        #expect(asked.contains { $0.contains("would be lost") && $0.contains("Ctrl-D again") }, "\(asked.suffix(3))")
        _ = try await repl.enter("save()")
        // Nothing unsaved now: Ctrl-D quits at once, and the object is kept.
        try await repl.press("C-d")
        #expect(try await repl.waitForExit() == 0)
        let stored = try await sandbox.quarry(["d.db", "-e", "print(count('T'))"])
        #expect(stored.lines == ["1"], "\(stored)")
    }

    /// A chunk of several lines is one history entry, kept whole in the history file:
    /// Up brings back the function, as lua, sqlite3 and psql bring back a statement.
    @Test func aMultiLineChunkIsOneHistoryEntry() async throws {
        let sandbox = try Sandbox()
        let state = sandbox.path("state")
        let environment = LuaInitTests.clean(["XDG_STATE_HOME": state])
        do {
            let repl = try await TmuxSession(sandbox, environment: environment)
            try await repl.waitForPrompt()
            #expect(try await repl.enter("function twice(x)", then: ">>") == [])
            #expect(try await repl.enter("  return x * 2", then: ">>") == [])
            #expect(try await repl.enter("end") == [])
            #expect(try await repl.enter("=twice(21)") == ["42"])
            try await repl.press("Up")
            try await repl.press("Up")
            _ = try await repl.waitUntil("the whole function recalled") { $0.suffix(3) == ["> function twice(x)", "  return x * 2", "end"] }
            try await repl.press("C-c")
            try await repl.waitForPrompt()
            try await repl.press("C-d")
            _ = try await repl.waitForExit()
        }
        let history = try String(contentsOfFile: state + "/quarry/history", encoding: .utf8)
        #expect(history.contains("function twice(x)\n  return x * 2\nend\n"), "\(history)")

        // Read back from the file by the next session: still one entry, and it runs.
        let next = try await TmuxSession(sandbox, environment: environment)
        let start = try await next.waitForPrompt()
        try await next.press("Up")
        _ = try await next.waitUntil("the last line") { $0.last == "> =twice(21)" }
        try await next.press("Up")
        _ = try await next.waitUntil("the function, whole") { $0.suffix(3) == ["> function twice(x)", "  return x * 2", "end"] }
        try await next.press("Enter")
        try await next.waitForPrompt(after: start.count + 2)
        #expect(try await next.enter("=twice(5)") == ["10"])
    }

    /// Ctrl-C during a statement: the terminal's ^C, then the message on a line of its own.
    @Test func ctrlCDuringAStatementEndsItsLine() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        let before = try await repl.waitForPrompt()
        try await repl.type("while true do end")
        try await repl.press("Enter")
        try await repl.waitUntil("the loop to start") { $0.count == before.count && $0.last == "> while true do end" }
        // The terminal discards type-ahead on Ctrl-C: let quarry read the line first.
        try await Task.sleep(nanoseconds: 500_000_000)
        try await repl.press("C-c")
        let after = try await repl.waitForPrompt(after: before.count)
        let report = Array(after[before.count..<after.count - 1])
        #expect(report.count == 2 && report[0] == "^C" && report[1].contains("interrupted"), "\(report)")
    }

    /// A long result and a short one say their count the same way.
    @Test func resultFootersHaveOneStyle() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "m.db", "-e", #"entity "T" { n = "int64", odd = "bool" }; for i = 1, 63 do T:new{ n = i, odd = i % 2 == 1 } end; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["m.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        // (The hidden rows said after the count: issue 80's trial.)
        #expect(try await repl.enter("fetch('T')").last?.hasPrefix("(63 objects), 43 rows hidden") == true)
        #expect(try await repl.enter("fetch('T', 'n <= 3')").last == "(3 objects)")
        let rows = try await repl.enter(#"fetch{ "T", result = "dictionaries", properties = { "n" } }"#)
        #expect(rows.last?.hasPrefix("(63 rows), 43 rows hidden") == true, "\(rows)")
        // Sections share `.maxrows` (20: ten rows each) and say what they hid the same way.
        let sections = try await repl.enter(#"fetch{ "T", sort = "n", section = "odd" }"#)
        #expect(sections.contains("(31 objects), 21 rows hidden (.maxrows N shows N rows, .maxrows 0 all)"), "\(sections)")
        #expect(sections.contains("(32 objects), 22 rows hidden (.maxrows N shows N rows, .maxrows 0 all)"), "\(sections)")
    }
}

extension REPLHabitsTests {
    /// `.schema Inv<Tab>` offers every entity that starts so, and `.schema --sql` shows a
    /// foreign table's SQL as sqlite3's `.schema` does.
    @Test func schemaCompletesEveryEntityAndShowsAForeignTablesSQL() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("c.db"),
                """
                CREATE TABLE Invoice (InvoiceId INTEGER PRIMARY KEY);
                CREATE TABLE InvoiceLine (LineId INTEGER PRIMARY KEY, InvoiceId INTEGER REFERENCES Invoice (InvoiceId));
                CREATE INDEX IFK_InvoiceLineInvoiceId ON InvoiceLine (InvoiceId);
                """
            ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["c.db"])
        let start = try await repl.waitForPrompt()
        try await repl.type(".schema Inv")
        try await repl.press("Tab")
        try await repl.press("Tab")
        let listed = try await repl.waitUntil("both entities listed") { lines in
            lines.contains { $0.contains("Invoice ") && $0.contains("InvoiceLine") }
        }
        #expect(listed.count > start.count, "\(listed.suffix(4))")
        try await repl.press("C-c")
        try await repl.waitForPrompt()
        let sql = try await repl.enter(".schema --sql InvoiceLine")
        #expect(sql.first == "CREATE TABLE InvoiceLine (LineId INTEGER PRIMARY KEY, InvoiceId INTEGER REFERENCES Invoice (InvoiceId));", "\(sql)")
        #expect(sql.contains("CREATE INDEX IFK_InvoiceLineInvoiceId ON InvoiceLine (InvoiceId);"), "\(sql)")
        #expect(try await repl.enter(".schema --sql Nope").first?.contains("unknown entity") == true)
    }
}
