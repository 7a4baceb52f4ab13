import Foundation
import Testing

/// A Lua or store error ends the run with status 1 and exactly one line on stderr,
/// `SCRIPT:LINE: message`, naming what was wrong and what would be right.
@Suite struct ErrorTests {
    /// Runs the script `t.lua` (in memory) and expects status 1 with `line` as all of stderr.
    func expectFailure(
        _ script: String, stderr line: String, stdout: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let sandbox = try Sandbox()
        try sandbox.write("t.lua", script)
        let result = try await sandbox.quarry(["t.lua"])
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.errorLines == [line], "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout == stdout, "\(result)", sourceLocation: sourceLocation)
    }

    @Test func wrongTypeAssignmentIsReportedAtOnce() async throws {
        try await expectFailure(
            itemSchema + """

                local o = Item:new{ title = "a", n = 1 }
                o.n = "abc"
                print("not reached")
                """, stderr: #"t.lua:3: Item.n expects int64, got string ("abc")"#)
    }

    @Test func wrongTypeInNewIsReported() async throws {
        try await expectFailure(
            itemSchema + """

                Item:new{ title = "a", n = "1" }
                """, stderr: #"t.lua:2: Item.n expects int64, got string ("1")"#)
    }

    @Test func wrongTypeForADate() async throws {
        try await expectFailure(
            itemSchema + """

                local o = Item:new{ title = "a", n = 1 }
                print("made")
                o.when = true
                """, stderr: #"t.lua:4: Item.when expects date, got boolean (true)"#, stdout: "made\n")
    }

    @Test func wrongTypeCanBeCaughtAndLeavesTheValue() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "-e",
            itemSchema + """

                local o = Item:new{ title = "a", n = 1 }
                local ok, message = pcall(function() o.n = "abc" end)
                print(ok, o.n)
                print(message)
                """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["false\t1", #"(command line):3: Item.n expects int64, got string ("abc")"#])
    }

    @Test func luaRuntimeErrorNamesScriptAndLine() async throws {
        try await expectFailure(
            "print('start')\nlocal t = nil\nprint(t.x)\n",
            stderr: "t.lua:3: attempt to index a nil value (local 't')", stdout: "start\n")
    }

    @Test func syntaxErrorIsOneLineAndRunsNothing() async throws {
        try await expectFailure("print('start')\nlocal x = = 1\n", stderr: "t.lua:2: unexpected symbol near '='")
    }

    @Test func chunkErrorsNameTheCommandLine() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-e", "local x = 1\nerror('bad ' .. x)"])
        #expect(result.status == 1, "\(result)")
        #expect(result.errorLines == ["(command line):2: bad 1"], "\(result)")
    }

    @Test func unknownKeyPathInPredicateSuggestsTheRightOne() async throws {
        try await expectFailure(
            itemSchema + """

                Item:new{ title = "a", n = 1 }
                save()
                local r = fetch("Item", "titel == %@", "a")
                """, stderr: "t.lua:4: predicate: unknown key path 'titel' on entity Item (did you mean 'title'?) at column 1")
    }

    @Test func unknownKeyPathFurtherIntoThePredicate() async throws {
        try await expectFailure(
            itemSchema + """

                print(count("Item", "n > 1 AND nn < 3"))
                """, stderr: "t.lua:2: predicate: unknown key path 'nn' on entity Item (did you mean 'n'?) at column 11")
    }

    /// Malformed predicates fail with one `predicate: ...` line, not a crash or a partial result.
    @Test(arguments: ["n ==", "n == 1 AND", "(n == 1", "n === 1", "n == %@"])
    func malformedPredicateIsOneLine(predicate: String) async throws {
        let sandbox = try Sandbox()
        try sandbox.write("t.lua", itemSchema + "\nprint(#fetch(\"Item\", \"\(predicate)\"))\n")
        let result = try await sandbox.quarry(["t.lua"])
        #expect(result.status == 1, "\(predicate): \(result)")
        #expect(result.stdout == "")
        #expect(result.errorLines.count == 1, "\(predicate): \(result)")
        #expect(result.stderr.hasPrefix("t.lua:2: predicate: "), "\(predicate): \(result)")
    }

    @Test func unknownAttributeIsNamed() async throws {
        try await expectFailure(
            itemSchema + """

                local o = Item:new{ title = "a", n = 1 }
                o.titel = "b"
                """, stderr: "t.lua:3: unknown key 'titel' on entity Item (did you mean 'title'?)")
    }

    @Test func missingScriptFileIsAnErrorNotUsage() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["nothere.lua"])
        #expect(result.status == 1, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.stderr.contains("nothere.lua"), "\(result)")
    }

    @Test func errorsInAScriptWithADatabaseNameTheScript() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("job.lua", itemSchema + "\nItem:new{ title = 'a', n = 'x' }\n")
        let result = try await sandbox.quarry(["store.db", "job.lua"])
        #expect(result.status == 1, "\(result)")
        #expect(result.errorLines == [#"job.lua:2: Item.n expects int64, got string ("x")"#], "\(result)")
    }
}
