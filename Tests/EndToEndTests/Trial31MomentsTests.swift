import Foundation
import Testing

/// Trial 31's wrong answer: the SQL Murder Mystery keeps its reports' dates as integers
/// written YYYYMMDD (`20180115`); `date.year` offered `format(..., "cocoa")`, which read
/// every one as a day of August 2001, and format() took it. Neither happens now: the
/// refusal and the hint say what works on such a column.
@Suite struct Trial31MomentsTests {
    @Test func daysWrittenAsDigitsAreNoTimes() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "m.db",
            "CREATE TABLE report (id INTEGER PRIMARY KEY, date INTEGER); INSERT INTO report (date) VALUES (20180115), (20171203), (20180230), (20160704);"
        )
        let advice =
            "its numbers read as days written YYYYMMDD (20180115), which no unit of time reads: compare them as numbers (date >= 20180101); "
            + "floor(date / 10000) is the year, floor(date / 100) % 100 the month"
        let part = try await sandbox.quarry(["m.db", "-e", #"print(fetch{ "report", properties = { "date.year AS y", "count(*)" }, group = "y" })"#])
        #expect(part.status == 1 && part.stderr.contains(advice) && !part.stderr.contains("cocoa"), "\(part)")
        let compared = try await sandbox.quarry(["m.db", "-e", #"print(count("report", "date >= %@", date("2018-01-01")))"#])
        #expect(compared.status == 1 && compared.stderr.contains(advice) && !compared.stderr.contains("cocoa"), "\(compared)")
        let declared = try await sandbox.quarry(["m.db", "-e", #"format("report", "date", "cocoa")"#])
        #expect(declared.status == 1 && declared.stderr.contains("as cocoa, date's values are no times: " + advice), "\(declared)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("m.db.quarry")), "nothing kept for the refused format()")
        let years = try await sandbox.quarry([
            "m.db", "-e",
            #"for _, r in ipairs(fetch{ "report", properties = { "floor(date / 10000) AS y", "count(*) AS n" }, group = "y", sort = "y" }) do print(r.y, r.n) end"#
        ])
        #expect(years.lines == ["2016.0\t1", "2017.0\t1", "2018.0\t2"], "\(years)")
    }
}

/// A save that breaks a foreign key named a row the file had broken long before (trial
/// 31: `person.ssn '223877684' names no row of income`, when the save had changed a gym
/// member's id that check-ins name): the tables that name what the save wrote are
/// looked at first.
@Suite struct Trial31BrokenKeyTests {
    @Test func theKeyTheSaveBrokeIsNamed() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "g.db",
            """
            PRAGMA foreign_keys = OFF;
            CREATE TABLE income (ssn INTEGER PRIMARY KEY, amount INTEGER);
            CREATE TABLE person (id INTEGER PRIMARY KEY, ssn INTEGER REFERENCES income(ssn));
            CREATE TABLE member (id TEXT PRIMARY KEY, person_id INTEGER REFERENCES person(id));
            CREATE TABLE check_in (id INTEGER PRIMARY KEY, membership_id TEXT REFERENCES member(id));
            INSERT INTO person VALUES (1, 223877684), (2, 111);
            INSERT INTO member VALUES ('48Z55', 1);
            INSERT INTO check_in VALUES (2702, '48Z55');
            """)
        let run = try await sandbox.quarry(["g.db", "-e", #"local m = member:first("id == %@", "48Z55"); m.id = "48Z99"; save()"#])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("check_in.membership_id '48Z55' names no row of member"), "\(run)")
        #expect(!run.stderr.contains("income"), "\(run)")
        #expect(try await sqlite3Lines(sandbox, "g.db", "SELECT id FROM member") == ["48Z55"])
    }
}

/// Smaller moments of trial 31: a predicate typed without its quotes, `.export` of one
/// object said "1 objects", and `.once top.md` ended in a table row "(3 objects)".
@Suite struct Trial31SmallerMomentsTests {
    @Test func anUnquotedPredicateIsQuotedInTheHint() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "d.db", "CREATE TABLE Observation (id INTEGER PRIMARY KEY, price INTEGER); INSERT INTO Observation (price) VALUES (500), (1500);"
        )
        let run = try await sandbox.quarry(["d.db", "-e", #"print(#fetch("Observation", price > 1000))"#])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains(#"attempt to compare number with nil; a predicate is a string: fetch("Observation", "price > 1000")"#), "\(run)")
        let piped = try await sandbox.quarry(["d.db", "-"], stdin: "x = 1\nprint(count('Observation', price >= 500))\n")
        #expect(piped.stderr.contains(#"a predicate is a string: count('Observation', "price >= 500")"#), "\(piped)")
    }

    /// A string ended by `\z` (which swallows the line's end) recursed until the stack ran
    /// out; a script's lines may end in CR LF; a script file's line is read for the hint.
    @Test func oddLineEndsAreSaidOnce() async throws {
        let sandbox = try Sandbox()
        let skipped = try await sandbox.quarry(["-e", #"print("abc\z"#])
        #expect(skipped.status == 1 && skipped.stderr.contains("unfinished string"), "\(skipped)")
        let piped = try await sandbox.quarry([":memory:", "-"], stdin: "x = 1\nprint(\"a\\z\n")
        #expect(piped.status == 1 && piped.stderr.contains("unfinished string"), "\(piped)")
        try sandbox.write("crlf.lua", "print(1)\r\n.mode csv\r\n")
        let crlf = try await sandbox.quarry(["crlf.lua"])
        #expect(crlf.stderr.contains("(.mode is a dot-command: a script is Lua;"), "\(crlf)")
        _ = try await sqlite3(sandbox, "d.db", "CREATE TABLE notes (id INTEGER PRIMARY KEY, price INTEGER);")
        try sandbox.write("h.lua", "x = 1\r\nprint(#fetch(\"notes\", price > 1000))\r\n")
        let script = try await sandbox.quarry(["d.db", "h.lua"])
        #expect(
            script.stderr.contains(#"h.lua:2: attempt to compare number with nil; a predicate is a string: fetch("notes", "price > 1000")"#),
            "\(script)")
    }

    /// (`.export` of one object is in REPLTests' `outputModesImportExportAndChanges`.)
    @Test func markdownFooterIsNoRow() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "d.db", "CREATE TABLE Cut (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO Cut (name) VALUES ('Fair');")
        let md = try await sandbox.quarry(["d.db", "-"], stdin: ".mode markdown\nprint(fetch('Cut'))\n")
        #expect(md.stdout.hasSuffix("| Cut/1 | 1 | Fair |\n\n(1 object)\n"), "\(md)")
    }
}
