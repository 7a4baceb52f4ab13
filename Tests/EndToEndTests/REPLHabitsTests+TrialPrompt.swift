import Foundation
import Testing

/// A new user's trial at the prompt, typed as a person types: a SQL statement over two
/// lines ends at the line ending with `;`, and a batch change whose predicate is true of
/// every row (`TRUEPREDICATE`, `1 == 1`) asks first, as one without a predicate does.
@Suite struct REPLTrialPromptTests {
    private func events(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("e.db"),
                "CREATE TABLE events (id INTEGER PRIMARY KEY, medal TEXT);"
                    + "INSERT INTO events (medal) VALUES ('Gold'), ('Silver'), ('Gold')"
            ])
        try #require(made.status == 0, "\(made)")
    }

    @Test func aStatementOverTwoLinesEndsAtTheSemicolon() async throws {
        let sandbox = try Sandbox()
        try await events(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["e.db"])
        try await repl.waitForPrompt()
        #expect(try await repl.enter("select medal,", then: ">>") == [])
        let start = try await repl.screen().count
        // (`\;`: tmux reads a closing ';' as its own separator.)
        try await repl.type(#"count(*) AS n from events group by medal order by medal\;"#)
        try await repl.press("Enter")
        let answered = try await repl.waitForPrompt(">", after: start)
        let rows = Array(answered[start...])
        #expect(rows.contains("Gold   | 2") && rows.contains("Silver | 1") && rows.contains("(2 rows)"), "\(answered.suffix(8))")
    }

    @Test func anAlwaysTruePredicateAsksAsNoPredicateDoes() async throws {
        let sandbox = try Sandbox()
        try await events(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["e.db"])
        try await repl.waitForPrompt()
        for (typed, question) in [
            (#"=events:deleteall("TRUEPREDICATE")"#, "delete all 3 rows of events? [y/N]"),
            (#"=events:deleteall("1 == 1")"#, "delete all 3 rows of events? [y/N]"),
            (#"=events:updateall("NOT FALSEPREDICATE", {}, { medal = "x" })"#, "update all 3 rows of events? [y/N]")
        ] {
            let start = try await repl.screen().count
            try await repl.type(typed)
            try await repl.press("Enter")
            try await repl.waitUntil("the question") { $0.count > start && $0.last == question }
            try await repl.type("n")
            try await repl.press("Enter")
            let answered = try await repl.waitForPrompt(">", after: start + 1)
            #expect(answered.contains { $0.contains("nothing") && $0.contains("d (a predicate names the rows") }, "\(answered.suffix(4))")
        }
        #expect(try await repl.enter(#"=count("events", "medal == 'Gold'")"#) == ["2"])
        // A predicate that reads a row asks nothing.
        let written = "note: written to the file at once (rollback() does not undo it)"
        #expect(try await repl.enter(#"=events:deleteall("medal == 'Silver' OR 1 == 2")"#) == [written, "1"])
    }
}
