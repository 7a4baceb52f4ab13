import Foundation
import Testing

/// The command line itself: --help, --version, bad usage (exit 2), `--`, --timeout and
/// --readonly, run through the real binary.
@Suite struct CommandLineTests {
    @Test func helpPrintsUsageOnStdoutAndExitsZero() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        #expect(result.stdout.contains("quarry [options] [DB] [SCRIPT [ARGS...]]"), "\(result)")
        for option in ["-e", "--readonly", "--timeout", "--version", "--help"] {
            #expect(result.stdout.contains(option), "--help mentions \(option)")
        }
    }

    @Test func versionPrintsOneLineAndExitsZero() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        #expect(result.lines.count == 1, "\(result)")
        let line = try #require(result.lines.first)
        #expect(line.range(of: #"^quarry [0-9]+\.[0-9]+\.[0-9]+"#, options: .regularExpression) != nil, "got \(line)")
    }

    /// Bad usage is status 2 with a message naming the problem on stderr, and nothing run.
    @Test(arguments: [
        (["--bogus"], "--bogus"),
        (["--bogus", "-e", "print('ran')"], "--bogus"),
        (["-e"], "-e"),
        (["--timeout"], "--timeout"),
        (["--timeout", "soon", "-e", "print('ran')"], "soon"),
        (["-dash.lua"], "-dash.lua")
    ])
    func badUsageExitsTwo(arguments: [String], named: String) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(arguments)
        #expect(result.status == 2, "quarry \(arguments): \(result)")
        #expect(result.stdout == "", "nothing runs on bad usage: \(result)")
        #expect(result.stderr.contains(named), "the message names '\(named)': \(result)")
    }

    /// After `--`, a name starting with a dash is the script, and the script's own
    /// arguments are never taken as quarry's options.
    @Test func doubleDashEndsOptions() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("-dash.lua", ##"print("dash", select("#", ...), ...)"##)
        let result = try await sandbox.quarry(["--", "-dash.lua", "-e", "--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "dash\t2\t-e\t--version\n")
        #expect(result.stderr == "")
    }

    @Test func timeoutStopsARunawayScript() async throws {
        let sandbox = try Sandbox()
        let (result, elapsed) = try await sandbox.timedQuarry(["--timeout", "0.5", "-e", "print('before'); while true do end"], timeout: 40)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "before\n")
        #expect(result.errorLines.count == 1, "one line on stderr: \(result)")
        #expect(result.stderr.contains("timeout"), "\(result)")
        // Wall time includes start-up, which a fully loaded two-core run once stretched past
        // ten seconds; a script that never stopped would be killed at 40. Timed by the shell
        // that starts quarry: under the sanitizers this task was once resumed 97 s late.
        #expect(elapsed < 30, "stopped near the limit, not after \(elapsed)s")
    }

    @Test func timeoutStopsAScriptFileToo() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("spin.lua", "local function spin()\n  while true do end\nend\nspin()\n")
        let result = try await sandbox.quarry(["--timeout", "0.3", "spin.lua"], timeout: 40)
        #expect(result.status == 1, "\(result)")
        #expect(result.errorLines.count == 1, "\(result)")
        #expect(result.stderr.contains("timeout"), "\(result)")
    }

    /// The limit holds even when the script catches errors: `pcall` must not turn the
    /// timeout into an ordinary error that the script survives (or loops on forever).
    @Test(arguments: [
        "print(pcall(function() while true do end end)); print('survived')",
        "while true do pcall(function() while true do end end) end; print('survived')"
    ])
    func timeoutCannotBeCaughtByPcall(code: String) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["--timeout", "0.5", "-e", code], timeout: 20)
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.contains("survived"), "the script went on after its time limit: \(result)")
        #expect(result.stderr.contains("timeout"), "\(result)")
    }

    @Test func timeoutLeavesAQuickScriptAlone() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(["--timeout", "5", "-e", "print('done')"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "done\n")
    }

    @Test func readonlyReadsButRefusesToSave() async throws {
        let sandbox = try Sandbox()
        let db = "store.db"
        let setup = try await sandbox.quarry([db, "-e", itemSchema + #"; Item:new{ title = "kept", n = 1 }; save()"#])
        #expect(setup.status == 0, "\(setup)")
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.path(db)))

        let result = try await sandbox.quarry([
            "--readonly", db, "-e",
            """
            print(Item:count(), Item:first().title)
            Item:new{ title = "new", n = 2 }
            Item:first().n = 10
            save()
            print("not reached")
            """
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "1\tkept\n")
        #expect(result.errorLines == ["(command line):4: save: the store is read-only"], "\(result)")

        let after = try Data(contentsOf: URL(fileURLWithPath: sandbox.path(db)))
        #expect(after == before, "--readonly left the file byte for byte as it was")
        let reopened = try await sandbox.quarry([db, "-e", "print(Item:count(), Item:first().n)"])
        #expect(reopened.stdout == "1\t1\n", "\(reopened)")
    }

    @Test func readonlySaveErrorCanBeCaught() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", itemSchema + #"; Item:new{ title = "a", n = 1 }; save()"#])
        let result = try await sandbox.quarry([
            "--readonly", "store.db", "-e",
            """
            Item:new{ title = "b", n = 2 }
            local ok, message = pcall(save)
            print(ok, message, haschanges())
            """
        ])
        #expect(result.status == 0, "\(result)")
        // The position is that of the Lua line that led to the call, even through pcall.
        #expect(result.stdout == "false\t(command line):2: save: the store is read-only\ttrue\n", "\(result)")
    }
}
