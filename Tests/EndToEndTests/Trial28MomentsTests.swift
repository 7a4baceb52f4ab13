import Foundation
import Testing

/// Trial 28's smaller moments, as a sqlite3 user met them: an option's argument named by
/// its place on the stack (`#-1`), an `updateall` without values blamed on an argument not
/// written, a column named `self` read as SELF and compared by the key, and SQLite's
/// `VACUUM` or `ATTACH` at the prompt printing `nil` or a Lua syntax error.
@Suite struct Trial28MomentsTests {
    private func film(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3(
            sandbox, "f.db",
            "CREATE TABLE film (id INTEGER PRIMARY KEY, length INTEGER, self TEXT); INSERT INTO film (length, self) VALUES (90, 's'), (120, 't'), (100, 's');"
        )
    }

    @Test func argumentsAndKeysAreNamedAsWritten() async throws {
        let sandbox = try Sandbox()
        try await film(sandbox)
        func error(_ chunk: String) async throws -> String {
            let run = try await sandbox.quarry(["f.db", "-e", chunk])
            #expect(run.status != 0, "\(run)")
            return run.stderr
        }
        #expect(
            try await error(#"histogram("film", "length", { bins = "x" })"#).contains(
                "bad argument #3 to 'histogram' (bins: integer expected, got string)"))
        #expect(try await error(#"histogram("film", "length", { bins = 2.5 })"#).contains("(bins: integer expected, got a number with a fraction)"))
        let values = try await error(#"film:updateall("id = 1", 5)"#)
        #expect(
            values.contains(
                #"the values to set are a table after the predicate and its arguments: updateall("pred", { args }, { key = value, ... })"#),
            "\(values)")
        #expect(!values.contains("#3"), "\(values)")
        let selfKey = try await error(#"print(count("film", "self == %@", "s"))"#)
        #expect(selfKey.contains("'self' is SELF, the object itself, in a predicate (write #self for the key of that name)"), "\(selfKey)")
        let counted = try await sandbox.quarry([
            "f.db", "-e", ##"print(count("film", "#self == %@", "s")); print(histogram("film", "length", { bins = 2 }) ~= nil)"##
        ])
        #expect(counted.lines == ["2", "true"], "\(counted)")
    }

    /// A text column of years (world's `IndepYear`, blanks for none) sorted: the note that
    /// it sorts as text comes for rows of properties as for objects, the blanks first.
    @Test func textSortedNumbersAreNotedForPropertiesToo() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "w.db",
            "CREATE TABLE country (id INTEGER PRIMARY KEY, Name TEXT, IndepYear TEXT);"
                + "INSERT INTO country (Name, IndepYear) VALUES ('A', ''), ('B', '-1000'), ('C', '-1523'), ('D', '1901'), ('E', '');"
        )
        let note =
            #"note: IndepYear is text, so it sorts as text (-1000 before -1523); sql("SELECT * FROM country ORDER BY CAST(IndepYear AS REAL)") sorts it as numbers"#
        for request in [#"fetch{ "country", sort = "IndepYear" }"#, #"fetch{ "country", sort = "IndepYear", properties = { "Name", "IndepYear" } }"#]
        {
            let run = try await sandbox.quarry(["w.db", "-e", "local r = " + request])
            #expect(run.status == 0 && run.stderr.split(separator: "\n").contains { $0 == note }, "\(request): \(run)")
        }
    }

    /// `help("film")` says what `help(film)` says: an entity's name, as a function's is.
    @Test func helpTakesAnEntitysName() async throws {
        let sandbox = try Sandbox()
        try await film(sandbox)
        let byValue = try await sandbox.quarry(["f.db", "-e", "help(film)"])
        let byName = try await sandbox.quarry(["f.db", "-e", #"help("film")"#])
        #expect(byValue.status == 0 && byValue.lines.first == "film is an entity; its methods:", "\(byValue)")
        #expect(byName.status == 0 && byName.stdout == byValue.stdout, "\(byName)")
    }

    @Test func sqliteFileStatementsAreAnsweredAtThePrompt() async throws {
        let sandbox = try Sandbox()
        try await film(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["f.db"], columns: 240)
        try await repl.waitForPrompt()
        let vacuum = try await repl.enter("VACUUM")
        #expect(
            vacuum == [
                #"SQLite's VACUUM rewrites the file to its smallest; SQL here only reads: sqlite3 FILE "VACUUM" runs it, with no other program writing the file"#
            ], "\(vacuum)")
        let analyze = try await repl.enter("analyze")
        #expect(analyze.count == 1 && analyze[0].hasPrefix("SQLite's ANALYZE writes the statistics"), "\(analyze)")
        let attach = try await repl.enter("attach 'w.sqlite' as w")
        #expect(attach.count == 1 && attach[0].hasPrefix(#"SQLite's ATTACH: here open("other.db") opens another file"#), "\(attach)")
        // Lua stays Lua: a global of that name is read.
        _ = try await repl.enter("vacuum = 7")
        #expect(try await repl.enter("vacuum") == ["7"])
    }

    /// Tab in a line typed as SQL offers the tables and the columns of those it names, not
    /// Lua's globals (`rat` offered `rawequal`); after `.open` of another file, the old
    /// file's names are gone from Tab and from the globals (`notes` printed `entity notes
    /// (gone)`).
    @Test func tabCompletesSQLColumnsAndForgetsTheOldFile() async throws {
        let sandbox = try Sandbox()
        try await film(sandbox)
        _ = try await sqlite3(sandbox, "n.db", "CREATE TABLE diary (id INTEGER PRIMARY KEY, body TEXT);")
        let repl = try await TmuxSession(sandbox, arguments: ["n.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".open f.db")
        var before = try await repl.screen().count
        try await repl.type("select count(*) AS n from film where leng")
        try await repl.press("Tab")
        try await repl.type(" > 95")
        try await repl.press("Enter")
        let counted = try await repl.waitForPrompt(after: before)
        #expect(counted.contains("> select count(*) AS n from film where length > 95") && counted.contains("2"), "\(counted.suffix(6))")
        #expect(try await repl.enter("=diary") == ["nil"])
        before = try await repl.screen().count
        try await repl.type("=dia")
        try await repl.press("Tab")
        try await repl.press("Enter")
        let completed = try await repl.waitForPrompt(after: before)
        #expect(Array(completed.suffix(3).prefix(2)) == ["> =dia", "nil"], "\(completed.suffix(6))")
    }
}
