import Foundation
import Testing

/// Several statements on one line (`select …; select …;`), as sqlite3 runs them: each in
/// turn, at the prompt and given in a script's place, until one fails; a `;` inside a
/// string or a comment ends none; an unfinished last statement waits for the rest.
@Suite struct SeveralStatementsTests {
    private func ratings(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3(
            sandbox, "f.db",
            "CREATE TABLE film (id INTEGER PRIMARY KEY, rating TEXT); INSERT INTO film (rating) VALUES ('G'), ('PG'), ('G');"
        )
    }

    @Test func atThePromptEachRunsInTurnUntilOneFails() async throws {
        let sandbox = try Sandbox()
        try await ratings(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["f.db"], columns: 160)
        try await repl.waitForPrompt()
        let both = try await repl.enter("select count(*) AS n from film; select 'a;b' AS x /* ; */ -- no; at all")
        #expect(both == ["n", "-", "3", "(1 row)", "x", "---", "a;b", "(1 row)"], "\(both)")
        let stopped = try await repl.enter("select 1 AS one; select nope from film; select 3 AS three")
        #expect(stopped.count == 5 && stopped[0] == "one" && stopped[4].hasSuffix("no such column: nope"), "\(stopped)")
        // The last, unfinished, waits at the continuation prompt, as one alone does.
        let first = try await repl.enter("select 2 AS two; select rating, count(*) AS n", then: ">>")
        #expect(first == ["two", "---", "  2", "(1 row)"], "\(first)")
        // `\;`: tmux reads a closing ';' as its own separator.
        let start = try await repl.screen().count
        try await repl.type(#"from film group by rating order by rating\;"#)
        try await repl.press("Enter")
        let screen = try await repl.waitForPrompt(">", after: start)
        #expect(screen.suffix(4).prefix(3) == ["G      | 2", "PG     | 1", "(2 rows)"], "\(screen.suffix(8))")
    }

    /// sqlite3's `.read q.sql`: a file of statements (comments before them) runs them in
    /// turn; a Lua script is read as Lua still.
    @Test func readRunsAFileOfStatements() async throws {
        let sandbox = try Sandbox()
        try await ratings(sandbox)
        _ = try sandbox.write("q.sql", "-- how many\nselect count(*) AS n from film;\n/* two */ select 'x;y' AS v;\n-- the end\n")
        _ = try sandbox.write("s.lua", "print(count('film'))\n")
        let repl = try await TmuxSession(sandbox, arguments: ["f.db"], columns: 160)
        try await repl.waitForPrompt()
        let read = try await repl.enter(".read q.sql")
        #expect(read == ["n", "-", "3", "(1 row)", "v", "---", "x;y", "(1 row)"], "\(read)")
        #expect(try await repl.enter(".read s.lua") == ["3"])
    }

    @Test func inAScriptsPlaceEachRunsInTurnUntilOneFails() async throws {
        let sandbox = try Sandbox()
        try await ratings(sandbox)
        let run = try await sandbox.quarry(["f.db", "select count(*) AS n from film; select 'x;' AS y; select nope from film; select 4"])
        #expect(run.status == 1, "\(run)")
        #expect(run.lines == ["n", "-", "3", "(1 row)", "y", "--", "x;", "(1 row)"], "\(run)")
        #expect(run.stderr.contains("no such column: nope"), "\(run)")
    }
}
