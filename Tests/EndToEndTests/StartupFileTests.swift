import Foundation
import Testing

/// LUA_INIT_5_4 / LUA_INIT, run as `lua` runs them, and the init file of an interactive
/// session (`$XDG_CONFIG_HOME/quarry/init.lua`, `--init FILE`, `--no-init`), as the
/// contract's command line says.
@Suite struct LuaInitTests {
    /// For a tmux pane: an explicit value for each variable the rules read (empty: an
    /// XDG folder is then ignored, LUA_INIT is an empty chunk), so the test runner's own
    /// environment cannot decide an outcome.
    static func clean(_ extra: [String: String]) -> [String: String] {
        var environment = ["XDG_CONFIG_HOME": "", "LUA_INIT": "", "LUA_INIT_5_4": ""]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs quarry with none of the variables the rules read but those in `variables`.
    static func quarry(
        _ sandbox: Sandbox, _ arguments: [String], _ variables: [String: String] = [:],
        stdin: String? = nil
    ) async throws -> ProcessResult {
        var environment = sandbox.environment()
        for name in ["LUA_INIT", "LUA_INIT_5_4", "LUA_PATH", "LUA_PATH_5_4", "LUA_CPATH", "LUA_CPATH_5_4", "XDG_CONFIG_HOME"] {
            environment[name] = nil
        }
        environment.merge(variables) { _, new in new }
        return try await sandbox.run(sandbox.binary, arguments, stdin: stdin, environment: environment, timeout: 120)
    }

    @Test func luaInitRunsBeforeTheChunksAndTheScript() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("job.lua", "print('script sees', x)")
        let environment = ["LUA_INIT_5_4": "x = 41; print('init')"]
        let chunk = try await Self.quarry(sandbox, ["-e", "print(x + 1)"], environment)
        #expect(chunk.status == 0 && chunk.lines == ["init", "42"], "\(chunk)")
        let script = try await Self.quarry(sandbox, ["job.lua"], environment)
        #expect(script.status == 0 && script.lines == ["init", "script sees\t41"], "\(script)")
    }

    /// As lua: `arg` is there before LUA_INIT runs.
    @Test func luaInitSeesArg() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("job.lua", "print('job', ...)")
        let environment = ["LUA_INIT_5_4": "print('init', arg[0], arg[1])"]
        let script = try await Self.quarry(sandbox, ["job.lua", "x"], environment)
        #expect(script.status == 0 && script.lines == ["init\tjob.lua\tx", "job\tx"], "\(script)")
        let chunk = try await Self.quarry(sandbox, ["-e", "print(arg[0])"], environment)
        #expect(chunk.status == 0 && chunk.lines == ["init\tquarry\tnil", "quarry"], "\(chunk)")
    }

    @Test func luaInitIsReadOnlyWhenLuaInit54IsNotSet() async throws {
        let sandbox = try Sandbox()
        let plain = try await Self.quarry(sandbox, ["-e", "print(v)"], ["LUA_INIT": "v = 'plain'"])
        #expect(plain.status == 0 && plain.lines == ["plain"], "\(plain)")
        let both = try await Self.quarry(sandbox, ["-e", "print(v)"], ["LUA_INIT": "v = 'plain'", "LUA_INIT_5_4": "v = 'versioned'"])
        #expect(both.status == 0 && both.lines == ["versioned"], "\(both)")
    }

    @Test func anAtSignNamesAFile() async throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write("start.lua", "greeting = 'from ' .. 'file'\n")
        let result = try await Self.quarry(sandbox, ["-e", "print(greeting)"], ["LUA_INIT_5_4": "@" + file])
        #expect(result.status == 0 && result.lines == ["from file"], "\(result)")
        let missing = try await Self.quarry(sandbox, ["-e", "print('ran')"], ["LUA_INIT_5_4": "@nowhere.lua"])
        #expect(missing.status == 1 && missing.stdout.isEmpty && missing.stderr.contains("nowhere.lua"), "\(missing)")
    }

    @Test func anErrorInLuaInitEndsTheRunWithStatus1() async throws {
        let sandbox = try Sandbox()
        let chunk = try await Self.quarry(sandbox, ["-e", "print('ran')"], ["LUA_INIT_5_4": "local a = 1\nerror('broken init')"])
        #expect(chunk.status == 1 && chunk.stdout.isEmpty, "the chunk does not run: \(chunk)")
        #expect(chunk.errorLines == ["LUA_INIT_5_4:2: broken init"], "named as lua names it: \(chunk)")
        let file = try sandbox.write("bad.lua", "x = 1\nx = x +\n")
        let syntax = try await Self.quarry(sandbox, ["-e", "print('ran')"], ["LUA_INIT": "@" + file])
        #expect(syntax.status == 1 && syntax.stdout.isEmpty, "\(syntax)")
        #expect(syntax.errorLines.count == 1 && syntax.stderr.contains("bad.lua:"), "\(syntax)")
    }

    @Test func dashCapitalEIgnoresLuaInit() async throws {
        let sandbox = try Sandbox()
        let environment = ["LUA_INIT_5_4": "error('should not run')"]
        let ignored = try await Self.quarry(sandbox, ["-E", "-e", "print('ran')"], environment)
        #expect(ignored.status == 0 && ignored.lines == ["ran"] && ignored.stderr.isEmpty, "\(ignored)")
        let read = try await Self.quarry(sandbox, ["-e", "print('ran')"], environment)
        #expect(read.status == 1 && read.stdout.isEmpty, "without -E it runs: \(read)")
    }

    @Test func safeHoldsForLuaInit() async throws {
        let sandbox = try Sandbox()
        let environment = ["LUA_INIT_5_4": "local f = assert(io.open('made.txt', 'w')); f:write('x'); f:close()"]
        let unsafe = try await Self.quarry(sandbox, ["-e", "print('ran')"], environment)
        #expect(unsafe.status == 0 && sandbox.exists("made.txt"), "without --safe the file is written: \(unsafe)")
        try FileManager.default.removeItem(atPath: sandbox.path("made.txt"))
        let safe = try await Self.quarry(sandbox, ["--safe", "-e", "print('ran')"], environment)
        #expect(safe.status == 1 && safe.stdout.isEmpty, "\(safe)")
        #expect(safe.stderr.contains("--safe") && safe.stderr.contains("made.txt"), "\(safe)")
        #expect(!sandbox.exists("made.txt"))
        let execute = try await Self.quarry(sandbox, ["--safe", "-e", "print('ran')"], ["LUA_INIT_5_4": "os.execute('true')"])
        #expect(execute.status == 1 && execute.stderr.contains("--safe: os.execute is not allowed"), "\(execute)")
    }

    /// LUA_PATH_5_4 (else LUA_PATH) and the C paths reach `require`, as in lua; -E drops them.
    @Test func luaPathReachesRequireAndDashCapitalEDropsIt() async throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("mods"), withIntermediateDirectories: true)
        try sandbox.write("mods/greet.lua", "return { word = 'hello' }\n")
        let code = "print(require('greet').word)"
        let versioned = try await Self.quarry(sandbox, ["-e", code], ["LUA_PATH_5_4": "mods/?.lua;;", "LUA_PATH": "nowhere/?.lua"])
        #expect(versioned.status == 0 && versioned.lines == ["hello"], "\(versioned)")
        let plain = try await Self.quarry(sandbox, ["-e", code], ["LUA_PATH": "mods/?.lua;;"])
        #expect(plain.status == 0 && plain.lines == ["hello"], "\(plain)")
        let none = try await Self.quarry(sandbox, ["-e", code])
        #expect(none.status == 1 && none.stderr.contains("module 'greet' not found"), "\(none)")
        let ignored = try await Self.quarry(sandbox, ["-E", "-e", code], ["LUA_PATH_5_4": "mods/?.lua;;"])
        #expect(ignored.status == 1 && ignored.stderr.contains("module 'greet' not found"), "\(ignored)")
        let cpath = try await Self.quarry(sandbox, ["-e", "print(package.cpath)"], ["LUA_CPATH_5_4": "/opt/x/?.so"])
        #expect(cpath.lines == ["/opt/x/?.so"], "\(cpath)")
    }
}

@Suite struct InitFileTests {
    /// `config/quarry/init.lua` in the sandbox, and the environment that points at it.
    static func configure(_ sandbox: Sandbox, _ text: String) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: sandbox.path("config/quarry"), withIntermediateDirectories: true)
        try sandbox.write("config/quarry/init.lua", text)
        return LuaInitTests.clean(["XDG_CONFIG_HOME": sandbox.path("config")])
    }

    @Test func theREPLRunsTheInitFileAfterTheStoreOpensAndAgainAfterOpen() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["a.db", "-e", #"entity "Item" { n = "int64" }; Item:new{ n = 1 }; save()"#])
        try #require(made.status == 0, "\(made)")
        // The store is open when it runs: it sees the file's entities.
        let environment = try Self.configure(sandbox, "runs = (runs or 0) + 1\nseen = #entities()\n")
        let repl = try await TmuxSession(sandbox, arguments: ["a.db"], environment: environment)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("=runs, seen") == ["1       1"])
        // A name that was not there is said to be made (issue 80).
        #expect(try await repl.enter(".open b.db").map { $0.hasPrefix("note: b.db did not exist") } == [true])
        #expect(try await repl.enter("=runs, seen") == ["2       0"])
    }

    @Test func theDefaultInitFileIsUnderHomeConfig() async throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.home.path + "/.config/quarry", withIntermediateDirectories: true)
        try "where = 'home config'\n".write(toFile: sandbox.home.path + "/.config/quarry/init.lua", atomically: true, encoding: .utf8)
        let repl = try await TmuxSession(sandbox, environment: LuaInitTests.clean([:]))
        try await repl.waitForPrompt()
        #expect(try await repl.enter("=where") == ["home config"])
    }

    @Test func anErrorInTheInitFileIsOneLineAndTheREPLGoesOn() async throws {
        let sandbox = try Sandbox()
        let environment = try Self.configure(sandbox, "before = 1\nerror('init went wrong')\nafter = 1\n")
        let repl = try await TmuxSession(sandbox, environment: environment)
        let screen = try await repl.waitForPrompt()
        let file = sandbox.path("config/quarry/init.lua")
        #expect(screen.contains("\(file):2: init went wrong"), "\(screen)")
        #expect(screen.filter { $0.contains("init went wrong") }.count == 1, "\(screen)")
        #expect(try await repl.enter("=before, after") == ["1       nil"])
    }

    @Test func theInitFileRunsAfterDashIToo() async throws {
        let sandbox = try Sandbox()
        let environment = try Self.configure(sandbox, "fromInit = 'yes'\n")
        try sandbox.write("job.lua", "print('script sees ' .. tostring(fromInit))\n")
        let repl = try await TmuxSession(sandbox, arguments: ["-i", "job.lua"], environment: environment)
        let screen = try await repl.waitForPrompt()
        #expect(screen.contains("script sees yes"), "\(screen)")
    }

    @Test func noInitRunsNone() async throws {
        let sandbox = try Sandbox()
        let environment = try Self.configure(sandbox, "fromInit = 'yes'\n")
        let repl = try await TmuxSession(sandbox, arguments: ["--no-init"], environment: environment)
        try await repl.waitForPrompt()
        #expect(try await repl.enter("=fromInit") == ["nil"])
        let named = try await LuaInitTests.quarry(
            sandbox, ["--no-init", "--init", sandbox.path("config/quarry/init.lua"), "-e", "print(fromInit)"],
            environment)
        #expect(named.status == 0 && named.lines == ["nil"], "--no-init wins over --init: \(named)")
    }

    @Test func scriptsAndChunksReadNoInitFileUnlessInitNamesOne() async throws {
        let sandbox = try Sandbox()
        let environment = try Self.configure(sandbox, "print('init ran')\n")
        try sandbox.write("job.lua", "print('job', ...)\n")
        let chunk = try await LuaInitTests.quarry(sandbox, ["-e", "print('chunk')"], environment)
        #expect(chunk.status == 0 && chunk.lines == ["chunk"], "\(chunk)")
        let script = try await LuaInitTests.quarry(sandbox, ["job.lua", "a"], environment)
        #expect(script.status == 0 && script.lines == ["job\ta"], "\(script)")
        let piped = try await LuaInitTests.quarry(sandbox, [], environment, stdin: "print('piped')\n")
        #expect(piped.status == 0 && piped.lines == ["piped"], "\(piped)")
        // --init FILE in a script run: FILE first, then the script (which sees its globals).
        try sandbox.write("setup.lua", "print('setup'); prefix = '>'\n")
        try sandbox.write("uses.lua", "print(prefix, ...)\n")
        let named = try await LuaInitTests.quarry(sandbox, ["--init", "setup.lua", "uses.lua", "b"], environment)
        #expect(named.status == 0 && named.lines == ["setup", ">\tb"], "\(named)")
        let withChunk = try await LuaInitTests.quarry(sandbox, ["--init", "setup.lua", "-e", "print(prefix)"], environment)
        #expect(withChunk.status == 0 && withChunk.lines == ["setup", ">"], "\(withChunk)")
    }

    @Test func anInitFileErrorEndsABatchRunWithStatus1() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("bad.lua", "local ok = true\nerror('no good')\n")
        let result = try await LuaInitTests.quarry(sandbox, ["--init", "bad.lua", "-e", "print('ran')"], )
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.errorLines == ["bad.lua:2: no good"], "\(result)")
        let missing = try await LuaInitTests.quarry(sandbox, ["--init", "absent.lua", "-e", "print('ran')"], )
        #expect(missing.status == 1 && missing.errorLines.count == 1 && missing.stderr.contains("absent.lua"), "\(missing)")
    }

    @Test func safeAndReadonlyHoldForTheInitFile() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("writes.lua", "local f = assert(io.open('out.txt', 'w')); f:close()\n")
        let safe = try await LuaInitTests.quarry(sandbox, ["--safe", "--init", "writes.lua", "-e", "print('ran')"], )
        #expect(safe.status == 1 && safe.stderr.contains("--safe") && !sandbox.exists("out.txt"), "\(safe)")
        let made = try await sandbox.quarry(["r.db", "-e", #"entity "Item" { n = "int64" }; save()"#])
        try #require(made.status == 0, "\(made)")
        try sandbox.write("saves.lua", "Item:new{ n = 1 }; save()\n")
        let readonly = try await LuaInitTests.quarry(sandbox, ["--readonly", "--init", "saves.lua", "r.db", "-e", "print('ran')"], )
        #expect(readonly.status == 1 && readonly.stdout.isEmpty, "\(readonly)")
        let count = try await sandbox.quarry(["r.db", "-e", "print(count('Item'))"])
        #expect(count.lines == ["0"], "nothing was written: \(count)")
    }
}
