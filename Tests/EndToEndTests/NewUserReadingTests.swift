import Foundation
import Testing

/// What a new user read wrong in a trial: a diff row shown alone put `new` before `old`,
/// and a chart of sectioned results with a limit charted other rows than the results hold.
@Suite struct NewUserReadingTests {
    /// A diff row reads old before new wherever it is shown: its table, `.mode line`, and
    /// one row alone at the prompt (whose keys were sorted by name: `new` first).
    @Test func aDiffRowReadsOldBeforeNewAlsoWhenShownAlone() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "a.db", "-e", #"entity "Item" { name = "string", price = "double" }; Item:new{ name = "pen", price = 1 }; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        try FileManager.default.copyItem(atPath: sandbox.path("a.db"), toPath: sandbox.path("b.db"))
        let changed = try await sandbox.quarry(["b.db", "-e", #"Item:get(1).price = 9; Item:new{ name = "mug", price = 4 }; save()"#])
        try #require(changed.status == 0, "\(changed)")
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"d = diff(open("b.db"))"#)
        #expect(try await repl.enter("=d[1]") == [#"{change = "~", entity = "Item", key = 1, property = "price", old = 1.0, new = 9.0}"#])
        #expect(try await repl.enter("=d[2]") == [#"{change = "+", entity = "Item", key = 2, new = "name = \"mug\", price = 4.0"}"#])
        // The table as ever: old, then new.
        let header = try await repl.enter("=d").first { $0.hasPrefix("change") } ?? ""
        let old = header.range(of: "| old")?.lowerBound
        let new = header.range(of: "| new")?.lowerBound
        #expect(old.flatMap { o in new.map { o < $0 } } == true, "\(header)")
        // Other tables keep their keys by name.
        #expect(try await repl.enter(#"={ new = 2, old = 1 }"#) == ["{new = 2, old = 1}"])
    }

    /// barchart(r, label, value) of sectioned results with a limit charts the rows the
    /// results hold (the section key first, then the sort, then the limit), as histogram
    /// and barchart(r, key) count them, and as sqlite3 reads them.
    @Test func aChartOfSectionedResultsWithALimitChartsTheRowsTheyHold() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "c.db", "-e",
            #"""
            entity "Sale" { region = "string", name = "string", amount = "int64" }
            for _, r in ipairs{ {"west","a",5}, {"east","b",7}, {"west","c",1}, {"east","d",3}, {"north","e",9}, {"east","f",2}, {"north","g",4} } do
              Sale:new{ region = r[1], name = r[2], amount = r[3] }
            end
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let run = try await sandbox.quarry([
            "c.db", "-e",
            #"""
            local r = fetch{ "Sale", section = "region", sort = "name", limit = 4 }
            print(barchart(r, "name", "amount"))
            print(barchart(r, "region"))
            print(histogram(r, "amount", { bins = 3 }))
            """#
        ])
        #expect(run.status == 0, "\(run)")
        // "b |#### 7" (off a terminal) → "b 7": each bar's label and value.
        let bars = run.lines.compactMap { line -> String? in
            let parts = line.components(separatedBy: "|")
            guard parts.count == 2 else { return nil }
            let value = parts[1].split(separator: " ").last.map(String.init) ?? ""
            return parts[0].trimmingCharacters(in: .whitespaces) + " " + value
        }
        let rows = try await sqlite3(sandbox, "c.db", "SELECT name || ' ' || amount FROM Sale ORDER BY region, name LIMIT 4")
        let counts = try await sqlite3(
            sandbox, "c.db",
            "SELECT region || ' ' || count(*) FROM (SELECT region FROM Sale ORDER BY region, name LIMIT 4) GROUP BY region ORDER BY region")
        let bins = try await sqlite3(
            sandbox, "c.db",
            "SELECT sum(amount BETWEEN 2 AND 4) || ' ' || sum(amount BETWEEN 5 AND 7) || ' ' || sum(amount BETWEEN 8 AND 10) "
                + "FROM (SELECT amount FROM Sale ORDER BY region, name LIMIT 4)")
        let binCounts = bins.split(separator: " ").map(String.init)
        let expected =
            rows.split(separator: "\n").map(String.init) + counts.split(separator: "\n").map(String.init)
            // The last bin ends at the largest value (9), though it counts up to 10.
            + zip(["2 – 4", "5 – 7", "8 – 9"], binCounts).map { "\($0) \($1)" }
        #expect(bars == expected, "\(run)")
        #expect(rows.split(separator: "\n").map(String.init) == ["b 7", "d 3", "f 2", "e 9"], "sqlite3's rows: \(rows)")
    }
}
