import Foundation
import Testing

/// Display moments a newcomer still met on unseen files (issue 80's leftovers), typed as a
/// person types: an empty grouped result with its header, nil aligned with the numbers of
/// its column, a day in a zone west of UTC, help that names only what works, and the
/// object ID's column named as the method that gives it.
@Suite struct REPLIssue80LeftoverMomentsTests {
    /// A media index: files with a kind, a size and a day they were added.
    private func media(_ sandbox: Sandbox) async throws {
        try await sqlite3(
            sandbox, "media.db",
            """
            CREATE TABLE file (path TEXT PRIMARY KEY, kind TEXT, size INTEGER, rating REAL, added DATE) WITHOUT ROWID;
            INSERT INTO file VALUES ('a.mp3', 'audio', 4000, 4.5, '2024-03-05'), ('b.mp3', 'audio', NULL, NULL, '2024-12-31'),
              ('c.mkv', 'video', 700000, 3.25, '2024-01-01');
            """)
    }

    /// A grouped query that matches no rows prints its header and `(0 rows)`, as an empty
    /// `sql()` does (it printed a blank line and the count).
    @Test func anEmptyGroupedResultPrintsItsHeader() async throws {
        let sandbox = try Sandbox()
        try await media(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["media.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let sql = try await repl.enter(#"=sql("SELECT kind, sum(size) AS total FROM file WHERE size > 10000000 GROUP BY kind")"#)
        try #require(sql.first?.hasPrefix("kind") == true && sql.last == "(0 rows)", "\(sql)")
        let grouped = try await repl.enter(
            #"=fetch{ "file", result = "dictionaries", group = "kind", properties = { "kind", "sum(size) AS total" }, predicate = "size > 10000000" }"#
        )
        #expect(grouped == ["kind | total", "-----+------", "(0 rows)"], "\(grouped)")
        let falsePredicate = try await repl.enter(
            #"=fetch{ "file", result = "dictionaries", group = "kind", properties = { "kind", "count(*)" }, predicate = "FALSEPREDICATE" }"#)
        #expect(falsePredicate.first == "kind | count(*)" && falsePredicate.last == "(0 rows)", "\(falsePredicate)")
        // Ungrouped dictionaries the same way.
        let plain = try await repl.enter(#"=fetch{ "file", result = "dictionaries", properties = { "path", "size" }, predicate = "size < 0" }"#)
        #expect(plain.first == "path | size" && plain.last == "(0 rows)", "\(plain)")
    }

    /// nil in a column of numbers sits at its right edge, as the numbers do (DuckDB's
    /// shell aligns NULL so); in a text column it stays at the left.
    @Test func nilInANumberColumnIsRightAligned() async throws {
        let sandbox = try Sandbox()
        try await media(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["media.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let rows = try await repl.enter(
            #"=fetch{ "file", result = "dictionaries", properties = { "path", "size", "rating", "kind" }, sort = "path" }"#)
        try #require(rows.count == 6, "\(rows)")
        #expect(rows[0] == "path  | size   | rating | kind", "\(rows)")
        #expect(rows[3] == "b.mp3 |    nil |    nil | audio", "\(rows)")
        #expect(rows[2] == "a.mp3 |   4000 |    4.5 | audio", "\(rows)")
        let texts = try await repl.enter(#"=sql("SELECT path, CASE WHEN size IS NULL THEN NULL ELSE kind END AS k FROM file ORDER BY path")"#)
        #expect(texts.contains("b.mp3 | nil"), "nil stays left in a text column: \(texts)")
        // A results table too.
        let objects = try await repl.enter(#"=fetch{ "file", sort = "path", predicate = "path == 'b.mp3'" }"#)
        let row = try #require(objects.first { $0.contains("b.mp3 |") }, "\(objects)")
        let cells = row.split(separator: "|").map(String.init)
        #expect(cells.count >= 5 && cells[3].hasSuffix("nil ") && cells[3].hasPrefix("  "), "size's nil on the right: \(objects)")
    }

    /// A column of days (`2024-03-05`, no time of day) under `.dates local` in New York: the
    /// day itself, as in UTC, where it showed the evening before (`2024-03-04T19:00:00-05:00`);
    /// a column of instants still shows the local time.
    @Test func aDayIsTheSameDayInEveryZone() async throws {
        let sandbox = try Sandbox()
        try await media(sandbox)
        try await sqlite3(
            sandbox, "media.db",
            "CREATE TABLE play (id INTEGER PRIMARY KEY, path TEXT, at DATETIME); INSERT INTO play (path, at) VALUES ('a.mp3', '2024-03-05 10:00:00');"
        )
        let repl = try await TmuxSession(sandbox, arguments: ["media.db"], environment: ["TZ": "America/New_York"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        #expect(try await repl.enter(#"=typeof(file:get("a.mp3").added)"#) == ["date"])
        for setting in ["local", "utc"] {
            _ = try await repl.enter(".dates \(setting)")
            let table = try await repl.enter(#"=fetch{ "file", sort = "path" }"#)
            let a = try #require(table.first { $0.hasPrefix("file/a.mp3") }, "\(setting): \(table)")
            #expect(a.hasSuffix("| 2024-03-05"), "\(setting): \(table)")
            let c = try #require(table.first { $0.hasPrefix("file/c.mkv") }, "\(setting): \(table)")
            #expect(c.hasSuffix("| 2024-01-01"), "\(setting): \(table)")
            #expect(!table.joined().contains("2023-12-31") && !table.joined().contains("T19:00"), "\(setting): \(table)")
            let record = try await repl.enter(#"=file:get("b.mp3")"#).joined(separator: "\n")
            #expect(record.contains("2024-12-31") && !record.contains("2024-12-30"), "\(setting): \(record)")
            let grouped = try await repl.enter(#"=fetch{ "file", result = "dictionaries", group = "added", properties = { "added", "count(*)" } }"#)
            #expect(grouped.contains("2024-03-05 |        1"), "\(setting): \(grouped)")
            // A summary's least, middle and greatest day.
            let summary = try await repl.enter(#"=summarize("file")"#)
            let added = try #require(summary.first { $0.hasPrefix("added ") }, "\(setting): \(summary)")
            #expect(added.contains("| 2024-01-01 |") && added.contains("| 2024-12-31 |") && !added.contains("2023-12-31"), "\(setting): \(summary)")
            #expect(added.contains("| 2024-03-05 |"), "the median day: \(setting): \(summary)")
        }
        _ = try await repl.enter(".dates local")
        let instants = try await repl.enter(#"=fetch{ "play" }"#)
        #expect(instants.contains { $0.hasSuffix("| 2024-03-05T05:00:00-05:00") }, "an instant in local time: \(instants)")
    }

    /// help() listed `section:section` among methods, which sent people to `r:section(2)`;
    /// the contract reads a section as `r[i]`: help lists it so, and what it says works.
    @Test func helpNamesASectionAsTheContractReadsIt() async throws {
        let sandbox = try Sandbox()
        try await media(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["media.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let general = try await repl.enter("help()").joined(separator: " ")
        #expect(!general.contains("section:section") && general.contains("r[i] (a section)"), "\(general)")
        _ = try await repl.enter(#"r = fetch{ "file", section = "kind", sort = "kind" }"#)
        let fields = try await repl.enter("help(r[2])")
        #expect(fields.first?.hasSuffix("its fields (no methods):") == true, "\(fields)")
        #expect(fields.contains("r[i].id, r[i].name, #r[i], r[i][j]") && fields.last == #"help("section") shows them with an example"#, "\(fields)")
        // What help says reads the second section.
        #expect(try await repl.enter("=r[2].name") == ["video"])
        #expect(try await repl.enter("=#r[2]") == ["1"])
        #expect(try await repl.enter("=r[2][1].path") == ["c.mkv"])
    }

    /// help(fetch) names `distinct`, which has its own help("distinct").
    @Test func helpOfFetchNamesDistinct() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox, columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let text = try await repl.enter("help(fetch)").joined(separator: " ")
        #expect(text.contains("having =, distinct =,") && text.contains("distinct = true gives each row once"), "\(text)")
        let own = try await repl.enter(#"help("distinct")"#).joined(separator: " ")
        #expect(own.contains("distinct = true"), "\(own)")
    }

    /// A histogram of text names the barchart call that counts it; that very call draws a
    /// bar per value with its count (it was refused: barchart took dictionary rows only).
    @Test func theBarchartAHistogramHintsAtWorks() async throws {
        let sandbox = try Sandbox()
        try await media(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["media.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        _ = try await repl.enter(#"r = fetch{ "file" }"#)
        let refused = try await repl.enter(#"=histogram(r, "kind")"#).joined(separator: " ")
        let start = try #require(refused.range(of: "barchart("), "\(refused)")
        let end = try #require(refused[start.lowerBound...].firstIndex(of: ")"), "\(refused)")
        let hinted = String(refused[start.lowerBound...end])
        #expect(hinted == #"barchart(r, "kind")"#, "\(refused)")
        let chart = try await repl.enter("=" + hinted)
        #expect(chart.first == "count by kind", "\(chart)")
        let audio = try #require(chart.first { $0.hasPrefix("audio ") }, "\(chart)")
        let video = try #require(chart.first { $0.hasPrefix("video ") }, "\(chart)")
        #expect(audio.hasSuffix(" 2") && video.hasSuffix(" 1") && audio.count > video.count, "\(chart)")
        // The entity's name as the source, and the results' predicate kept.
        let byName = try await repl.enter(#"=barchart("file", "kind")"#)
        #expect(byName.contains { $0.hasPrefix("audio ") && $0.hasSuffix(" 2") }, "\(byName)")
        let filtered = try await repl.enter(#"=barchart(fetch{ "file", predicate = "size > 5000" }, "kind")"#)
        #expect(filtered.contains { $0.hasPrefix("video ") } && !filtered.contains { $0.hasPrefix("audio ") }, "\(filtered)")
        let typo = try await repl.enter(#"=barchart(r, "kinf")"#)
        #expect(typo == [#"stdin:1: barchart: unknown key 'kinf' on entity file (did you mean 'kind'?)"#], "\(typo)")
    }

    /// `.diff b.db tag by name` matches a keyless table's rows by a column, as diff()'s
    /// `by` does; without it, the table is left out with a note naming that form.
    @Test func dotDiffTakesByForATableWithoutAKey() async throws {
        let sandbox = try Sandbox()
        try await sqlite3(sandbox, "a.db", "CREATE TABLE tag (name TEXT, color TEXT); INSERT INTO tag VALUES ('x', 'red'), ('y', 'blue');")
        try await sqlite3(
            sandbox, "b.db", "CREATE TABLE tag (name TEXT, color TEXT); INSERT INTO tag VALUES ('x', 'green'), ('y', 'blue'), ('z', 'red');")
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let refused = try await repl.enter(".diff b.db").joined(separator: " ")
        #expect(refused.contains("tag (.diff b.db tag by KEY compares it)"), "\(refused)")
        let lines = try await repl.enter(".diff b.db tag by name")
        #expect(lines.contains { $0.hasPrefix("~ ") && $0.contains(" x ") && $0.contains("red") && $0.contains("green") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("+ ") && $0.contains("z") }, "\(lines)")
        #expect(!lines.contains { $0.contains(" y ") }, "\(lines)")
        // The same as diff() with by.
        let function = try await repl.enter(#"=#diff(nil, open("b.db"), { by = { tag = "name" } })"#)
        #expect(function == ["2"], "\(function)")
        #expect(try await repl.enter(".diff b.db tag by").first?.hasPrefix("usage: .diff DB [ENTITY by KEY") == true)
        let help = try await repl.enter(".help diff").joined(separator: " ")
        #expect(help.contains(".diff DB [ENTITY by KEY[,KEY...]]..."), "\(help)")
    }

    /// A file's table without an `id` column: the object ID's column is headed `objectID`,
    /// the method that gives it (headed `id`, it sent people to `o.id`, which fails); a
    /// Quarry store's tables keep `id`.
    @Test func theObjectIDColumnIsNamedAsTheMethodThatGivesIt() async throws {
        let sandbox = try Sandbox()
        try await media(sandbox)
        let made = try await sandbox.quarry(["own.db", "-e", #"entity "Note" { text = "string" }; Note:new{ text = "hi" }; save()"#])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["media.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let table = try await repl.enter(#"=fetch{ "file", sort = "path", limit = 1 }"#)
        #expect(table.first?.hasPrefix("objectID ") == true && table.first?.contains("| path ") == true, "\(table)")
        let header = try #require(table.first?.split(separator: " ").first.map(String.init))
        let id = try #require(table.dropFirst(2).first?.split(separator: " ").first.map(String.init))
        // The header names a method that gives the first column's value.
        #expect(try await repl.enter(#"=fetch{ "file", sort = "path" }[1]:\#(header)()"#) == [id])
        let record = try await repl.enter(#"=file:get("a.mp3")"#)
        #expect(record.first?.hasPrefix("objectID") == true, "\(record)")
        _ = try await repl.enter(".columns kind")
        let chosen = try await repl.enter(#"=fetch{ "file", sort = "path", limit = 1 }"#)
        #expect(chosen.first == "objectID   | kind", "the ID stays with .columns: \(chosen)")
        _ = try await repl.enter(".columns")
        _ = try await repl.enter(".open own.db")
        let own = try await repl.enter(#"=fetch{ "Note" }"#)
        #expect(own.first == "id     | text", "\(own)")
    }
}
