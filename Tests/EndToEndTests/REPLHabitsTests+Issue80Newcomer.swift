import Foundation
import Testing

/// What a newcomer's half hour on unseen data still met (issue 80), typed as a person
/// types: SQL's LIKE wildcards, a wide table's left-out columns, sqlite3's command line,
/// grouped rows' keys, import outside rollback(), a large to-many printed, and Tab in the
/// strings that read reserved-word keys.
@Suite struct REPLIssue80NewcomerTests {
    /// A weather log as a station's software keeps it: stations, and readings with text
    /// wide enough to leave columns out of an 80-column terminal.
    private func weather(_ sandbox: Sandbox, _ name: String = "w.db") async throws {
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path(name),
                """
                CREATE TABLE station (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);
                CREATE TABLE reading (id INTEGER PRIMARY KEY, station_id INTEGER NOT NULL REFERENCES station(id), taken_at TEXT,
                  temp REAL, wind REAL, note TEXT, sensor TEXT, firmware TEXT, site_url TEXT);
                INSERT INTO station VALUES (1, 'Brest', 'FR'), (2, 'Lyon', 'FR'), (3, 'Bremen', 'DE');
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
                INSERT INTO reading (station_id, taken_at, temp, wind, note, sensor, firmware, site_url)
                SELECT 1 + i % 3, datetime(1700000000 + i * 3600, 'unixepoch'), 5 + i * 0.25, i % 13,
                  CASE i % 4 WHEN 0 THEN 'strong gust from the west' WHEN 1 THEN 'calm' ELSE 'light breeze, 100% cloud' END,
                  'Davis Vantage Pro2 Plus', 'v' || (i % 3) || '.2.18-rc1', 'https://weather.example.org/stations/' || (1 + i % 3) || '/readings/' || i
                FROM n;
                """
            ])
        try #require(made.status == 0, "\(made)")
    }

    private func sqlite3(_ sandbox: Sandbox, _ query: String, _ name: String = "w.db") async throws -> String {
        let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(name), query])
        try #require(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// `note LIKE '%gust%'` counts 0, as Apple's LIKE reads it; one note says why and what
    /// to write, once per pattern, wherever the predicate is read (a literal or a bound
    /// argument; count, fetch, updateall), at the prompt and on a script's stderr.
    @Test func likeWithSQLWildcardsIsNotedOnceAtThePromptAndInScripts() async throws {
        let sandbox = try Sandbox()
        try await weather(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        let counted = try await repl.enter(#"=count("reading", "note LIKE '%gust%'")"#)
        // (A line longer than the pane wraps: read joined.)
        let note = counted.dropLast().joined()
        #expect(note.hasPrefix("note: LIKE '%gust%' takes '%' as itself here"), "\(counted)")
        #expect(note.hasSuffix(": LIKE[c] '*gust*' or CONTAINS[c] 'gust' ([c]: SQL's LIKE ignores case)"), "\(counted)")
        #expect(counted.last == "0", "the predicate runs as written: \(counted)")
        // Said once: the same again is only its answer.
        #expect(try await repl.enter(#"=count("reading", "note LIKE '%gust%'")"#) == ["0"])
        // What the note names counts what SQL's LIKE counts, without a note.
        let gusts = try await sqlite3(sandbox, "SELECT count(*) FROM reading WHERE note LIKE '%gust%'")
        #expect(try await repl.enter(#"=reading:count("note LIKE[c] '*gust*'")"#) == [gusts])
        #expect(try await repl.enter(#"=reading:count("note CONTAINS[c] 'gust'")"#) == [gusts])
        // SQL's LIKE ignores case, and so do the forms named: 'davis%' counts the 'Davis'
        // sensors (trial 21: `city LIKE 'new%'` and the LIKE 'new*' named counted 0 of
        // 'NEW YORK').
        let davis = try await sqlite3(sandbox, "SELECT count(*) FROM reading WHERE sensor LIKE 'davis%'")
        #expect(davis == "60")
        let lower = try await repl.enter(#"=reading:count("sensor LIKE 'davis%'")"#)
        #expect(lower.dropLast().joined().hasSuffix(": LIKE[c] 'davis*' or BEGINSWITH[c] 'davis' ([c]: SQL's LIKE ignores case)"), "\(lower)")
        #expect(try await repl.enter(#"=reading:count("sensor LIKE[c] 'davis*'")"#) == [davis])
        #expect(try await repl.enter(#"=reading:count("sensor BEGINSWITH[c] 'davis'")"#) == [davis])
        // A bound argument is a pattern too, with its options kept.
        let bound = try await repl.enter(#"=reading:count("note LIKE[c] %@", "%CLOUD")"#)
        #expect(bound.dropLast().joined().hasSuffix("LIKE[c] '*CLOUD' or ENDSWITH[c] 'CLOUD'"), "\(bound)")
        #expect(bound.last == "0", "\(bound)")
        // A literal '%' among Apple's wildcards is meant: no note.
        let percent = try await sqlite3(sandbox, "SELECT count(*) FROM reading WHERE note LIKE '%100!%%' ESCAPE '!'")
        #expect(try await repl.enter(#"=reading:count("note LIKE '*100%*'")"#) == [percent])
        // fetch and updateall read their predicates in the same place.
        let fetched = try await repl.enter(#"=#fetch("reading", "sensor LIKE 'Davis%'")"#)
        #expect(
            fetched.dropLast().joined().hasSuffix("LIKE[c] 'Davis*' or BEGINSWITH[c] 'Davis' ([c]: SQL's LIKE ignores case)") && fetched.last == "0",
            "\(fetched)")
        let updated = try await repl.enter(#"=reading:updateall("note LIKE %@", { "cal_" }, { wind = 0 })"#)
        #expect(updated.dropLast().joined().hasPrefix("note: LIKE 'cal_' takes '_' as itself here"), "\(updated)")
        #expect(updated.dropLast().joined().hasSuffix(": LIKE[c] 'cal?' ([c]: SQL's LIKE ignores case)") && updated.last == "0", "\(updated)")

        // A script: the answer on stdout, the note on stderr, status 0.
        let script = try await sandbox.quarry(["w.db", "-e", #"print(count("reading", "note LIKE %@", "%gust%"))"#])
        #expect(script.status == 0 && script.stdout == "0\n", "\(script)")
        #expect(script.stderr.contains("LIKE '%gust%' takes '%' as itself here") && script.stderr.contains("CONTAINS[c] 'gust'"), "\(script)")
        #expect(script.stderr.split(separator: "\n").count == 1, "\(script)")
    }

    /// `… +5 columns` says what shows them; `.pager always` is one way: a short table wider
    /// than the terminal goes to the pager laid out whole.
    @Test func aTableWiderThanTheTerminalNamesTheWaysToSeeTheRest() async throws {
        let sandbox = try Sandbox()
        try await weather(sandbox)
        // cat as the pager: what it is given is what the screen shows.
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"], environment: ["QUARRY_PAGER": "cat"], columns: 80)
        try await repl.waitForPrompt()
        let fitted = try await repl.enter(#"=fetch{ "reading", sort = "id", limit = 3 }"#)
        let footer = try #require(fitted.last)
        #expect(footer.hasPrefix("(3 objects), … +") && footer.hasSuffix(" (.mode line, .width 0 or .pager always shows them)"), "\(fitted)")
        #expect(fitted.allSatisfy { $0.count <= 80 }, "\(fitted)")
        _ = try await repl.enter(".pager always")
        let paged = try await repl.enter(#"=fetch{ "reading", sort = "id", limit = 3 }"#)
        // The pane wraps the whole lines: read joined.
        #expect(paged.joined().contains("site_url") && paged.joined().contains("https://weather.example.org/stations/2/readings/1"), "\(paged)")
        #expect(!paged.contains { $0.contains("… +") } && paged.last == "(3 objects)", "\(paged)")
        #expect(try await repl.enter(".show").contains { $0.trimmingCharacters(in: .whitespaces) == "pager: always" })
        #expect(try await repl.enter(".pager sometimes") == ["usage: .pager auto|on|off|always (now always)"])
        _ = try await repl.enter(".pager on")
        #expect(try await repl.enter(#"=fetch{ "reading", sort = "id", limit = 3 }"#) == fitted)
    }

    /// `quarry f.db "SELECT …"`, as `sqlite3 f.db "SELECT …"`: the rows as the prompt
    /// prints them; a statement that writes gets the prompt's one line and changes nothing.
    @Test func sqlWhereTheScriptGoesRunsAsSqlite3RunsIt() async throws {
        let sandbox = try Sandbox()
        try await weather(sandbox)
        let query = try await sandbox.quarry(["w.db", "select country, count(*) AS n from station group by country order by country"])
        #expect(query.status == 0 && query.stderr == "", "\(query)")
        let counts = try await sqlite3(sandbox, "SELECT count(*) FROM station WHERE country = 'FR'")
        #expect(query.lines == ["country | n", "--------+--", "DE      | 1", "FR      | \(counts)", "(2 rows)"], "\(query)")
        // Into a pipe each value is whole, as sqlite3 writes it (a terminal's table fits it).
        let url = try await sandbox.quarry(["w.db", "SELECT site_url FROM reading WHERE id = 1"])
        #expect(url.lines.dropFirst(2).first == "https://weather.example.org/stations/2/readings/1", "\(url)")
        // Several, in order, as sqlite3 runs them.
        let two = try await sandbox.quarry(["w.db", "SELECT count(*) AS readings FROM reading;", "values (1, 'two')"])
        #expect(two.status == 0 && two.lines.first == "readings" && two.lines.contains("      60") && two.lines.last == "(1 row)", "\(two)")
        #expect(two.lines.contains { $0.hasPrefix("column1") }, "\(two)")
        // A write: one line, status 1, the file as it was.
        let write = try await sandbox.quarry(["w.db", "DELETE FROM reading"])
        #expect(write.status == 1 && write.stdout == "", "\(write)")
        #expect(
            write.stderr.hasPrefix("SQL here only reads; this does it, written at once (rollback() does not undo it): reading:deleteall()")
                && write.stderr.split(separator: "\n").count == 1, "\(write)")
        #expect(try await sqlite3(sandbox, "SELECT count(*) FROM reading") == "60")
        let refused = try await sandbox.quarry(["w.db", "SELECT * FROM nosuch"])
        #expect(refused.status == 1 && refused.stderr.contains("no such table: nosuch"), "\(refused)")
        // A script still is one: a missing one cannot be opened, and a file named as a
        // statement runs as the script it is.
        let missing = try await sandbox.quarry(["w.db", "report.lua"])
        #expect(missing.status == 1 && missing.stderr.contains("cannot open report.lua"), "\(missing)")
        try sandbox.write("select all", "print('the script ran')")
        let file = try await sandbox.quarry(["w.db", "select all"])
        #expect(file.status == 0 && file.stdout == "the script ran\n", "\(file)")
        // The usage says so.
        let help = try await sandbox.quarry(["--help"])
        #expect(help.stdout.contains(#"quarry DB "SELECT ..."      run a query, print its rows, and exit"#), "\(help)")
    }

    /// `count(*) AS n` is the row's `n` only, as the contract says of an AS name: printed,
    /// returned and exported once; `having` and `sort` still name the aggregate as written.
    @Test func groupedRowsCarryTheirAsNameOnly() async throws {
        let sandbox = try Sandbox()
        try await weather(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        // (Lines shorter than the pane, so each is echoed on one row.)
        _ = try await repl.enter(#"q = { "station", result = "dictionaries", properties = { "country", "count(*) AS n" } }"#)
        _ = try await repl.enter(#"q.group = { "country" }; q.sort = "-count(*)"; q.having = "count(*) >= 1""#)
        _ = try await repl.enter("r = fetch(q)")
        let fr = try await sqlite3(sandbox, "SELECT count(*) FROM station WHERE country = 'FR'")
        #expect(try await repl.enter("=r[1]") == [#"{country = "FR", n = \#(fr)}"#])
        #expect(try await repl.enter(#"=r[1]["count(*)"]"#) == ["nil"])
        #expect(try await repl.enter("=r") == ["country | n", "--------+--", "FR      | \(fr)", "DE      | 1", "(2 rows)"])
        _ = try await repl.enter(#"export(r, "g.csv")"#)
        #expect(try sandbox.read("g.csv") == "country,n\nFR,\(fr)\nDE,1\n")
        // A plain key renamed is its new name alone too.
        #expect(
            try await repl.enter(#"=fetch{ "station", result = "dictionaries", properties = { "name AS town" }, sort = "id" }[1]"#) == [
                #"{town = "Brest"}"#
            ])
    }

    /// import writes at once, as sqlite3's .import does: help says so, rollback() leaves it
    /// (and takes back only what was pending), and a failed import leaves the table.
    @Test func importCommitsAtOnceAsHelpSays() async throws {
        let sandbox = try Sandbox()
        try await weather(sandbox)
        try sandbox.write("gauges.csv", "name,depth\nriver,1.5\nlake,3\n")
        try sandbox.write("bad.csv", "name,depth\nsea,\"4\n")
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        // Wrapped to the pane and indented: read as words.
        let help = try await repl.enter("help(import)").joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(help.contains("committed at once") && help.contains("rollback() does not take them back"), "\(help)")
        #expect(help.contains("leaves the table and the store as they were"), "\(help)")
        _ = try await repl.enter(#"station:new{ name = "Nice", country = "FR" }"#)
        // w.db is another program's file: the import says what it wrote there.
        let imported = try await repl.enter(#"=import("gauges.csv", { entity = "Gauge" })"#)
        #expect(imported.last == "2" && imported.first?.contains("made the table Gauge in w.db") == true, "\(imported)")
        _ = try await repl.enter("rollback()")
        #expect(try await repl.enter(#"=count("Gauge")"#) == ["2"])
        #expect(try await repl.enter(#"=count("station")"#) == ["3"], "the pending insert went back")
        let failed = try await repl.enter(#"import("bad.csv", { entity = "Gauge" })"#)
        #expect(failed.joined().contains("a quoted field is not closed"), "\(failed)")
        #expect(try await sqlite3(sandbox, "SELECT count(*) FROM Gauge") == "2")
    }

    /// A to-many of twenty prints its first members and how many there are, not every ID;
    /// at the prompt it shows as results do, a table of its members (`ToManyAtThePromptTests`).
    @Test func aLargeToManyPrintsItsFirstMembersAndItsCount() async throws {
        let sandbox = try Sandbox()
        try await weather(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"s = fetch{ "station", sort = "id" }[1]"#)
        let total = try await sqlite3(sandbox, "SELECT count(*) FROM reading WHERE station_id = 1")
        let ids = try await sqlite3(
            sandbox, "SELECT group_concat('reading/' || id, ', ') FROM (SELECT id FROM reading WHERE station_id = 1 ORDER BY id LIMIT 5)")
        let more = try #require(Int(total)) - 5
        let expected = "station/1.readings {\(ids), … \(more) more, \(total) in all}"
        let shown = try await repl.enter("=s.readings")
        #expect(shown.last?.hasPrefix("(\(total) objects)") == true && shown.contains { $0.hasPrefix("reading/") }, "\(shown)")
        #expect(try await repl.enter("print(s.readings)") == [expected])
        #expect(try await repl.enter("=#s.readings") == [total])
    }

    /// `r:count()`, typed from other languages' habits, names Lua's `#` and count().
    @Test func countAsAMethodOfResultsNamesTheWaysToCount() async throws {
        let sandbox = try Sandbox()
        try await weather(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        let said = try await repl.enter(#"=fetch("station", "country == 'FR'"):count()"#).joined()
        #expect(said.contains(#"#r is how many they hold (count("station", ...) counts without fetching)"#), "\(said)")
        #expect(
            try await repl.enter(#"=#fetch("station", "country == 'FR'")"#) == [
                try await sqlite3(sandbox, "SELECT count(*) FROM station WHERE country = 'FR'")
            ])
    }

    /// Tab inserts a reserved-word key in the form each string reads it: bare in `group`,
    /// `having` and `section`, `#size` in a handle's predicate; each then runs.
    @Test func tabInsertsTheFormEachStringReads() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("d.db"),
                """
                CREATE TABLE Doc (id INTEGER PRIMARY KEY, first TEXT, size INTEGER);
                INSERT INTO Doc VALUES (1, 'bob', 3145728), (2, 'ann', 1048576), (3, 'bob', 5242880);
                """
            ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["d.db"])
        try await repl.waitForPrompt()
        for (typed, completed, rest, answer) in [
            (#"=#fetch{ "Doc", result = "dictionaries", properties = { "first" }, group = { "fi"#, #"group = { "first"#, #"" } }"#, "2"),
            (
                #"=#fetch{ "Doc", result = "dictionaries", properties = { "size" }, group = { "size" }, having = "si"#, #"having = "size"#,
                #" > 2000000" }"#, "2"
            ),
            (#"=#fetch{ "Doc", section = "fi"#, #"section = "first"#, #"" }"#, "2"),
            (#"=Doc:count("si"#, ##"Doc:count("#size"##, #" > 2000000")"#, "2")
        ] {
            let before = try await repl.screen().count
            try await repl.type(typed)
            try await repl.press("Tab")
            let line = try await repl.waitUntil("Tab after \(typed)") { $0.last?.hasSuffix(completed) == true }
            try await repl.type(rest)
            try await repl.press("Enter")
            let screen = try await repl.waitForPrompt(">", after: max(before, line.count))
            #expect(screen[screen.count - 2] == answer, "\(typed): \(screen.suffix(3))")
        }
    }
}
