import Testing

@testable import QuarryShell

/// The command line splits as `lua`'s does: options, then DB and SCRIPT, then the
/// script's own arguments, untouched even when they look like options.
@Suite struct InvocationTests {
    @Test func databaseScriptAndArguments() throws {
        let i = try Invocation.parse(["todo.db", "job.lua", "-e", "--x", "b"])
        #expect(i.database == "todo.db")
        #expect(i.script == "job.lua")
        #expect(i.scriptArguments == ["-e", "--x", "b"])
        #expect(i.options.chunks.isEmpty)
    }

    /// sqlite3's habit: `quarry f.db "SELECT …"` runs the statement (each argument that
    /// reads as one); anything else there is a script, as ever.
    @Test func aStatementWhereTheScriptGoesIsAQuery() throws {
        let i = try Invocation.parse(["todo.db", "select count(*) from Item", "WITH x AS (SELECT 1) SELECT * FROM x"])
        #expect(i.database == "todo.db" && i.script == nil && i.scriptArguments.isEmpty)
        #expect(i.queries == ["select count(*) from Item", "WITH x AS (SELECT 1) SELECT * FROM x"])
        #expect(try Invocation.parse([":memory:", "VALUES (1)"]).queries == ["VALUES (1)"])
        #expect(try Invocation.parse(["todo.db", "delete from Item"]).queries == ["delete from Item"])
        // A script, a script with an argument that is no statement, a .lua name.
        for arguments in [["todo.db", "job.lua"], ["todo.db", "select all", "x"], ["todo.db", "select.lua"], ["todo.db", "-"]] {
            let parsed = try Invocation.parse(arguments)
            #expect(parsed.queries.isEmpty && parsed.script == arguments[1], "\(arguments)")
        }
    }

    @Test func aFirstArgumentEndingInLuaIsTheScript() throws {
        let i = try Invocation.parse(["job.lua", "a"])
        #expect(i.database == nil)
        #expect(i.script == "job.lua")
        #expect(i.scriptArguments == ["a"])
    }

    @Test func optionsBeforeAndAfterTheDatabase() throws {
        let i = try Invocation.parse(["--readonly", "todo.db", "-e", "print(1)", "-e", "print(2)", "--timeout", "2.5"])
        #expect(i.options.readonly)
        #expect(i.database == "todo.db")
        #expect(i.script == nil)
        #expect(i.options.chunks == ["print(1)", "print(2)"])
        #expect(i.options.timeout == 2.5)
    }

    @Test func dashReadsTheScriptFromStandardInput() throws {
        let i = try Invocation.parse([":memory:", "-", "x"])
        #expect(i.database == nil)
        #expect(i.script == "-")
        #expect(i.scriptArguments == ["x"])
    }

    @Test func doubleDashEndsOptions() throws {
        let i = try Invocation.parse(["-i", "--", "-odd.db"])
        #expect(i.options.interactive)
        #expect(i.database == "-odd.db")
    }

    @Test func badUsageIsAnError() {
        #expect(throws: (any Error).self) { try Invocation.parse(["--bogus"]) }
        #expect(throws: (any Error).self) { try Invocation.parse(["--memory", "lots"]) }
        #expect(throws: (any Error).self) { try Invocation.parse(["--timeout", "-1"]) }
    }

    @Test func memorySizes() {
        #expect(Options.bytes("512M") == 512 << 20)
        #expect(Options.bytes("2G") == 2 << 30)
        #expect(Options.bytes("1024k") == 1 << 20)
        #expect(Options.bytes("1M") == 1 << 20)
        #expect(Options.bytes("100k") == nil, "below the megabyte Lua needs to start")
        #expect(Options.bytes("inf") == nil)
        #expect(Options.bytes("-1M") == nil)
        #expect(Options.bytes("M") == nil)
    }

    /// The quick reading of ordinary command lines (no ArgumentParser, for start-up)
    /// gives the options ArgumentParser gives, and leaves anything unusual to it.
    @Test func quickOptionsAgreeWithArgumentParser() throws {
        let lines: [[String]] = [
            ["-e", "local x = 1"], ["-e", "a", "-e", "b", "--traceback"], ["--memory", "10M", "-i", "--readonly"],
            ["--timeout", "2.5", "--safe", "--demo"], ["--model", "M.xcdatamodel", "--version"], []
        ]
        for line in lines {
            guard let quick = Options.quickOptions(line, ["db"]) else {
                Issue.record("\(line) was not read quickly")
                continue
            }
            let full = try Options.parse(line + ["--", "db"])
            #expect(
                quick.chunks == full.chunks && quick.interactive == full.interactive && quick.readonly == full.readonly
                    && quick.demo == full.demo && quick.safe == full.safe && quick.timeout == full.timeout
                    && quick.memory == full.memory && quick.model == full.model && quick.traceback == full.traceback
                    && quick.version == full.version && quick.positionals == full.positionals, "\(line)")
        }
        for unusual in [
            ["--memory=10M"], ["-h"], ["--help"], ["-i", "-i"], ["--timeout", "soon"], ["--timeout", "-1"],
            ["--memory", "lots"], ["-e"], ["--memory", "1M", "--memory", "2M"]
        ] {
            #expect(Options.quickOptions(unusual, []) == nil, "\(unusual)")
        }
    }
}
