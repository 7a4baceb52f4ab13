import Foundation
import Testing

/// A new user's trial after issue 80, typed as a person types: a mistyped `.open`, help's
/// list, a long result's hidden rows, `.once` in the current mode, `.pager auto`, the
/// entity `import` names, completion inside strings, the Lua an UPDATE is answered with,
/// unsaved changes a grouped request leaves out, and a date's spread with its unit.
@Suite struct REPLIssue80TrialTests {
    private func sales(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            entity "Sale" { artist = "string", price = "double", qty = "int64", sold = "date?" }
            for i = 1, 30 do
              Sale:new{ artist = i % 3 == 0 and "Queen" or "Metallica", price = i, qty = 1, sold = date(1600000000 + i * 86400 * 11) }
            end
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
    }

    /// `.open chinok.sqlite` beside chinook.sqlite: refused, the file meant named, nothing
    /// made; `.open --new` makes it (never over a file that is there); the command line,
    /// which makes a missing DB as the contract says, names the file meant in its note.
    @Test func aMistypedOpenIsRefusedNamingTheFileMeantAndMakesNothing() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "chinook.sqlite",
            "CREATE TABLE Customer (CustomerId INTEGER PRIMARY KEY, Name TEXT); INSERT INTO Customer (Name) VALUES ('a'), ('b')")
        let repl = try await TmuxSession(sandbox, columns: 200)
        try await repl.waitForPrompt()
        let refused = try await repl.enter(".open chinok.sqlite").joined()
        #expect(
            refused
                == ".open: chinok.sqlite does not exist (did you mean 'chinook.sqlite'?); nothing was made (.open --new chinok.sqlite makes a new, empty store)",
            "\(refused)")
        #expect(!sandbox.exists("chinok.sqlite"), "a refused name was made")
        #expect(try await repl.enter(".open chinook.sqlite") == ["opened chinook.sqlite: 1 entity (Customer)"])
        #expect(try await repl.enter(#"=count("Customer")"#) == ["2"])
        let existing = try await repl.enter(".open --new chinook.sqlite")
        #expect(existing.count == 1 && existing[0].hasPrefix(".open --new: chinook.sqlite exists"), "\(existing)")
        #expect(try await repl.enter(#"=count("Customer")"#) == ["2"])
        let made = try await repl.enter(".open --new chinok.sqlite")
        #expect(made.count == 1 && made[0].hasPrefix("note: chinok.sqlite did not exist"), "\(made)")
        #expect(sandbox.exists("chinok.sqlite"))
        // A name with no file near it is made as before, with its note.
        let other = try await repl.enter(".open other.db")
        #expect(other.count == 1 && other[0].hasPrefix("note: other.db did not exist"), "\(other)")

        // At start-up the contract makes a missing DB; its note names the file meant.
        let started = try await sandbox.quarry(["chinok.db", "-e", "print(#entities())"])
        #expect(started.status == 0 && started.lines == ["0"], "\(started)")
        let startedAgain = try await sandbox.quarry(["chinoook.sqlite", "-e", "print(#entities())"])
        #expect(startedAgain.errorLines.first?.contains("(did you mean chinook.sqlite?)") == true, "\(startedAgain)")
        // Nothing was written to it: removed at the end of the run (TypoFileCleanupTests).
        #expect(!sandbox.exists("chinoook.sqlite") && startedAgain.errorLines.count == 2, "\(startedAgain)")
    }

    /// help()'s list of functions is wrapped as the rest of help is: at 80 columns no row
    /// of it breaks a name (each ends after a comma but the last).
    @Test func helpsFunctionListIsWrappedToTheTerminal() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox, columns: 80)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let help = try await repl.enter("help()")
        let start = try #require(help.firstIndex { $0.hasPrefix("help(fn) describes one of: ") }, "\(help)")
        // (fetch{}'s keys follow, on rows of their own.)
        let end = help.firstIndex { $0.hasPrefix("fetch{} keys") } ?? help.endIndex
        let rows = Array(help[start..<end])
        #expect(rows.count > 2, "\(rows)")
        #expect(rows.dropLast().allSatisfy { $0.hasSuffix(",") }, "a name broken across rows: \(rows)")
        let names = rows.joined(separator: " ").dropFirst("help(fn) describes one of: ".count).components(separatedBy: ", ")
        #expect(names.contains("summarize") && names.contains("fetch") && names.allSatisfy { !$0.contains(" ") }, "\(names)")
    }

    /// A long result says how many rows it hid and how to see them; `.maxrows 0` shows
    /// every row, as other shells' 0 does.
    @Test func aLongResultSaysHowManyRowsItHidAndMaxrowsZeroShowsAll() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".maxrows 10")
        let hint = " hidden (.maxrows N shows N rows, .maxrows 0 all)"
        let objects = try await repl.enter(#"=fetch{ "Sale", sort = "price" }"#)
        #expect(objects.last == "(30 objects), 20 rows" + hint, "\(objects)")
        #expect(objects.contains { $0.hasPrefix("…") }, "\(objects)")
        let rows = try await repl.enter(#"=sql("SELECT price FROM Sale")"#)
        #expect(rows.last == "(30 rows), 20 rows" + hint, "\(rows)")
        #expect(try await repl.enter(".maxrows 0") == [])
        let all = try await repl.enter(#"=fetch{ "Sale", sort = "price" }"#)
        #expect(all.last == "(30 objects)" && all.count == 33 && !all.contains { $0.hasPrefix("…") }, "\(all)")
        #expect(try await repl.enter(".show").contains { $0.trimmingCharacters(in: .whitespaces) == "maxrows: 0" })
        // A short result says nothing of hidden rows.
        #expect(try await repl.enter(#"=fetch{ "Sale", limit = 2 }"#).last == "(2 objects)")
        let refused = try await repl.enter(".maxrows -1")
        #expect(refused.count == 1 && refused[0].hasPrefix("usage: .maxrows N (0: every row"), "\(refused)")
    }

    /// `.once FILE` writes the next result in the current mode, as sqlite3's does: a table
    /// whole (every row, no column cut to the terminal), CSV, JSON or the line mode.
    @Test func onceWritesInTheCurrentMode() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(".maxrows 10")
        #expect(try await repl.enter(".once all.txt") == [])
        #expect(try await repl.enter(#"=fetch{ "Sale", sort = "price" }"#) == ["written to all.txt"])
        let table = try sandbox.read("all.txt").split(separator: "\n").map(String.init)
        #expect(table.count == 33 && table.last == "(30 objects)" && !table.contains { $0.hasPrefix("…") }, "\(table)")
        #expect(table.first?.hasSuffix("sold") == true && table[2].hasSuffix("2020-09-24T12:26:40Z"), "every column whole: \(table.prefix(3))")
        // The terminal still abbreviates.
        let screen = try await repl.enter(#"=fetch{ "Sale", sort = "price" }"#)
        #expect(screen.contains { $0.hasPrefix("…") }, "\(screen)")
        // In the default table mode, a file named for a data format gets that format, said.
        _ = try await repl.enter(".once top.csv")
        let named = try await repl.enter(#"=fetch{ "Sale", sort = "price", limit = 2 }"#)
        #expect(named == ["written to top.csv as csv, for its name (.mode sets another)"], "\(named)")
        #expect(try sandbox.read("top.csv").hasPrefix("id,artist,price,qty,sold\nSale/1,Metallica,1.0,1,"))
        _ = try await repl.enter(".mode csv")
        #expect(try await repl.enter(".once out.csv") == [])
        #expect(try await repl.enter(#"=fetch{ "Sale", sort = "price", limit = 2 }"#) == ["written to out.csv"])
        let csv = try sandbox.read("out.csv").split(separator: "\n").map(String.init)
        #expect(csv.count == 3 && csv[0] == "id,artist,price,qty,sold" && csv[1].hasPrefix("Sale/1,Metallica,1.0,1,"), "\(csv)")
        _ = try await repl.enter(".mode json")
        #expect(try await repl.enter(".once out.json") == [])
        #expect(try await repl.enter(#"=sql("SELECT artist, count(*) AS n FROM Sale GROUP BY artist ORDER BY artist")"#) == ["written to out.json"])
        let json = try sandbox.read("out.json")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 2 && parsed?.first?["artist"] as? String == "Metallica", "\(json)")
        _ = try await repl.enter(".mode line")
        #expect(try await repl.enter(".once one.txt") == [])
        #expect(try await repl.enter(#"=Sale:first("price == 3")"#) == ["written to one.txt"])
        let line = try sandbox.read("one.txt")
        #expect(line.contains("artist = Queen") && !line.contains("|"), "\(line)")
    }

    /// `.pager auto` is taken: the pager (here one that marks its lines) only for output
    /// that does not fit the terminal.
    @Test func pagerAutoPagesOnlyWhatDoesNotFit() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"], environment: ["QUARRY_PAGER": "sed s/^/P:/"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        #expect(try await repl.enter(".pager auto") == [])
        #expect(try await repl.enter(".show").contains { $0.trimmingCharacters(in: .whitespaces) == "pager: auto" })
        let short = try await repl.enter(#"=fetch{ "Sale", limit = 3 }"#)
        #expect(short.last == "(3 objects)", "\(short)")
        _ = try await repl.enter(".maxrows 0")
        let long = try await repl.enter(#"=sql("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) SELECT i FROM n")"#)
        #expect(long.first == "P:i" && long.last == "P:(60 rows)", "\(long.suffix(3))")
    }

    /// `import("reads.csv")` says the entity it made and how to choose another name.
    @Test func importNamesTheEntityItMade() async throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("reads.csv", "title,pages\nDune,412\nEmma,474\n")
        let repl = try await TmuxSession(sandbox, columns: 200)
        try await repl.waitForPrompt()
        let imported = try await repl.enter(#"=import("reads.csv")"#)
        #expect(
            imported == [
                #"import reads.csv: made the entity Reads, named after the file (import("reads.csv", { entity = "Name" }) chooses another)"#, "2"
            ], "\(imported)")
        #expect(try await repl.enter(#"=import("reads.csv", { entity = "Book" })"#) == ["2"])
        let again = try await repl.enter(#"=import("reads.csv")"#)
        #expect(again.count == 3 && again[0].hasPrefix("import reads.csv: rows added to the entity Reads"), "\(again)")
        // The rows already there stay, as sqlite3's .import leaves them: said (trial 32).
        #expect(
            again.dropFirst().first
                == "import reads.csv: 2 rows added to the 2 Reads held (4 now); rows already there stay, as sqlite3's .import leaves them",
            "\(again)")
    }

    private func books(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.quarry([
            "b.db", "-e",
            #"""
            entity "Author" { name = "string", books = { many = "Book", inverse = "author" } }
            entity "Book" { title = "string", author = { one = "Author", inverse = "books" } }
            entity "Location" { place = "string" }
            local a = Author:new{ name = "Le Guin" }; Book:new{ title = "Lathe", author = a }; save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
    }

    /// Tab inside a predicate offers the entity's key paths only (no `name` or
    /// `attributes` of a handle); an entity's name completed alone gets its closing quote.
    @Test func completionInStringsOffersKeyPathsAndClosesAnEntitysName() async throws {
        let sandbox = try Sandbox()
        try await books(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["b.db"])
        try await repl.waitForPrompt()
        try await repl.type(#"=count("Book", "author.na"#)
        try await repl.press("Tab")
        var screen = try await repl.waitUntil("the key completed") { $0.last == #"> =count("Book", "author.name"# }
        try await repl.type(#" == 'Le Guin'")"#)
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(">", after: screen.count)
        #expect(screen[screen.count - 2] == "1", "\(screen.suffix(3))")
        // `book.` is no key path of Book: nothing to offer, not the handle's fields.
        let before = try await repl.screen().count
        try await repl.type(#"=count("Book", "book."#)
        try await repl.press("Tab")
        try await repl.press("Tab")
        try await repl.type("x")
        screen = try await repl.waitUntil("x typed") { $0.last == #"> =count("Book", "book.x"# }
        #expect(screen.count == before, "Tab listed something: \(screen.suffix(4))")
        try await repl.press("C-c")
        try await repl.waitForPrompt()
        // A unique entity name is closed with its quote; the call then runs as typed on.
        try await repl.type(#"=count("Lo"#)
        try await repl.press("Tab")
        screen = try await repl.waitUntil("the name and its quote") { $0.last == "> =count(\"Location\"" }
        try await repl.type(")")
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(">", after: screen.count)
        #expect(screen[screen.count - 2] == "0", "\(screen.suffix(3))")
        // The closing quote typed by habit after it is typed over: one quote.
        try await repl.type(#"=count("Lo"#)
        try await repl.press("Tab")
        screen = try await repl.waitUntil("the name and its quote") { $0.last == "> =count(\"Location\"" }
        try await repl.type(#"", "place == nil")"#)
        screen = try await repl.waitUntil("one quote") { $0.last == #"> =count("Location", "place == nil")"# }
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(">", after: screen.count)
        #expect(screen[screen.count - 2] == "0", "\(screen.suffix(3))")
        // A quote already after the cursor is not doubled.
        try await repl.type(#"=count("Bo")"#)
        try await repl.press("Left")
        try await repl.press("Left")
        try await repl.press("Tab")
        screen = try await repl.waitUntil("the name, its quote kept") { $0.last == #"> =count("Book")"# }
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(">", after: screen.count)
        #expect(screen[screen.count - 2] == "1", "\(screen.suffix(3))")
    }

    /// An UPDATE at the prompt is answered with the updateall line built from it, which
    /// runs as shown; one computing from a column with the loop that does it.
    @Test func anUpdateIsAnsweredWithTheLuaBuiltFromIt() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"], columns: 200)
        try await repl.waitForPrompt()
        let update = try await repl.enter("UPDATE Sale SET qty = 3, artist = 'Queen' WHERE price > 25 AND artist <> 'Queen'")
        let line = #"Sale:updateall("price > 25 AND artist != 'Queen'", {}, { qty = 3, artist = "Queen" })"#
        #expect(update == ["SQL here only reads; this does it, written at once (rollback() does not undo it): " + line], "\(update)")
        // 26, 28 and 29, with the note that says they are written already.
        #expect(try await repl.enter("=" + line) == ["note: written to the file at once (rollback() does not undo it)", "3"])
        #expect(try await repl.enter(#"=count("Sale", "qty == 3")"#) == ["3"])
        let computed = try await repl.enter("update sale set price = price * 1.1 where artist = 'Metallica'")
        let loop = #"for _, o in ipairs(Sale:fetch("artist = 'Metallica'")) do o.price = o.price * 1.1 end; save()"#
        #expect(computed.count == 1 && computed[0].hasSuffix("this loop does it: " + loop), "\(computed)")
        #expect(computed[0].contains("updateall sets values, not values computed from a column"), "\(computed)")
        // The line ends in save(), whose result prints as save() alone prints it.
        let saved = try await repl.enter(loop)
        #expect(saved.count == 1 && saved[0].hasPrefix("saved: 0 inserted, "), "\(saved)")
        #expect(try await repl.enter(#"=Sale:first("price > 1.09 AND price < 1.11").price"#) == ["1.1"])
        let delete = try await repl.enter("DELETE FROM Sale WHERE qty IN (3)")
        #expect(
            delete == [#"SQL here only reads; this does it, written at once (rollback() does not undo it): Sale:deleteall("qty IN {3}", {})"#],
            "\(delete)")
    }

    /// A grouped request at the prompt says, once, that unsaved changes to its entity are
    /// not in its rows; its rows are the saved ones, and after save() nothing is said.
    @Test func aGroupedRequestSaysUnsavedChangesAreNotInItsRows() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"Sale:new{ artist = "Abba", price = 1, qty = 1 }; Sale:first("price == 2"):delete()"#)
        #expect(try await repl.enter(#"=count("Sale")"#) == ["30"])
        let request = #"=fetch{ "Sale", properties = { "artist", "count(*) AS n" }, group = { "artist" }, sort = "artist" }"#
        let grouped = try await repl.enter(request)
        #expect(grouped.first == "note: 2 unsaved changes to Sale are not in these rows (save() first)", "\(grouped)")
        #expect(grouped.filter { $0.hasPrefix("note:") }.count == 1 && !grouped.contains { $0.hasPrefix("Abba") }, "\(grouped)")
        #expect(grouped.contains { $0.hasPrefix("Metallica") && $0.hasSuffix(" 20") }, "the saved rows: \(grouped)")
        _ = try await repl.enter("save()")
        let saved = try await repl.enter(request)
        #expect(!saved.contains { $0.hasPrefix("note:") } && saved.contains { $0.hasPrefix("Abba") }, "\(saved)")
    }

    /// summarize() of a date column shows its spread with a unit (days here); the value in
    /// the returned rows stays seconds.
    @Test func aDatesSpreadIsShownWithItsUnit() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"], columns: 200)
        try await repl.waitForPrompt()
        let summary = try await repl.enter(#"=summarize("Sale")"#)
        let sold = try #require(summary.first { $0.hasPrefix("sold") }, "\(summary)")
        let cells = sold.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let header = try #require(summary.first).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let stddev = try #require(header.firstIndex(of: "stddev"))
        #expect(cells[stddev].hasSuffix(" days"), "\(sold)")
        let days = try #require(Double(cells[stddev].dropLast(" days".count)))
        let seconds = try await repl.enter(#"for _, r in ipairs(summarize("Sale")) do if r.column == "sold" then print(r.stddev) end end"#)
        let exact = try #require(seconds.first.flatMap(Double.init), "\(seconds)")
        #expect(abs(days - exact / 86_400) < 0.01, "\(days) days, \(exact) s")
    }
}
