import Foundation
import Testing

/// Issue 80, "the REPL people keep open", typed as a person types: one rendering of a
/// number, SQL at the prompt, Ctrl-D and os.exit() inside work, a typo'd entity, and
/// batch requests without a predicate that ask first.
@Suite struct REPLIssue80Tests {
    /// A store with sums whose doubles carry float noise (0.1 + 0.2, 90.08999999999992).
    private func sales(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.quarry([
            "s.db", "-e",
            #"""
            entity "Sale" { artist = "string", price = "double", qty = "int64" }
            Sale:new{ artist = "Metallica", price = 0.1, qty = 1 }
            Sale:new{ artist = "Metallica", price = 0.2, qty = 1 }
            Sale:new{ artist = "Queen", price = 90.08999999999992, qty = 2 }
            save()
            """#
        ])
        try #require(made.status == 0, "\(made)")
    }

    @Test func aNumberReadsTheSameInATablePrintEqualsAndTheLineModeWhileExportsKeepEveryDigit() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"r = fetch{ "Sale", properties = { "artist", "sum(price) AS total" }, group = { "artist" }, sort = "artist" }"#)
        let table = try await repl.enter("=r")
        #expect(table.contains { $0.hasPrefix("Metallica |") && $0.hasSuffix(" 0.3") }, "\(table)")
        #expect(table.contains { $0.hasPrefix("Queen") && $0.hasSuffix("| 90.09") }, "\(table)")
        #expect(try await repl.enter("print(r[1].total)") == ["0.3"])
        #expect(try await repl.enter("=r[2].total") == ["90.09"])
        _ = try await repl.enter(".mode line")
        let line = try await repl.enter("=r")
        #expect(line.contains { $0.hasSuffix("total = 0.3") } && line.contains { $0.hasSuffix("total = 90.09") }, "\(line)")
        _ = try await repl.enter(".mode table")
        // An export reads back as the same double: every digit.
        #expect(try await repl.enter(#"=export(r, "out.csv")"#) == ["wrote 2 rows to out.csv", "2"])
        let csv = try String(contentsOfFile: sandbox.path("out.csv"), encoding: .utf8)
        #expect(csv.contains("Metallica,0.30000000000000004") && csv.contains("Queen,90.08999999999992"), "\(csv)")
        // summarize: six significant digits in the printed table.
        let summary = try await repl.enter(#"=summarize("Sale")"#)
        let price = summary.first { $0.hasPrefix("price") } ?? ""
        #expect(price.contains("| 51.9269 |"), "the standard deviation to six digits: \(summary)")
        let qty = summary.first { $0.hasPrefix("qty") } ?? ""
        #expect(qty.contains("| 1.33333 |"), "the mean (4 / 3) to six digits: \(summary)")
    }

    @Test func sqlTypedAtThePromptRunsAsSqlAndAWriteIsAnsweredWithTheLuaForIt() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        // (tmux takes a closing ';' as its own separator: SQLAtPrompt's tests check one.)
        let rows = try await repl.enter("select artist, count(*) AS n from Sale group by artist order by artist")
        #expect(rows.first == "artist    | n", "\(rows)")
        #expect(rows.contains("Metallica | 2") && rows.contains("Queen     | 1") && rows.last == "(2 rows)", "\(rows)")
        #expect(try await repl.enter("WITH t AS (SELECT 40 + 2 AS x) SELECT x FROM t") == ["x", "--", "42", "(1 row)"])
        let pragma = try await repl.enter("PRAGMA table_info(Sale)")
        #expect(pragma.contains { $0.contains("artist") }, "\(pragma)")
        // A quoted name or a VALUES list, which Lua would parse too, is SQL.
        #expect(try await repl.enter(#"select count(*) AS n from "Sale""#) == ["n", "-", "3", "(1 row)"])
        let values = try await repl.enter("VALUES (7)")
        #expect(values.contains { $0.trimmingCharacters(in: .whitespaces) == "7" } && values.last == "(1 row)", "\(values)")
        // Lua comes first: select() is Lua's.
        #expect(try await repl.enter("=select('#', 1, 2)") == ["2"])
        // A statement that writes: one line naming the Lua that does it, no syntax error.
        let insert = try await repl.enter("INSERT INTO Sale (artist) VALUES ('x')")
        #expect(insert.count == 1 && insert[0].contains(#"Sale:new{ artist = "x" }; save()"#) && !insert[0].contains("syntax error"), "\(insert)")
        let delete = try await repl.enter("delete from Sale")
        #expect(delete.count == 1 && delete[0].contains("deleteall"), "\(delete)")
        let update = try await repl.enter("UPDATE Sale SET qty = 3")
        #expect(update.count == 1 && update[0].contains("updateall"), "\(update)")
        let create = try await repl.enter("create table t (a)")
        #expect(create.count == 1 && create[0].contains(#"entity "Name""#), "\(create)")
        // An error in the query is sql()'s.
        let missing = try await repl.enter("SELECT * FROM Nope")
        #expect(missing.count == 1 && missing[0].contains("no such table: Nope"), "\(missing)")
        // Kept in the history as typed: Up brings the SQL back.
        let before = try await repl.screen().count
        try await repl.press("Up")
        try await repl.waitUntil("the line brought back") { $0.count >= before && $0.last == "> SELECT * FROM Nope" }
        try await repl.press("C-c")
        try await repl.waitForPrompt()
        #expect(try await repl.enter(#"=count("Sale")"#) == ["3"], "nothing was written")
    }

    @Test func ctrlDOnAContinuationLineReportsTheChunkAndOsExitWarnsOfPendingChanges() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        let before = try await repl.enter("for i = 1, 3 do", then: ">>")
        #expect(before.isEmpty)
        try await repl.press("C-d")
        let reported = try await repl.waitForPrompt(">")
        #expect(reported.contains { $0.contains("'end' expected near <eof>") }, "\(reported.suffix(4))")
        #expect(try await repl.enter("=1 + 1") == ["2"], "the session goes on")
        // An unknown global used as an entity: the entity meant.
        let typo = try await repl.enter("Sael:first()")
        #expect(typo.count == 1 && typo[0].contains("(did you mean 'Sale'?)"), "\(typo)")
        // os.exit() with pending changes says what .quit says, and does not quit.
        _ = try await repl.enter(#"Sale:new{ artist = "new", price = 1, qty = 1 }"#)
        let exit = try await repl.enter("os.exit()")
        #expect(exit.count == 1 && exit[0].hasPrefix("note: 1 pending change") && exit[0].contains("would be lost"), "\(exit)")
        #expect(exit.count == 1 && exit[0].contains("os.exit() again") && !exit[0].contains("stdin:1:"), "\(exit)")
        // The chunk stops there, as an error would stop it (a new change: a new note).
        let again = try await repl.enter(#"Sale:new{ artist = "b", price = 1, qty = 1 }; os.exit(); print(1)"#)
        // (Its 121 characters take two lines of the 120-column pane.)
        #expect(again.joined().hasPrefix("note: 2 pending changes") && !again.contains("1"), "\(again)")
        try await repl.type("os.exit()")
        try await repl.press("Enter")
        #expect(try await repl.waitForExit() == 0)
    }

    @Test func openingAMissingFileAndTheHistoryOfAFileQuarryDidNotMakeSaySo() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("f.db"), "CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x')"])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["f.db"])
        try await repl.waitForPrompt()
        let history = try await repl.enter(".history")
        #expect(history.count == 1 && history[0].contains("a file Quarry did not make keeps none"), "\(history)")
        let opened = try await repl.enter(".open chinok.sqlite")
        let note = "chinok.sqlite did not exist: a new store, kept as a file once written to"
        #expect(opened.count == 1 && opened[0].contains(note), "\(opened)")
    }

    @Test func updateallAndDeleteallWithoutAPredicateAskAtThePromptOnly() async throws {
        let sandbox = try Sandbox()
        try await sales(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["s.db"])
        try await repl.waitForPrompt()
        // No: nothing deleted.
        var start = try await repl.screen().count
        try await repl.type("=Sale:deleteall()")
        try await repl.press("Enter")
        try await repl.waitUntil("the question") { $0.count > start && $0.last == "delete all 3 rows of Sale? [y/N]" }
        try await repl.type("n")
        try await repl.press("Enter")
        var answered = try await repl.waitForPrompt(">", after: start + 1)
        #expect(answered.contains { $0.contains("nothing deleted") } && answered[answered.count - 2] == "0", "\(answered.suffix(4))")
        #expect(try await repl.enter(#"=count("Sale")"#) == ["3"])
        // A predicate asks nothing.
        // What it changed is in the file already, unlike what else is typed here: said.
        let written = "note: written to the file at once (rollback() does not undo it)"
        #expect(try await repl.enter(#"=Sale:updateall("qty > %@", { 1 }, { qty = 5 })"#) == [written, "1"])
        // Yes: every row updated.
        start = try await repl.screen().count
        try await repl.type("=Sale:updateall(nil, {}, { qty = 7 })")
        try await repl.press("Enter")
        try await repl.waitUntil("the question") { $0.count > start && $0.last == "update all 3 rows of Sale? [y/N]" }
        try await repl.type("y")
        try await repl.press("Enter")
        answered = try await repl.waitForPrompt(">", after: start + 1)
        #expect(answered[answered.count - 2] == "3" && answered[answered.count - 3] == written, "\(answered.suffix(4))")
        // .destructive off: no question.
        _ = try await repl.enter(".destructive off")
        #expect(try await repl.enter("=Sale:deleteall()") == [written, "3"])

        // --yes starts without asking (a sandbox of its own: one tmux server each); a
        // script never asks.
        let other = try Sandbox()
        try await sales(other)
        let yes = try await TmuxSession(other, arguments: ["--yes", "s.db"])
        try await yes.waitForPrompt()
        #expect(try await yes.enter("=Sale:deleteall()") == [written, "3"])
        try await sales(sandbox)
        let script = try await sandbox.quarry(["s.db", "-e", "print(Sale:deleteall())"])
        #expect(script.status == 0 && script.lines == ["3"], "\(script)")
    }

    @Test func helpPrintsInAScriptAndWrapsToTheTerminal() async throws {
        let sandbox = try Sandbox()
        let script = try await sandbox.quarry(["-e", "help(sql)"])
        #expect(script.status == 0 && script.lines.first == #"sql("SELECT ...", args...)"#, "\(script)")
        let method = try await sandbox.quarry(["-e", #"help("Item:updateall")"#])
        #expect(method.status == 0 && method.lines.first?.hasPrefix("Item:updateall(") == true, "\(method)")
        // help prints and returns nothing: print(help(x)) shows the text once.
        let printed = try await sandbox.quarry(["-e", "print(help(sql))"])
        #expect(printed.status == 0 && printed.lines.filter { $0.hasPrefix("sql(") }.count == 1, "\(printed)")
        let repl = try await TmuxSession(sandbox)
        try await repl.waitForPrompt()
        let once = try await repl.enter("print(help(count))")
        #expect(once.filter { $0.hasPrefix(#"count("Entity""#) }.count == 1, "\(once)")
        // Wrapped by help at the pane's 120 columns, not by the terminal (whose rows would
        // not start indented) and not at 80.
        let lines = try await repl.enter("help(sql)")
        #expect(lines.first == #"sql("SELECT ...", args...)"#, "\(lines)")
        #expect(lines.count >= 4 && lines.dropFirst().allSatisfy { $0.hasPrefix("  ") && $0.count <= 120 }, "\(lines)")
        #expect(lines.contains { $0.count > 90 }, "\(lines)")
        let nilHelp = try await repl.enter("help(updateall)")
        #expect(nilHelp.joined().contains(#"help("updateall")"#), "\(nilHelp)")
    }

    @Test func aLongTextTakesThePanesWidthDotWidthCapsItAndViewsAreListedByName() async throws {
        let sandbox = try Sandbox()
        let url = "https://example.com/" + String(repeating: "a", count: 70)
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("w.db"),
                "CREATE TABLE page (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO page (url) VALUES ('\(url)'); CREATE VIEW recent_pages AS SELECT url FROM page"
            ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        let whole = try await repl.enter(#"=fetch("page")"#)
        #expect(whole.contains { $0.hasSuffix(url) }, "the whole URL in a 120-column pane: \(whole)")
        _ = try await repl.enter(".width 30")
        let capped = try await repl.enter(#"=fetch("page")"#)
        #expect(capped.contains { $0.hasSuffix("…") } && !capped.contains { $0.contains(url) }, "\(capped)")
        _ = try await repl.enter(".width 0")
        #expect(try await repl.enter(#"=fetch("page")"#).contains { $0.hasSuffix(url) })
        let tables = try await repl.enter(".tables")
        #expect(tables.contains { $0.hasSuffix("| recent_pages (view)") }, "\(tables)")
        #expect(!tables.contains { $0.contains("quarry_rows") }, "\(tables)")
    }

    @Test func aTableSentToThePagerIsLaidOutWhole() async throws {
        let sandbox = try Sandbox()
        let wide = String(repeating: "w", count: 90)
        let made = try await sandbox.quarry([
            "p.db", "-e",
            #"entity "T" { a = "string", b = "string", last_column = "int64" }; for i = 1, 60 do T:new{ a = "\#(wide)", b = "\#(wide)", last_column = i } end; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        // cat as the pager: what it is given is what the screen shows.
        let repl = try await TmuxSession(sandbox, arguments: ["p.db"], environment: ["QUARRY_PAGER": "cat"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(".maxrows 100")
        let paged = try await repl.enter(#"=fetch{ "T", sort = "last_column" }"#)
        #expect(paged.contains { $0.contains("last_column") }, "no column left out: \(paged.prefix(3))")
        #expect(!paged.contains { $0.contains("… +") } && paged.contains { $0.contains(wide) }, "\(paged.prefix(3))")
        // Short enough for the screen: fitted to it as before.
        let fitted = try await repl.enter(#"=fetch{ "T", sort = "last_column", limit = 3 }"#)
        #expect(fitted.contains { $0.contains("… +") } || fitted.allSatisfy { $0.count <= 120 }, "\(fitted)")
    }
}
