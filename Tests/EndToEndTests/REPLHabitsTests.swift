import Foundation
import Testing

/// Habits people bring from the `lua` shell, typed as a person types them.
@Suite struct REPLHabitsTests {
    @Test func anEqualsSignPrintsTheExpression() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("=1 + 2") == ["3"])
        let two = try await repl.enter(#"=1 + 2, "x""#) // a tab between, as print writes (the screen shows spaces)
        #expect(two.count == 1 && two[0].hasPrefix("3") && two[0].hasSuffix("x"), "\(two)")
        #expect(try await repl.enter("x = 5") == [])
        #expect(try await repl.enter("=x * 2") == ["10"])
    }
}

/// A name that did not exist and does not look like a database's gets a note.
@Suite struct NewFileNoteTests {
    @Test func aNewFileWithoutADatabaseExtensionIsNoted() async throws {
        let sandbox = try Sandbox()
        let typo = try await sandbox.quarry(["flihgts", "-e", #"entity "Flight" { carrier = "string" }; print(#entities())"#])
        #expect(typo.status == 0 && typo.lines == ["1"], "\(typo)")
        #expect(typo.errorLines.count == 1 && typo.errorLines[0].hasPrefix("note: flihgts did not exist"), "\(typo)")
        let again = try await sandbox.quarry(["flihgts", "-e", "print(1)"])
        #expect(again.stderr.isEmpty, "an existing file is not noted: \(again)")
        let named = try await sandbox.quarry(["new.db", "-e", "print(1)"])
        #expect(named.stderr.isEmpty, "a database name is not noted: \(named)")
    }
}

/// `.schema` shows relationships: declared ones in the entity, relate()'s as the call.
@Suite struct SchemaListingTests {
    @Test func schemaListsRelationshipsIncludingRelated() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("p.csv", "a,b\n1,x\n")
        try sandbox.write("q.csv", "b,c\nx,2\n")
        let made = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            import("p.csv", { entity = "P" }); import("q.csv", { entity = "Q" }); relate("P", "b", "Q", "b")
            entity "Owner" { name = "string", pets = { many = "Pet", inverse = "owner", delete = "cascade" } }
            entity "Pet" { name = "string" }
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        let lines = try await repl.enter(".schema")
        #expect(lines.contains(#"-- q: to-one to Q by b (relate("P", "b", "Q", "b", "q") made it; kept in the file)"#), "\(lines)")
        #expect(lines.contains(#"  pets = { many = "Pet", inverse = "owner", delete = "cascade" },"#), "\(lines)")
        // An inverse declared only from the other side is made to-many (a many-to-many pair).
        #expect(lines.contains(#"  owner = { many = "Owner", inverse = "pets" },"#), "\(lines)")
    }
}

/// `watch(r)` redraws the table in place when another process commits, until Ctrl-C.
@Suite struct WatchTests {
    @Test func watchRedrawsOnAnotherProcessesCommitAndCtrlCReturns() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["w.db", "-e", #"entity "T" { n = "int64" }; T:new{ n = 1 }; save()"#])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        try await repl.type(#"watch(fetch{ "T", sort = "-n" })"#)
        try await repl.press("Enter")
        _ = try await repl.waitUntil("the table") { $0.contains("(1 object)") }
        let insert = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("w.db"), "INSERT INTO T (n) VALUES (42)"])
        try #require(insert.status == 0, "\(insert)")
        let redrawn = try await repl.waitUntil("the table redrawn with the new row") { $0.contains("(2 objects)") }
        // In place: one table on the screen, the new row first (sorted by -n).
        #expect(redrawn.filter { $0.hasPrefix("id ") }.count == 1, "\(redrawn)")
        #expect(redrawn.contains { $0.hasPrefix("T/2 | 42") }, "\(redrawn)")
        try await repl.press("C-c")
        try await repl.waitForPrompt()
        #expect(try await repl.enter("1 + 1") == ["2"])
    }
}

extension WatchTests {
    /// Keys sort as a click on a column header does, through r.sort: 1-9 pick an
    /// attribute (again: the other way), r reverses, q ends the watch.
    @Test func keysSortTheWatchedResultsThroughTheirRequest() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "k.db", "-e", #"entity "T" { a = "int64", b = "string" }; T:new{ a = 1, b = "z" }; T:new{ a = 2, b = "y" }; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["k.db"])
        try await repl.waitForPrompt()
        try await repl.type(#"r = fetch("T"); watch(r)"#)
        try await repl.press("Enter")
        _ = try await repl.waitUntil("the table") { $0.contains("(2 objects)") }
        try await repl.type("2") // by b: y before z
        _ = try await repl.waitUntil("sorted by b") { lines in
            guard let y = lines.firstIndex(where: { $0.hasPrefix("T/2") }), let z = lines.firstIndex(where: { $0.hasPrefix("T/1") }) else {
                return false
            }
            return y < z
        }
        try await repl.type("r") // reversed: z before y
        _ = try await repl.waitUntil("reversed") { lines in
            guard let y = lines.firstIndex(where: { $0.hasPrefix("T/2") }), let z = lines.firstIndex(where: { $0.hasPrefix("T/1") }) else {
                return false
            }
            return z < y
        }
        try await repl.type("q")
        try await repl.waitForPrompt()
        #expect(try await repl.enter("print(r.sort[1])") == ["-b"])
    }
}

/// Seeing long and wide data at the REPL: the live view's marks and pages, a pager for
/// output longer than the terminal, one wide object per line, and a choice of columns.
@Suite struct SeeingAtTheREPLTests {
    @Test func watchMarksANewRowAndPagesThroughLongResults() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["w.db", "-e", #"entity "T" { n = "int64" }; for i = 1, 45 do T:new{ n = i * 10 } end; save()"#])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        // Marks last ten minutes here: the test sees the mark however slowly it reads the
        // screen (a full suite on two cores can hold a poll back for seconds).
        try await repl.type(#"watch(fetch{ "T", sort = "n" }, { marks = 600 })"#)
        try await repl.press("Enter")
        _ = try await repl.waitUntil("the first page") { $0.contains("rows 1–20 of 45") }
        let insert = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("w.db"), "INSERT INTO T (n) VALUES (5)"])
        try #require(insert.status == 0, "\(insert)")
        // The new row comes first, marked.
        let marked = try await repl.waitUntil("the new row marked") { $0.contains { $0.hasPrefix("T/46 |") && $0.hasSuffix(" +") } }
        #expect(marked.contains("rows 1–20 of 46"), "\(marked)")
        try await repl.type("n")
        let second = try await repl.waitUntil("the second page") { $0.contains("rows 21–40 of 46") }
        #expect(second.contains { $0.hasPrefix("T/20 |") } && !second.contains { $0.hasPrefix("T/46 |") }, "\(second)")
        try await repl.type("G")
        _ = try await repl.waitUntil("the last page") { $0.contains("rows 41–46 of 46") }
        // Page Up is a key of its own, not the digit in its escape sequence (a sort).
        try await repl.press("PageUp")
        _ = try await repl.waitUntil("the page before") { $0.contains("rows 21–40 of 46") }
        // Rows deleted under the last page: the view moves back to the page that exists.
        try await repl.type("G")
        _ = try await repl.waitUntil("the last page again") { $0.contains("rows 41–46 of 46") }
        let delete = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("w.db"), "DELETE FROM T WHERE n > 300"])
        try #require(delete.status == 0, "\(delete)")
        _ = try await repl.waitUntil("the last page that exists") { $0.contains("rows 21–31 of 31") }
        try await repl.type("q")
        try await repl.waitForPrompt()
        // Marks for a moment: the next row's mark goes by itself (waited for, never timed).
        try await repl.type(#"watch(fetch{ "T", sort = "n" }, { marks = 0.2 })"#)
        try await repl.press("Enter")
        _ = try await repl.waitUntil("the watch again") { $0.contains("rows 1–20 of 31") }
        let another = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("w.db"), "INSERT INTO T (n) VALUES (1)"])
        try #require(another.status == 0, "\(another)")
        _ = try await repl.waitUntil("the newer row, its mark gone") { lines in
            lines.contains("rows 1–20 of 32") && lines.contains { $0.hasPrefix("T/47 |") } && !lines.contains { $0.hasSuffix(" +") }
        }
        try await repl.type("q")
        try await repl.waitForPrompt()
        #expect(try await repl.enter("=#fetch('T')") == ["32"])
    }

    @Test func longOutputGoesThroughThePagerUnlessItIsOff() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        // 60 lines in a 40-line pane: less shows the first screen and waits.
        try await repl.type("=string.rep('line\\n', 59) .. 'last'")
        try await repl.press("Enter")
        let paged = try await repl.waitUntil("less's prompt") { $0.last == ":" }
        #expect(!paged.contains("last"), "the pager holds the rest: \(paged.suffix(3))")
        try await repl.type("q")
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let plain = try await repl.enter("=string.rep('line\\n', 59) .. 'last'")
        #expect(plain.last == "last", "\(plain.suffix(3))")
        // Short output never pages.
        _ = try await repl.enter(".pager on")
        #expect(try await repl.enter("=1 + 1") == ["2"])
    }

    @Test func aPagerThatFailsLosesNothing() async throws {
        let sandbox = try Sandbox()
        for pager in ["false", "no-such-pager-anywhere"] {
            let repl = try await TmuxSession(sandbox, environment: ["PAGER": pager])
            try await repl.waitForPrompt()
            let lines = try await repl.enter("=string.rep('line\\n', 59) .. 'last'")
            #expect(lines.last == "last" && lines.filter { $0 == "line" }.count == 59, "PAGER=\(pager): \(lines.suffix(3))")
        }
    }

    @Test func aWideObjectPrintsVerticallyAndColumnsCanBeChosen() async throws {
        let sandbox = try Sandbox()
        let attributes = (1...14).map { "attribute_number_\($0) = \"int64\"" }.joined(separator: ", ")
        let values = (1...14).map { "attribute_number_\($0) = \($0)" }.joined(separator: ", ")
        let made = try await sandbox.quarry(["v.db", "-e", "entity \"W\" { \(attributes) }; W:new{ \(values) }; save()"])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["v.db"])
        try await repl.waitForPrompt()
        let object = try await repl.enter("W:first()")
        #expect(object.count == 15 && object.first == "id                  | W/1", "\(object)")
        #expect(object.contains("attribute_number_14 | 14"), "\(object)")
        #expect(try await repl.enter(".columns attribute_number_3,attribute_number_1") == ["tables show: attribute_number_3, attribute_number_1"])
        let table = try await repl.enter("fetch('W')")
        #expect(table.first == "id  | attribute_number_3 | attribute_number_1", "\(table)")
        _ = try await repl.enter(".columns")
        let all = try await repl.enter("fetch('W')")
        #expect(all.last?.contains(" columns: ") == true && all.last?.contains(" (.mode line") == true, "every column again, as many as fit: \(all)")
    }

    @Test func tabCompletesEntityNamesAndKeyPathsThroughRelationships() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "c.db", "-e",
            #"""
            entity "Airline" { name = "string" }
            entity "Flight" { n = "int64", airline = { one = "Airline", inverse = "flights" } }
            Flight:new{ n = 1, airline = Airline:new{ name = "Delta" } }; save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["c.db"])
        try await repl.waitForPrompt()
        try await repl.type(#"count("Fl"#)
        try await repl.press("Tab")
        try await repl.type(#"", "airline.na"#)
        try await repl.press("Tab")
        try await repl.type(#" == 'Delta'")"#)
        let echoed = try await repl.waitUntil("the completed line") { $0.last == #"> count("Flight", "airline.name == 'Delta'")"# }
        try await repl.press("Enter")
        let answer = try await repl.waitForPrompt(">", after: echoed.count)
        #expect(answer[answer.count - 2] == "1", "\(answer.suffix(3))")
    }
}
