import Foundation
import Testing

/// Moments of a newcomer's trial on SQLite files nobody here had used (a crime mystery's
/// tables, countries and cities): an aggregate typed on one line and its FROM on the next,
/// a dot-command given on the command line as sqlite3 takes one, `.help` wrapped, and a
/// property's AS name used in `group`.
@Suite struct REPLIssue80UnseenFilesTests {
    private func world(_ sandbox: Sandbox) async throws {
        let result = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("world.db"),
                """
                CREATE TABLE city (ID INTEGER PRIMARY KEY, Name TEXT, CountryCode TEXT, Population INTEGER);
                INSERT INTO city (Name, CountryCode, Population) VALUES ('Kabul', 'AFG', 1780000), ('Herat', 'AFG', 186800),
                  ('Amsterdam', 'NLD', 731200), ('Rotterdam', 'NLD', 593321), ('Utrecht', 'NLD', 234323), ('Oslo', 'NOR', 508726);
                """
            ])
        try #require(result.status == 0, "\(result)")
    }

    /// Enters `line` and a closing `;`, which tmux would read as its own separator if typed.
    private func enterEndingStatement(_ repl: TmuxSession, _ line: String) async throws -> [String] {
        let before = try await repl.screen().count
        try await repl.type(line)
        try await repl.press(#"\;"#)
        try await repl.press("Enter")
        let screen = try await repl.waitForPrompt(after: before)
        return Array(screen[before..<(screen.count - 1)])
    }

    /// `select count(*)` ⏎ `from city;` counts the cities, as psql and sqlite3 wait for
    /// the `;`: alone, SQLite answered the first line with 1 and the second was refused.
    /// A blank line runs what waits, and a whole statement still runs at once.
    @Test func anAggregateOnItsOwnLineWaitsForItsFrom() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["world.db"], columns: 160)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("select count(*)", then: ">>").isEmpty)
        let counted = try await enterEndingStatement(repl, "from city")
        #expect(counted.contains { $0.trimmingCharacters(in: .whitespaces) == "6" } && counted.last == "(1 row)", "\(counted)")
        #expect(try await repl.enter("SELECT sum(Population) AS people", then: ">>").isEmpty)
        let summed = try await enterEndingStatement(repl, "FROM city WHERE CountryCode = 'NLD'")
        #expect(summed.contains { $0.trimmingCharacters(in: .whitespaces) == "1558844" }, "\(summed)")
        #expect(try await repl.enter("select count(*)", then: ">>").isEmpty)
        let waiting = try await repl.screen().count
        try await repl.press("Enter")
        let screen = try await repl.waitForPrompt(after: waiting)
        let alone = Array(screen[waiting..<(screen.count - 1)])
        #expect(alone.contains { $0.trimmingCharacters(in: .whitespaces) == "1" }, "a blank line runs it: \(alone)")
        let whole = try await repl.enter("select count(*) from city where CountryCode = 'AFG'")
        #expect(whole.contains { $0.trimmingCharacters(in: .whitespaces) == "2" }, "\(whole)")
    }

    /// `select count(*) form city` (FROM mistyped) is whole: it fails at once, naming the
    /// word, where it waited at `>>` for a FROM that had been typed.
    @Test func aMistypedFromFailsAtOnce() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["world.db"], columns: 160)
        try await repl.waitForPrompt()
        let failed = try await repl.enter("select count(*) form city")
        #expect(failed.joined().contains("syntax error") && failed.joined().contains("'form': did you mean FROM?"), "\(failed)")
        let counted = try await repl.enter("select count(*) from city")
        #expect(counted.contains { $0.trimmingCharacters(in: .whitespaces) == "6" }, "\(counted)")
    }

    /// `quarry world.db ".schema city"` runs the command, as `sqlite3 world.db ".schema
    /// city"` does (it said "cannot open .schema city: no such file"); a command this
    /// shell does not have is still a missing script.
    @Test func aDotCommandOnTheCommandLineRuns() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        let schema = try await sandbox.quarry([sandbox.path("world.db"), ".schema city"])
        #expect(schema.status == 0 && schema.stdout.contains("CountryCode") && schema.stdout.contains("Population"), "\(schema)")
        let both = try await sandbox.quarry([sandbox.path("world.db"), ".tables", "SELECT count(*) AS n FROM city"])
        #expect(both.status == 0 && both.stdout.contains("city") && both.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "6" }, "\(both)")
        let unknown = try await sandbox.quarry([sandbox.path("world.db"), ".nosuch"])
        #expect(unknown.status != 0 && unknown.stderr.contains("cannot open .nosuch"), "\(unknown)")
    }

    /// `.help` fits its lines to the terminal, each summary under its own column (the
    /// `.pager` line broke mid-word at 80 columns).
    @Test func dotHelpIsWrappedToTheTerminal() async throws {
        let sandbox = try Sandbox()
        let repl = try await TmuxSession(sandbox, columns: 80)
        try await repl.waitForPrompt()
        let lines = try await repl.enter(".help")
        try #require(lines.count > 10, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        let indent = try #require(
            lines.first { $0.hasPrefix(".") }.map { line -> Int in
                let usage = line.prefix { $0 != " " }
                return usage.count + line.dropFirst(usage.count).prefix { $0 == " " }.count
            })
        let commands = lines.prefix { !$0.hasPrefix("Lua:") }
        let continued = commands.filter { !$0.hasPrefix(".") }
        #expect(!continued.isEmpty, "some summary is wrapped at 80 columns: \(lines)")
        #expect(continued.allSatisfy { $0.prefix(indent).allSatisfy { $0 == " " } }, "\(continued)")
    }

    /// `group = "cc"` with `"CountryCode AS cc"` among the properties groups by it, as
    /// SQL's GROUP BY takes an alias and `sort` here did (it was "unknown key 'cc'"); an
    /// aggregate's name is still refused.
    @Test func groupTakesAPropertysName() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        let grouped = try await sandbox.quarry([
            sandbox.path("world.db"), "-e",
            #"for _, row in ipairs(fetch{ "city", properties = { "CountryCode AS cc", "count(*) AS n" }, group = "cc", sort = "cc" }) do print(row.cc, row.n) end"#
        ])
        #expect(grouped.status == 0 && grouped.lines == ["AFG\t2", "NLD\t3", "NOR\t1"], "\(grouped)")
        let aggregate = try await sandbox.quarry([
            sandbox.path("world.db"), "-e", #"fetch{ "city", properties = { "CountryCode AS cc", "count(*) AS n" }, group = "n" }"#
        ])
        #expect(aggregate.status == 1 && aggregate.stderr.contains("'n' is an aggregate"), "\(aggregate)")
    }

    /// `c = city... ; c` on one line prints `c`, as sqlite3 and psql run several
    /// statements on a line (Lua took the last word as an unfinished statement and waited
    /// at `>>`, so the next line failed and `c` was never set). A `;` inside a string or
    /// a comment is no break, and a line that is Lua as it is runs as before.
    @Test func statementsThenAnExpressionOnOneLinePrintTheExpression() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["world.db"], columns: 160)
        try await repl.waitForPrompt()
        let name = try await repl.enter(#"c = city:first("Name == %@", "Oslo"); c.Name"#)
        #expect(name == ["Oslo"], "\(name)")
        #expect(try await repl.enter("n = 41; n + 1") == ["42"])
        #expect(try await repl.enter(#"s = "x;y"; s .. "!""#) == ["x;y!"])
        #expect(try await repl.enter("t = {1, 2}; #t -- a comment; not code") == ["2"])
        #expect(try await repl.enter("print(1); print(2)") == ["1", "2"])
        // A call last prints its values as it would alone (it printed nothing: the line
        // was whole Lua, run as statements).
        #expect(try await repl.enter(#"x = 1; count("city")"#) == ["6"])
        #expect(try await repl.enter(#"c.Population = 1; c:changes()"#).joined().contains("Population"))
        #expect(try await repl.enter("a = 1; b = 2").isEmpty)
        #expect(try await repl.enter("=a + b") == ["3"])
    }

    /// Habits of other languages get what was meant (trial 5): Python's named arguments
    /// in a call, a SQL word mistyped, a mistyped function's name.
    @Test func otherLanguagesHabitsGetWhatWasMeant() async throws {
        let sandbox = try Sandbox()
        try await world(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["world.db"], columns: 200)
        try await repl.waitForPrompt()
        let named = try await repl.enter(#"fetch("city", "Population > 1", sort = "-Population")"#).joined()
        #expect(named.contains("')' expected near '='") && named.contains("options go in a table, as fetch{"), "\(named)")
        let sql = try await repl.enter("selct * from city").joined()
        #expect(sql.contains("(did you mean SELECT?)"), "\(sql)")
        let function = try await repl.enter(#"histgram("city", "Population")"#).joined()
        #expect(function.contains("(global 'histgram')") && function.contains("(did you mean 'histogram'?)"), "\(function)")
    }
}
