import Foundation
import Testing

/// Trial 29's moments, met on an F1 season, a survey of mammals and Disney's films: a
/// string left open waited for the next line and swallowed it, one mistyped date among a
/// season's hid the `format()` that makes the column dates, `year / 10 * 10` gave a group
/// a year, `avg(x) / 1e6` and `count(to_many)` were refused without the form that works,
/// `species` made a relationship `specy`, and `.schema` took no pattern as `.tables` does.
@Suite struct Trial29MomentsTests {
    @Test func aStringLeftOpenIsSaidAtOnce() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "r.db", "CREATE TABLE races (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO races (name) VALUES ('Monaco');")
        let repl = try await TmuxSession(sandbox, arguments: ["r.db"], columns: 160)
        try await repl.waitForPrompt()
        let open = try await repl.enter(#"x = ("name == \"Monaco)"#)
        #expect(open.count == 1 && open[0].contains(#"unfinished string near '"name == "Monaco)'"#), "\(open)")
        // The next line runs as itself; a long string still goes on to the next line.
        #expect(try await repl.enter("=count(\"races\")") == ["1"])
        _ = try await repl.enter("s = [[a", then: ">>")
        _ = try await repl.enter("b]]")
        #expect(try await repl.enter("=#s") == ["3"])
    }

    @Test func oneMistypedDateKeepsTheFormatHint() async throws {
        let sandbox = try Sandbox()
        let days = (1...9).map { "('2025-03-\(String(format: "%02d", $0 + 10))')" }.joined(separator: ", ")
        _ = try await sqlite3(
            sandbox, "f1.db", "CREATE TABLE races (id INTEGER PRIMARY KEY, date TEXT); INSERT INTO races (date) VALUES \(days), ('2025-05-2025');")
        let hint =
            #"its text reads as ISO 8601 times: format("races", "date", "iso-date") makes it a date (1 of the 10 values sampled reads as none; it names them)"#
        let compared = try await sandbox.quarry(["f1.db", "-e", #"print(count("races", "date >= %@", date("2025-03-15")))"#])
        #expect(compared.status == 1 && compared.stderr.contains(hint), "\(compared)")
        let month = try await sandbox.quarry([
            "f1.db", "-e", #"print(fetch{ "races", properties = { "date.month AS m", "count(*)" }, group = { "m" } })"#
        ])
        #expect(month.status == 1 && month.stderr.contains(hint), "\(month)")
        let declared = try await sandbox.quarry([
            "f1.db", "-e", #"format("races", "date", "iso-date") print(count("races", "date >= %@", date("2025-03-15")))"#
        ])
        #expect(declared.status == 0 && declared.lines.last == "5" && declared.stderr.contains("'2025-05-2025', id 10"), "\(declared)")
    }

    @Test func groupingsAndAggregatesGetTheFormThatWorks() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "m.db",
            "CREATE TABLE movie (id INTEGER PRIMARY KEY, gross REAL, year INTEGER); INSERT INTO movie (gross, year) VALUES (1e6, 1937), (3e6, 1946), (2e6, 1949);"
                + "CREATE TABLE actor (id INTEGER PRIMARY KEY, movie_id INTEGER REFERENCES movie(id));"
        )
        let decades = try await sandbox.quarry([
            "m.db", "-e", #"print(#fetch{ "movie", properties = { "year / 10 * 10 AS decade", "count(*) AS n" }, group = { "decade" } })"#
        ])
        #expect(
            decades.stderr.contains(
                "note: / divides as reals here (NSExpression's divide:by:), so 'year / 10 * 10 AS decade' is not rounded down; 'floor(year / 10) * 10 AS decade' is"
            ) && decades.lines.last == "3", "\(decades)")
        let floored = try await sandbox.quarry([
            "m.db", "-e", #"print(#fetch{ "movie", properties = { "floor(year / 10) * 10 AS decade", "count(*) AS n" }, group = { "decade" } })"#
        ])
        #expect(floored.lines == ["2"] && floored.stderr.isEmpty, "\(floored)")
        let scaled = try await sandbox.quarry(["m.db", "-e", #"fetch{ "movie", properties = { "avg(gross) / 1e6 AS m" } }"#])
        #expect(scaled.stderr.contains("'avg((gross) / 1e6)' computes the same"), "\(scaled)")
        let many = try await sandbox.quarry(["m.db", "-e", #"fetch{ "movie", properties = { "count(actors)" } }"#])
        #expect(many.stderr.contains("properties takes one value per object; 'actors.@count' is how many each holds"), "\(many)")
    }

    /// world's `IndepYear` is TEXT with blanks for none: summarize's max read `885`, text
    /// order, and said nothing, as its min was '' rather than a number.
    @Test func textOfNumbersWithBlanksIsNoted() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "w.db",
            "CREATE TABLE country (id INTEGER PRIMARY KEY, IndepYear TEXT); INSERT INTO country (IndepYear) VALUES (''), ('1991'), ('885'), ('1901');"
        )
        let run = try await sandbox.quarry(["w.db", "-e", #"local s = summarize("country"); print(s[2].max)"#])
        #expect(run.stdout == "885\n", "\(run)")
        #expect(
            run.stderr.contains(
                #"IndepYear is text holding numbers: min and max are in text order, as sqlite3's are; sql("SELECT min(CAST(IndepYear AS REAL)), max(CAST(IndepYear AS REAL)) FROM country WHERE trim(IndepYear) <> ''") reads them as numbers"#
            ), "\(run)")
        let read = try await sandbox.quarry([
            "w.db", "-e",
            #"local r = sql("SELECT min(CAST(IndepYear AS REAL)) AS lo, max(CAST(IndepYear AS REAL)) AS hi FROM country WHERE trim(IndepYear) <> ''")[1] print(r.lo, r.hi)"#
        ])
        #expect(read.stdout == "885.0\t1991.0\n", "\(read)")
    }

    /// A dot-command in a script file was Lua's bare `syntax error near 'csv'`.
    @Test func aDotCommandInAScriptIsNamed() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("p.lua", "print(1)\n  .mode csv\nprint(2)\n")
        let run = try await sandbox.quarry(["p.lua"])
        #expect(run.status == 1 && run.stdout.isEmpty, "\(run)")
        #expect(
            run.stderr.contains(
                "p.lua:2: syntax error near 'csv' (.mode is a dot-command: a script is Lua; they run at the prompt and in input piped in, as quarry FILE - < p.lua)"
            ), "\(run)")
        let piped = try await sandbox.quarry([":memory:", "-"], stdin: "print(1)\n.mode csv\nprint(2)\n")
        #expect(piped.status == 0 && piped.stdout == "1\n2\n", "\(piped)")
    }

    @Test func speciesIsItsOwnSingularAndSchemaTakesAPattern() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "p.db",
            "CREATE TABLE species (species_id TEXT PRIMARY KEY, genus TEXT); CREATE TABLE surveys (id INTEGER PRIMARY KEY, species_id TEXT);"
                + "CREATE TABLE film (id INTEGER PRIMARY KEY); CREATE TABLE film_actor (id INTEGER PRIMARY KEY); CREATE TABLE actor (id INTEGER PRIMARY KEY);"
        )
        let related = try await sandbox.quarry(["p.db", "-e", #"print(relate("surveys", "species_id", "species", "species_id"))"#])
        #expect(related.status == 0 && related.stdout == "species\tsurveys\n", "\(related)")
        let schema = try await sandbox.quarry(["p.db"], stdin: ".schema film%\n")
        #expect(schema.stdout.contains(#"entity "film" {"#) && schema.stdout.contains(#"entity "film_actor" {"#), "\(schema)")
        #expect(!schema.stdout.contains(#"entity "actor""#), "\(schema)")
        let sql = try await sandbox.quarry(["p.db"], stdin: ".schema --sql FILM_%\n")
        #expect(sql.stdout == "CREATE TABLE film_actor (id INTEGER PRIMARY KEY);\n", "\(sql)")
        let none = try await sandbox.quarry(["p.db"], stdin: ".schema x%\n")
        #expect(none.stderr.contains("no entity or table matches 'x%'"), "\(none)")
    }
}

/// A result the screen holds whole shows every row (trial 29: 27 rows on a terminal of 50
/// lines hid 7), unless `.maxrows` was chosen; a longer one still shows its ends.
@Suite struct Trial29ScreenfulTests {
    @Test func aResultTheScreenHoldsIsShownWhole() async throws {
        let sandbox = try Sandbox()
        let values = (1...60).map { "(\($0))" }.joined(separator: ", ")
        _ = try await sqlite3(sandbox, "n.db", "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO t (n) VALUES \(values);")
        let repl = try await TmuxSession(sandbox, arguments: ["n.db"], columns: 120)
        try await repl.waitForPrompt()
        // The pane is 40 lines: 27 rows, their header and footer fit under the command.
        let whole = try await repl.enter(#"fetch("t", "n <= 27")"#)
        #expect(whole.last == "(27 objects)" && whole.count == 30, "\(whole)")
        let long = try await repl.enter(#"fetch("t")"#)
        #expect(long.last?.hasPrefix("(60 objects), 40 rows hidden") == true, "\(long)")
        _ = try await repl.enter(".maxrows 10")
        let chosen = try await repl.enter(#"fetch("t", "n <= 27")"#)
        #expect(chosen.last?.hasPrefix("(27 objects), 17 rows hidden") == true, "\(chosen)")
    }
}
