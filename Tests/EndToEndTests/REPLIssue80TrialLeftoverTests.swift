import Foundation
import Testing

/// Moments a newcomer's trial on unseen data left at the prompt, typed as a person types:
/// Ctrl-C stopping a fetch while its rows print, Tab on a key with a space making a whole
/// call, Tab offering entity names and keys in `relate(`, `barchart(` and the other calls
/// that take them, and an export saying it replaced a file.
@Suite struct REPLIssue80TrialLeftoverTests {
    /// A fetch whose query runs for ages (a view over a cross join of 2,000 rows three
    /// times): Ctrl-C stops it while it prints, as it stops `count`, with one line saying
    /// so; the prompt comes back and the store is as it was.
    @Test func ctrlCStopsAFetchWhileItPrints() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "slow.db",
            """
            CREATE TABLE n (i INTEGER PRIMARY KEY);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) INSERT INTO n SELECT i FROM c;
            CREATE VIEW slow AS SELECT a.i AS i, b.i + c.i AS s FROM n a, n b, n c;
            """)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("slow.db")))
        let repl = try await TmuxSession(sandbox, arguments: ["slow.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let before = try await repl.screen()
        try await repl.type(#"fetch("slow", "s > 0")"#)
        try await repl.press("Enter")
        try await repl.waitUntil("the fetch to start") { $0.count == before.count && $0.last == #"> fetch("slow", "s > 0")"# }
        // The terminal discards type-ahead on Ctrl-C: let quarry read the line first.
        try await Task.sleep(nanoseconds: 500_000_000)
        try await repl.press("C-c")
        let after = try await repl.waitForPrompt(after: before.count)
        let report = Array(after[before.count..<after.count - 1]).filter { $0 != "^C" }
        #expect(report.count == 1 && report[0].contains("interrupted"), "\(report)")
        // The session goes on, nothing pending, and the file is as it was.
        #expect(try await repl.enter(#"=count("n")"#) == ["2000"])
        #expect(try await repl.enter(".changes") == ["inserted: none", "updated: none", "deleted: none"])
        try await repl.type(".quit")
        try await repl.press("Enter")
        #expect(try await repl.waitForExit() == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("slow.db"))) == bytes, "the file changed")
    }

    /// Ctrl-C in the pager showing a fetch is the pager's: pressed twice there it neither
    /// interrupts the result nor quits quarry (two Ctrl-C in a running statement do).
    @Test func ctrlCInThePagerIsThePagers() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "n.db",
            """
            CREATE TABLE n (i INTEGER PRIMARY KEY);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 500) INSERT INTO n SELECT i FROM c;
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["n.db"], environment: ["PAGER": "less"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager on")
        _ = try await repl.enter(".maxrows 0")
        try await repl.type(#"fetch("n")"#)
        try await repl.press("Enter")
        try await repl.waitUntil("the pager") { $0.contains { $0.hasPrefix("n/1 ") } && $0.last != ">" }
        try await repl.press("C-c")
        try await repl.press("C-c")
        // less reads its keys after it has handled the interrupts: q then quits it.
        try await Task.sleep(nanoseconds: 500_000_000)
        try await repl.press("q")
        let after = try await repl.waitForPrompt()
        #expect(!after.contains { $0.contains("interrupted") || $0.hasPrefix(TmuxSession.exitMarker) }, "\(after.suffix(5))")
        #expect(try await repl.enter("=1 + 1") == ["2"])
    }

    /// A column named with a space: Tab in a predicate inserts `%K` and puts the name among
    /// the arguments where that `%K` takes it, so the call runs once its comparison is typed.
    @Test func tabOnAKeyWithASpaceMakesAWholeCall() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "e.db",
            """
            CREATE TABLE emp (emp_no INTEGER PRIMARY KEY, "Original Hire" INTEGER);
            INSERT INTO emp VALUES (1, 1990), (2, 2001), (3, 2005);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["e.db"])
        var screen = try await repl.waitForPrompt()

        // Typed left to right: the argument after the predicate, the call closed.
        try await repl.type(#"=count("emp", "Orig"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the call made whole") { $0.last == #"> =count("emp", "%K", "Original Hire")"# }
        try await repl.type(" > 2000")
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(after: screen.count)
        #expect(screen[screen.count - 3] == #"> =count("emp", "%K > 2000", "Original Hire")"#, "\(screen.suffix(3))")
        #expect(screen[screen.count - 2] == "2", "\(screen.suffix(3))")

        // In the table form: args = { ... }.
        try await repl.type(#"=#fetch{ "emp", predicate = "Orig"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("args added") { $0.last == #"> =#fetch{ "emp", predicate = "%K", args = { "Original Hire" } }"# }
        try await repl.type(" < 2000")
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(after: screen.count)
        #expect(screen[screen.count - 2] == "1", "\(screen.suffix(3))")

        // A line holding its arguments already: the name goes at its placeholder's place,
        // after the argument of the %@ before it.
        try await repl.type(#"=count("emp", "emp_no > %@ AND Orig > 2000", 2)"#)
        for _ in 0..<12 { try await repl.press("Left") }
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the name among the arguments") {
            $0.last == #"> =count("emp", "emp_no > %@ AND %K > 2000", 2, "Original Hire")"#
        }
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(after: screen.count)
        #expect(screen[screen.count - 2] == "1", "\(screen.suffix(3))")
    }

    /// Tab in the first string of `relate(`, `barchart(`, `histogram(`, `format(` offers
    /// entity names (relate's third too), and in a string that names a key, the keys of
    /// the entity named before it, whole.
    @Test func tabOffersEntitiesAndKeysInCallsThatTakeThem() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(
            sandbox, "f.db",
            """
            CREATE TABLE language (language_id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE film (film_id INTEGER PRIMARY KEY, title TEXT, rating TEXT, "Release Year" INTEGER, spoken_id INTEGER);
            INSERT INTO language VALUES (1, 'English'), (2, 'Italian');
            INSERT INTO film VALUES (1, 'A', 'PG', 2001, 1), (2, 'B', 'PG', 2003, 2), (3, 'C', 'R', 2005, 1);
            """)
        let repl = try await TmuxSession(sandbox, arguments: ["f.db"])
        var screen = try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        screen = try await repl.screen()

        try await repl.type(#"relate("fi"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the entity") { $0.last == #"> relate("film""# }
        try await repl.type(#", "spo"#)
        try await repl.press("Tab")
        // A column relate() takes is closed as a name is (TrialSixteenTests).
        _ = try await repl.waitUntil("film's column") { $0.last == #"> relate("film", "spoken_id""# }
        try await repl.type(#", "lan"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the destination") { $0.last == #"> relate("film", "spoken_id", "language""# }
        try await repl.type(#", "lang"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the destination's key") { $0.last == #"> relate("film", "spoken_id", "language", "language_id""# }
        try await repl.type(#")"#)
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(after: screen.count)
        #expect(try await repl.enter(#"=film:get(2).spoken.name"#) == ["Italian"])

        try await repl.type(#"=barchart("fi"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the entity") { $0.last == #"> =barchart("film""# }
        try await repl.type(#", "rat"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("a key") { $0.last == #"> =barchart("film", "rating"# }
        try await repl.type(#"")"#)
        try await repl.press("Enter")
        screen = try await repl.waitForPrompt(after: screen.count)
        #expect(screen.contains { $0.hasPrefix("count by rating") }, "\(screen.suffix(5))")

        // A key with a space is a chart's key as it is, not %K.
        try await repl.type(#"=histogram("fi"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the entity") { $0.last == #"> =histogram("film""# }
        try await repl.type(#", "Rel"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the key whole") { $0.last == #"> =histogram("film", "Release Year"# }
        try await repl.press("C-c")
        screen = try await repl.waitForPrompt(after: screen.count)

        try await repl.type(#"format("la"#)
        try await repl.press("Tab")
        _ = try await repl.waitUntil("the entity") { $0.last == #"> format("language""# }
    }

    /// At the prompt an export says what it wrote where, and that it replaced a file when
    /// it did; a script's says nothing.
    @Test func anExportThatReplacedAFileSaysSo() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(sandbox, "e.db", "CREATE TABLE emp (emp_no INTEGER PRIMARY KEY, name TEXT); INSERT INTO emp VALUES (1, 'a'), (2, 'b');")
        let repl = try await TmuxSession(sandbox, arguments: ["e.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter(#"export(fetch("emp"), "out.csv")"#) == ["wrote 2 objects to out.csv", "2"])
        let replaced = try await repl.enter(#"export(fetch("emp", "emp_no == 1"), "out.csv")"#)
        #expect(replaced == ["wrote 1 object to out.csv (replaced the file that was there)", "1"], "\(replaced)")
        #expect(try sandbox.read("out.csv") == "emp_no,name\n1,a\n")
        let script = try await sandbox.quarry(["e.db", "-e", #"print(export(fetch("emp"), "out.csv"))"#])
        #expect(script.status == 0 && script.stdout == "2\n" && script.stderr.isEmpty, "\(script)")
    }
}
