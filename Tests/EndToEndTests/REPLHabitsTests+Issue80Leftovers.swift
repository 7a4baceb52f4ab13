import Foundation
import Testing

/// What issue 80 had left, typed as a person types: a summary of a wide table kept to the terminal,
/// help for a sectioned result's method passed by value, and the way forward for a key
/// the file declares no relationship for.
@Suite struct REPLIssue80LeftoverTests {
    /// A table of 19 columns as an activity tracker keeps it: numbers, a date, long text
    /// (notes, a URL, an encoded route).
    private func activities(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("a.db"),
                """
                CREATE TABLE activity (id INTEGER PRIMARY KEY, started_at TIMESTAMP NOT NULL, name TEXT, sport TEXT, distance_m REAL,
                  moving_time_s INTEGER, elapsed_time_s INTEGER, elevation_gain REAL, avg_hr REAL, max_hr INTEGER, avg_speed REAL,
                  max_speed REAL, calories REAL, gear_id INTEGER, device TEXT, notes TEXT, is_commute INTEGER, timezone TEXT, polyline TEXT);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
                INSERT INTO activity SELECT i, datetime(1640995200 + i * 260000 + i * i * 7, 'unixepoch'), 'Morning Ride ' || (i % 7),
                  CASE i % 3 WHEN 0 THEN 'Ride' WHEN 1 THEN 'Run' ELSE 'Walk' END, i * 97.3 / 7, 900 + i * 31, 960 + i * 37,
                  (i * 13 % 900) / 3.0, 110 + (i * 7 % 55) / 1.3, 130 + i % 60, 2.5 + (i % 17) / 3.0, 5 + (i % 23) / 2.9,
                  i * 11.7 / 3, i % 5, 'Garmin Forerunner 255 Music', 'Headwind all the way back along the canal path, brutal ' || i,
                  i % 2, '(GMT+00:00) Europe/London', 'https://www.strava.com/routes/318001234567890' || i || '?utm_source=share'
                FROM n;
                """
            ])
        try #require(made.status == 0, "\(made)")
    }

    /// Every line within 160 columns, long text cut, never a number or a date: a date
    /// reads as a results table writes it (issue 80: a min of `2022-01-04T00:13:27Z`
    /// printed as `2022-01-04` read as midnight), so the statistics past the width are
    /// left out and named, with what shows them.
    @Test func aSummaryOfNineteenColumnsKeepsToA160ColumnTerminal() async throws {
        let sandbox = try Sandbox()
        try await activities(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"], columns: 160)
        try await repl.waitForPrompt()
        let summary = try await repl.enter(#"summarize("activity")"#)
        let header = try #require(summary.first { $0.hasPrefix("column ") }, "\(summary)")
        #expect(header.contains("| min ") && header.contains("| mean ") && header.contains("| stddev "), "\(summary)")
        #expect(summary.allSatisfy { $0.count <= 160 }, "\(summary)")
        #expect(summary.last?.hasPrefix("(19 rows), … +") == true && summary.last?.contains(".mode line") == true, "\(summary)")
        // Long text is cut, not the statistics.
        let notes = try #require(summary.first { $0.hasPrefix("notes ") }, "\(summary)")
        #expect(notes.contains("… |"), "\(notes)")
        let started = try #require(summary.first { $0.hasPrefix("started_at ") }, "\(summary)")
        let cells = started.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        // The min as sqlite3 reads it, and as the row's object shows it in a table.
        let first = try await sandbox.run(
            HostileFileTests.sqlite3, [sandbox.path("a.db"), "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', min(started_at)) FROM activity"])
        let least = first.stdout.trimmingCharacters(in: .newlines)
        #expect(cells.count >= 8 && cells[5] == least && cells[7].count == least.count, "\(started) \(first)")
        #expect(try await repl.enter(#"=summarize("activity")[2].min"#) == [least])
        let row = try await repl.enter(#"=fetch{ "activity", sort = "started_at", limit = 1 }"#)
        #expect(row.contains { $0.contains("| " + least + " |") }, "\(row)")
    }

    @Test func helpOfASectionedResultsMethodByValueAndAKeyWithoutARelationshipAtThePrompt() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("g.db"),
                """
                CREATE TABLE dashboard (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
                CREATE TABLE dashboard_version (id INTEGER PRIMARY KEY, dashboard_id INTEGER NOT NULL, version INTEGER NOT NULL);
                INSERT INTO dashboard VALUES (1, 'Home'), (2, 'Servers');
                INSERT INTO dashboard_version (dashboard_id, version) VALUES (1, 1), (1, 2), (2, 1);
                """
            ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["g.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"sr = fetch{ "dashboard_version", section = "dashboard_id" }"#)
        let help = try await repl.enter("help(sr.objects)")
        #expect(help.first == "r:objects()" && help.count >= 3, "\(help)")
        let relate = #"relate("dashboard_version", "dashboard_id", "dashboard", "id")"#
        let error = try await repl.enter("=dashboard_version:first().dashboard.title")
        #expect(error.joined().contains(relate + " makes it"), "\(error)")
        // Pasted as it is named, the key reads.
        _ = try await repl.enter(relate)
        #expect(try await repl.enter("=dashboard_version:first().dashboard.title") == ["Home"])
    }

    /// psql's meta-commands and the sqlite3 shell's dot-commands Quarry has not, typed
    /// from habit: `\dt` lists, `\d NAME` shows the entity, `\q` quits; the rest get the way
    /// here in one line, never a Lua syntax error about a backslash.
    @Test func psqlAndSqlite3CommandsTypedFromHabit() async throws {
        let sandbox = try Sandbox()
        try await activities(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter(#"\dt"#) == (try await repl.enter(".tables")), "\\dt is .tables")
        let described = try await repl.enter(#"\d activity"#)
        #expect(described.first == #"entity "activity" {"# && described.contains("  polyline = \"string?\","), "\(described)")
        let expanded = try await repl.enter(#"\x"#)
        #expect(expanded.count == 1 && expanded[0].contains(".mode line"), "\(expanded)")
        let unknown = try await repl.enter(#"\dn"#)
        #expect(unknown.count == 1 && unknown[0].contains(".help lists them") && !unknown[0].contains("unexpected symbol"), "\(unknown)")
        let indexes = try await repl.enter(".indexes")
        // (A line longer than the pane wraps: read joined.)
        #expect(indexes.joined().contains("indexed = true") && !indexes.joined().contains("unknown command"), "\(indexes)")
        let dump = try await repl.enter(".dump")
        #expect(dump.joined().contains("export(") && !dump.joined().contains("unknown command"), "\(dump)")
        // sqlite3's own: .tables PATTERN, .mode column, .show.
        #expect(try await repl.enter(".tables ACT%").contains("activity | activity"))
        #expect(try await repl.enter(".tables zz%") == ["no entity or table matches 'zz%'"])
        #expect(try await repl.enter(".mode column").isEmpty)
        let show = try await repl.enter(".show").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(show.contains("mode: table") && show.contains("headers: on") && show.contains("width: auto"), "\(show)")
        // Help where a person first asks for it: .help NAME for a function, help(entity).
        let fetchHelp = try await repl.enter(".help fetch")
        #expect(fetchHelp.first?.hasPrefix(#"fetch("Entity", "predicate", args...)"#) == true, "\(fetchHelp)")
        let entityHelp = try await repl.enter("help(activity)")
        #expect(entityHelp.first == "activity is an entity; its methods:" && entityHelp.contains { $0.hasPrefix("Item:updateall(") }, "\(entityHelp)")
        // `help` alone lists what has help (not a function's address); `quit` alone quits,
        // as psql's does, once the unsaved-changes warning was said.
        let bare = try await repl.enter("help")
        #expect(bare.joined().contains("help(fn) describes one of: help, entity") && !bare.joined().contains("function: 0x"), "\(bare)")
        _ = try await repl.enter(#"activity:new{ started_at = "2024-01-01 10:00:00" }"#)
        let warned = try await repl.enter("quit")
        #expect(warned.joined().contains("would be lost"), "\(warned)")
        _ = try await repl.enter("rollback()")
        try await repl.type(#"\q"#)
        try await repl.press("Enter")
        let end = try await repl.waitUntil("quarry to exit") { $0.last?.hasPrefix(TmuxSession.exitMarker) == true }
        #expect(end.last == TmuxSession.exitMarker + "0]", "\(end)")
    }

    /// Sectioned results printed through the pager are laid out whole, each section, for
    /// `less -S` to scroll to (none alone fills the screen, so each was fitted to it and
    /// its last columns left out, in the pager too).
    @Test func sectionedResultsSentToThePagerAreLaidOutWhole() async throws {
        let sandbox = try Sandbox()
        try await activities(sandbox)
        // cat as the pager: what it is given is what the screen shows.
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"], environment: ["QUARRY_PAGER": "cat"])
        try await repl.waitForPrompt()
        let paged = try await repl.enter(#"=fetch{ "activity", section = "name" }"#)
        // Seven sections of about 43 rows: six fit `.maxrows` (20) at three rows each, and
        // the last line counts the one left out.
        #expect(paged.filter { $0.hasPrefix("[name = ") }.count == 6, "\(paged.prefix(5))")
        #expect(paged.joined().contains("(7 sections), 1 section ("), "\(paged.suffix(3))")
        // Each section's header names the last column (the pane wraps its lines: read joined).
        #expect(paged.joined().components(separatedBy: "polyline").count - 1 == 6, "no column left out: \(paged.prefix(5))")
        #expect(!paged.contains { $0.contains("… +") }, "\(paged.prefix(5))")
        // Short enough for the screen (one section): fitted to it as before.
        let fitted = try await repl.enter(#"=fetch{ "activity", section = "name", limit = 2 }"#)
        #expect(fitted.contains { $0.contains("… +") } && fitted.allSatisfy { $0.count <= 120 }, "\(fitted)")
    }

    /// A query typed over several lines, as psql and sqlite3 take one: a statement SQLite
    /// finds incomplete waits at `>>` for the rest, then runs whole; Ctrl-C drops it.
    @Test func sqlOverSeveralLinesWaitsForTheRest() async throws {
        let sandbox = try Sandbox()
        try await activities(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter("select sport,", then: ">>").isEmpty)
        // A line that completes a statement but not the one meant does not run it yet.
        #expect(try await repl.enter("  count(*) AS n from activity", then: ">>").isEmpty)
        // The closing ';' (pressed as a key: tmux reads one typed at the end as its own).
        let before = try await repl.screen().count
        try await repl.type("group by sport order by sport")
        try await repl.press(#"\;"#)
        try await repl.press("Enter")
        let screen = try await repl.waitForPrompt(after: before)
        let rows = Array(screen[before..<(screen.count - 1)])
        let expected = try await sandbox.run(
            HostileFileTests.sqlite3, [sandbox.path("a.db"), "SELECT count(*) FROM activity WHERE sport = 'Ride'"])
        #expect(rows.first == "sport | n" && rows.contains("Ride  | " + expected.stdout.trimmingCharacters(in: .newlines)), "\(rows)")
        #expect(rows.last == "(3 rows)", "\(rows)")
        // A blank line ends one too; Ctrl-C drops an unfinished one, and the next line is
        // read afresh.
        #expect(try await repl.enter("select count(*) AS n from", then: ">>").isEmpty)
        #expect(try await repl.enter("activity", then: ">>").isEmpty)
        let shown = try await repl.screen().count
        try await repl.press("Enter")
        let blank = try await repl.waitForPrompt(after: shown)
        #expect(blank.suffix(5).first == "n" && blank.suffix(2).first == "(1 row)", "\(blank)")
        #expect(try await repl.enter("select sport,", then: ">>").isEmpty)
        try await repl.press("C-c")
        _ = try await repl.waitForPrompt()
        #expect(try await repl.enter("=1 + 1") == ["2"])
    }
}
