import Foundation
import Testing

/// Issue 63 item 6's last habits: Tab after `Item.`, `Item:`, `o.` and in `sql("`, typed
/// as a person types them.
extension REPLHabitsTests {
    @Test func tabCompletesAHandlesKeysAnObjectsKeysAndTablesInSQL() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "c.db", "-e",
            #"""
            entity "Owner" { name = "string" }
            entity "Item" { title = "string", qty = "int64", owner = { one = "Owner", inverse = "items" } }
            entity "Quote" { text = "string" }
            Item:new{ title = "a", qty = 7 }; save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["c.db"])
        try await repl.waitForPrompt()

        // `Item.`: the entity's attributes and relationship, listed at once (nothing is
        // common to them), besides the handle's own fields.
        try await repl.type("Item.")
        try await repl.press("Tab")
        let keys = try await repl.waitUntil("Item's keys listed") { lines in
            lines.contains { $0.contains("title") && $0.contains("qty") && $0.contains("owner") }
        }
        #expect(!keys.contains { $0.contains("fetch") }, "methods follow ':', not '.': \(keys.suffix(4))")
        try await repl.press("C-c")
        try await repl.waitForPrompt()

        // `Item:`: its methods (read below the keys listed before).
        let start = try await repl.screen().count
        try await repl.type("Item:")
        try await repl.press("Tab")
        let methods = try await repl.waitUntil("Item's methods listed") { lines in
            lines.dropFirst(start).contains { $0.contains("fetch") && $0.contains("updateall") }
        }
        #expect(!methods.dropFirst(start).contains { $0.contains("title") }, "\(methods.suffix(4))")
        try await repl.press("C-c")
        try await repl.waitForPrompt()

        // `o.`: an object's keys, completed in the line.
        #expect(try await repl.enter("o = Item:first()") == [])
        try await repl.type("=o.q")
        try await repl.press("Tab")
        let object = try await repl.waitUntil("o.qty completed") { $0.last == "> =o.qty" }
        try await repl.press("Enter")
        let qty = try await repl.waitForPrompt(">", after: object.count)
        #expect(qty[qty.count - 2] == "7", "\(qty.suffix(3))")

        // In sql("...: the tables, here the one that starts so.
        try await repl.type(#"=#sql("SELECT * FROM Qu"#)
        try await repl.press("Tab")
        try await repl.type(#"")"#)
        let sql = try await repl.waitUntil("the table completed") { $0.last == #"> =#sql("SELECT * FROM Quote")"# }
        try await repl.press("Enter")
        let rows = try await repl.waitForPrompt(">", after: sql.count)
        #expect(rows[rows.count - 2] == "0", "\(rows.suffix(3))")
    }
}

/// A watch's table is replaced whole, whatever else reaches the terminal between two
/// drawings (issue 63 item 6: "a redraw after an outside commit drew a second frame
/// below the first").
extension WatchTests {
    /// An observer printing as another process commits: its lines go above the table,
    /// which is drawn again below them. Printed under the table, they moved the cursor,
    /// and the next drawing went back up too few rows: the old table's top stayed above
    /// the new one.
    @Test func anObserverPrintingDuringAWatchLeavesOneTable() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["w.db", "-e", #"entity "T" { n = "int64" }; T:new{ n = 1 }; save()"#])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"observe("T", function(ch) print("heard " .. #ch.inserted) end)"#)
        try await repl.type(#"watch(fetch{ "T", sort = "n" })"#)
        try await repl.press("Enter")
        _ = try await repl.waitUntil("the table") { $0.contains("(1 object)") }
        for (n, count) in [(42, 2), (43, 3)] {
            let insert = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("w.db"), "INSERT INTO T (n) VALUES (\(n))"])
            try #require(insert.status == 0, "\(insert)")
            let redrawn = try await repl.waitUntil("the table redrawn with \(count) rows") { $0.contains("(\(count) objects)") }
            #expect(redrawn.filter { $0.hasPrefix("id ") }.count == 1, "one table: \(redrawn)")
            #expect(redrawn.filter { $0 == "heard 1" }.count == count - 1, "\(redrawn)")
            // What the observer printed is above the table.
            if let heard = redrawn.lastIndex(of: "heard 1"), let header = redrawn.firstIndex(where: { $0.hasPrefix("id ") }) {
                #expect(heard < header, "\(redrawn)")
            }
        }
        try await repl.press("C-c")
        try await repl.waitForPrompt()
        #expect(try await repl.enter("=#fetch('T')") == ["3"])
    }

    /// A row of wide characters (CJK), wider on the terminal than its characters count:
    /// its wrapped rows are counted as the terminal draws them, so the next drawing
    /// replaces all of the table.
    @Test func aRowOfWideCharactersIsReplacedWhole() async throws {
        let sandbox = try Sandbox()
        let wide = String(repeating: "漢", count: 40)
        let made = try await sandbox.quarry([
            "w.db", "-e", #"entity "T" { a = "string", b = "string" }; T:new{ a = "\#(wide)", b = "\#(wide)" }; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        try await repl.type(#"watch(fetch("T"))"#)
        try await repl.press("Enter")
        _ = try await repl.waitUntil("the table") { $0.contains("(1 object)") }
        let insert = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("w.db"), "INSERT INTO T (a, b) VALUES ('x', 'y')"])
        try #require(insert.status == 0, "\(insert)")
        let redrawn = try await repl.waitUntil("the table redrawn") { $0.contains("(2 objects)") }
        #expect(redrawn.filter { $0.hasPrefix("id ") }.count == 1, "one table: \(redrawn)")
        #expect(!redrawn.contains("(1 object)"), "\(redrawn)")
        try await repl.press("C-c")
        try await repl.waitForPrompt()
    }
}
