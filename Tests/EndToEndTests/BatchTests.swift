import Foundation
import Testing

/// Running Lua without the REPL: `-e` chunks, script files with arguments, standard input,
/// shebang lines, and the in-memory store used when no DB is given.
@Suite struct BatchTests {
    @Test func chunksRunInOrderAndShareState() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-e", "x = 20", "-e", "x = x + 1", "-e", "print(x * 2)"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "42\n")
        #expect(result.stderr == "")
    }

    @Test func aFailingChunkStopsTheRest() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["-e", "print('one')", "-e", "error('two failed')", "-e", "print('three')"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "one\n")
        #expect(result.errorLines == ["(command line):1: two failed"], "\(result)")
    }

    @Test func chunksRunBeforeTheScript() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("show.lua", "print(greeting .. ', ' .. arg[1])\n")
        let result = try await sandbox.quarry(["store.db", "-e", "greeting = 'hello'", "show.lua", "world"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "hello, world\n")
    }

    /// `arg` as in `lua`: arg[0] is the script, arg[1..] its arguments (including ones that
    /// look like options), and the same arguments are the chunk's `...`.
    @Test func scriptSeesArgAndVarargs() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "args.lua",
            """
            print("arg[0]=" .. arg[0], "#arg=" .. #arg)
            for i = 1, #arg do print(i, arg[i]) end
            print("...", select("#", ...), ...)
            """)
        let result = try await sandbox.quarry(["store.db", "args.lua", "a", "b c", "-e", "--timeout"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "arg[0]=args.lua\t#arg=4",
                "1\ta", "2\tb c", "3\t-e", "4\t--timeout",
                "...\t4\ta\tb c\t-e\t--timeout"
            ])
        #expect(result.stderr == "")
        // store.db was the DB (args.lua the script, above); nothing was written to it, so
        // it leaves no file (NewFileCleanupTests).
        #expect(try sandbox.listing() == ["args.lua"], "a DB a run never writes to is not left behind")
    }

    @Test func scriptWithoutArguments() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("none.lua", ##"print(arg[0], #arg, select("#", ...))"##)
        let result = try await sandbox.quarry(["none.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "none.lua\t0\t0\n")
    }

    @Test func scriptFromStandardInput() async throws {
        let sandbox = try Sandbox()
        let script =
            itemSchema + """

                Item:new{ title = "from stdin", n = 7 }
                save()
                print(arg[0], ...)
                print(Item:first().title)
                """
        let result = try await sandbox.quarry(["store.db", "-", "x", "y"], stdin: script)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["-\tx\ty", "from stdin"])
        let reopened = try await sandbox.quarry(["store.db", "-e", "print(Item:count(), Item:first().n)"])
        #expect(reopened.stdout == "1\t7\n", "\(reopened)")
    }

    @Test func standardInputErrorsNameStdin() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["store.db", "-"], stdin: "print('ok')\n\nerror('line three')\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "ok\n")
        #expect(result.errorLines == ["stdin:3: line three"], "\(result)")
    }

    @Test func shebangLineIsSkipped() async throws {
        let sandbox = try Sandbox()
        let text = "#!/usr/bin/env quarry\nprint('hello', ...)\nerror('on line 3')\n"
        try sandbox.write("tool.lua", text, executable: true)

        let file = try await sandbox.quarry(["tool.lua", "a"])
        #expect(file.stdout == "hello\ta\n", "\(file)")
        #expect(file.errorLines == ["tool.lua:3: on line 3"], "line numbers count the shebang line: \(file)")
        #expect(file.status == 1)

        let stdin = try await sandbox.quarry(["-", "b"], stdin: text)
        #expect(stdin.stdout == "hello\tb\n", "\(stdin)")
        #expect(stdin.errorLines == ["stdin:3: on line 3"], "\(stdin)")
    }

    /// The script runs by itself through `#!/usr/bin/env quarry`, with quarry on PATH.
    @Test func executableScriptRunsThroughEnv() async throws {
        let sandbox = try Sandbox()
        let tool = try sandbox.write("tool.lua", "#!/usr/bin/env quarry\nprint(arg[0], ...)\nprint(1 + 1)\n", executable: true)
        let path = sandbox.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await sandbox.run(URL(fileURLWithPath: tool), ["p", "q"], environment: sandbox.environment(["PATH": path]))
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [tool + "\tp\tq", "2"])
    }

    /// With no DB, a first argument ending in .lua is the script and the store is in
    /// memory: nothing is written to disk, and a second run starts empty.
    @Test func firstArgumentEndingInLuaIsScriptWithMemoryStore() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "make.lua",
            itemSchema + """

                Item:new{ title = "a", n = 1 }
                local s = save()
                print(s.inserted, Item:count(), Item:first():objectID())
                """)
        let first = try await sandbox.quarry(["make.lua"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == "1\t1\tItem/1\n")
        let second = try await sandbox.quarry(["make.lua"])
        #expect(second.stdout == "1\t1\tItem/1\n", "a fresh store each time: \(second)")
        #expect(try sandbox.listing() == ["make.lua"], "no database file was created")
    }

    @Test func noDatabaseMeansMemory() async throws {
        let sandbox = try Sandbox()
        let code = itemSchema + #"; Item:new{ title = "a", n = 1 }; save(); print(count("Item"))"#
        for arguments in [["-e", code], [":memory:", "-e", code]] {
            let result = try await sandbox.quarry(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(result.stdout == "1\n")
        }
        #expect(try sandbox.listing() == [], "nothing written to disk")
        let later = try await sandbox.quarry(["-e", "print(Item)"])
        #expect(later.stdout == "nil\n", "a new in-memory store knows no entity: \(later)")
    }

    /// A missing DB opens as a new store; its file is kept once something is written to it.
    @Test func databaseFileIsCreatedWhenMissing() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["fresh.db", "-e", "print('opened')"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "opened\n")
        #expect(!sandbox.exists("fresh.db"), "nothing was written to it")
        let written = try await sandbox.quarry(["fresh.db", "-e", #"entity "T" { n = "int64" }; print('opened')"#])
        #expect(written.status == 0 && written.stdout == "opened\n", "\(written)")
        #expect(sandbox.exists("fresh.db"))
    }

    @Test func functionsAlsoLiveInTheQuarryTable() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "-e",
            """
            quarry.entity "Item" { title = "string", n = "int64" }
            Item:new{ title = "a", n = 1 }
            print(quarry.haschanges(), quarry.save().inserted, quarry.count("Item"), #quarry.fetch("Item"))
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "true\t1\t1\t1\n")
    }
}

/// `quarry --demo`: the sample store, the same on every run.
@Suite struct DemoTests {
    @Test func theDemoStoreIsFilledAndDeterministic() async throws {
        let sandbox = try Sandbox()
        let code =
            #"print(count("Quake"), count("Item"), count("Tag")); local q = fetch{ "Quake", sort = { "-magnitude" }, limit = 1 }[1]; print(q.code, q.magnitude, q.place)"#
        let first = try await sandbox.quarry(["--demo", "-e", code])
        let second = try await sandbox.quarry(["--demo", "-e", code])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.hasPrefix("2500\t60\t5\n"), "\(first)")
        #expect(first.stdout == second.stdout)
        let refused = try await sandbox.quarry(["--demo", "store.db"])
        #expect(refused.status == 1 && refused.stderr.contains("--demo opens its own in-memory store"), "\(refused)")
    }
}
