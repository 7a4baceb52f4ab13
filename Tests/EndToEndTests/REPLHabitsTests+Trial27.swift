import Foundation
import Testing

/// Trial 27's DuckDB habits, typed at the prompt as a DuckDB user types them: `SUMMARIZE
/// Taxi` was a Lua syntax error, and `SELECT * FROM 'taxis.csv'` (DuckDB reads the file)
/// got SQLite's `no such table: taxis.csv`.
@Suite struct REPLTrial27Tests {
    private func taxis(_ sandbox: Sandbox) async throws {
        _ = try await sqlite3(
            sandbox, "t.db",
            "CREATE TABLE Taxi (id INTEGER PRIMARY KEY, fare REAL, zone TEXT); INSERT INTO Taxi (fare, zone) VALUES (12.5, 'Midtown'), (30, 'JFK'), (NULL, 'JFK');"
        )
    }

    @Test func summarizeRunsAsSummarizeDoes() async throws {
        let sandbox = try Sandbox()
        try await taxis(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["t.db"], columns: 200)
        try await repl.waitForPrompt()
        let summary = try await repl.enter("=summarize(Taxi)")
        try #require(summary.first?.hasPrefix("column") == true && summary.contains { $0.hasPrefix("fare ") }, "\(summary)")
        #expect(try await repl.enter("SUMMARIZE Taxi") == summary)
        // Any case, as DuckDB matches a table's name, and its closing ';'
        // (`\;`: tmux reads a closing ';' as its own separator).
        for typed in [#"summarize taxi\;"#, #"Summarize  TAXI \;"#] {
            let start = try await repl.screen().count
            try await repl.type(typed)
            try await repl.press("Enter")
            let screen = try await repl.waitForPrompt(">", after: start)
            #expect(Array(screen[start..<(screen.count - 1)]) == summary, "\(typed): \(screen.suffix(8))")
        }
        // A name that is no entity gets summarize()'s own answer.
        let unknown = try await repl.enter("SUMMARIZE Taxis")
        #expect(unknown.count == 1 && unknown[0].contains("unknown entity 'Taxis'"), "\(unknown)")
        // Lua stays Lua: a call with a string argument, and a global named so.
        #expect(try await repl.enter(#"summarize "Taxi""#) == summary)
        _ = try await repl.enter("SUMMARIZE = 5")
        #expect(try await repl.enter("=SUMMARIZE") == ["5"])
    }

    @Test func aFileReadAsATableIsAnsweredWithImport() async throws {
        let sandbox = try Sandbox()
        try await taxis(sandbox)
        _ = try sandbox.write("taxis.csv", "fare,zone\n12.5,Midtown\n30,JFK\n")
        let repl = try await TmuxSession(sandbox, arguments: ["t.db"], columns: 240)
        try await repl.waitForPrompt()
        let way = #"here import("taxis.csv") reads a CSV or JSON file into an entity, which SQL then reads by its name"#
        #expect(try await repl.enter("SELECT * FROM 'taxis.csv'") == ["DuckDB's FROM 'taxis.csv' reads the file; " + way])
        #expect(try await repl.enter(#"select count(*) from read_csv("taxis.csv") t"#) == ["DuckDB's read_csv('taxis.csv') reads the file; " + way])
        // DuckDB's FROM-first query, which Lua would call `FROM` with.
        #expect(try await repl.enter("FROM 'taxis.csv'") == ["DuckDB's FROM 'taxis.csv' reads the file; " + way])
        // A quoted name that is a table's is SQLite's own way to name it, and runs; one
        // that is neither a table nor a file gets SQLite's answer.
        let table = try await repl.enter("SELECT count(*) AS n FROM 'Taxi'")
        #expect(table.contains { $0.trimmingCharacters(in: .whitespaces) == "3" } && table.last == "(1 row)", "\(table)")
        let missing = try await repl.enter("SELECT * FROM 'Taxis'")
        #expect(missing.count == 1 && missing[0].hasSuffix("no such table: Taxis"), "\(missing)")
        // The way it names works.
        let imported = try await repl.enter(#"=import("taxis.csv")"#)
        #expect(imported.last == "2", "\(imported)")
        let rows = try await repl.enter("SELECT sum(fare) AS total FROM Taxis")
        #expect(rows.contains { $0.trimmingCharacters(in: .whitespaces) == "42.5" } && rows.last == "(1 row)", "\(rows)")
    }

    /// The same query given in a script's place (`quarry t.db "SELECT * FROM 'taxis.csv'"`)
    /// gets the prompt's answer, not SQLite's `no such table`.
    @Test func aFileReadAsATableInAScriptsPlaceIsAnsweredWithImport() async throws {
        let sandbox = try Sandbox()
        try await taxis(sandbox)
        _ = try sandbox.write("taxis.csv", "fare,zone\n12.5,Midtown\n30,JFK\n")
        let run = try await sandbox.quarry(["t.db", "SELECT * FROM 'taxis.csv'"])
        #expect(run.status != 0, "\(run)")
        #expect(run.stderr.contains(#"DuckDB's FROM 'taxis.csv' reads the file; here import("taxis.csv") reads a CSV or JSON file"#), "\(run)")
        #expect(!run.stderr.contains("no such table"), "\(run)")
        let table = try await sandbox.quarry(["t.db", "SELECT count(*) AS n FROM 'Taxi'"])
        #expect(table.status == 0 && table.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "3" }, "\(table)")
    }
}
