import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) stops a batch script's Lua loop although Lua runs without a count hook
/// until a signal sets one: plain loops, a loop over fetched rows (read in C), loops that
/// catch errors, and loops inside coroutines (threads the signal handler cannot see, which
/// keep their own coarse hook). Each stops with one line that says so, and nothing after
/// the loop runs.
@Suite struct LoopInterruptTests {
    static let loops: [(name: String, code: String)] = [
        ("a plain loop", "local s = 0 while true do s = s + 1 end"),
        ("a loop over fetched rows", #"local s = 0 while true do for _, t in ipairs(fetch("T")) do s = s + t.n end end"#),
        ("a loop that catches errors", "while true do pcall(function() while true do end end) end"),
        ("a loop inside coroutine.wrap", "coroutine.wrap(function() while true do end end)()"),
        (
            "a loop inside coroutine.resume that catches errors",
            "while true do coroutine.resume(coroutine.create(function() while true do end end)) end"
        ),
        (
            "a loop inside a coroutine inside a coroutine",
            "coroutine.wrap(function() coroutine.wrap(function() local x = 0 while true do x = x + 1 end end)() end)()"
        )
    ]

    @Test(arguments: loops.indices)
    func ctrlCStopsALoop(_ which: Int) async throws {
        let (name, code) = Self.loops[which]
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", #"entity "T" { n = "int64" }; for i = 1, 500 do T:new{ n = i } end; save()"#])
        try sandbox.write("loop.lua", "io.stderr:write(\"looping\\n\")\n\(code)\nprint(\"after the loop\")\n")
        let err = sandbox.path("loop.err")
        let out = sandbox.path("loop.out")
        let (pid, started) = try await sandbox.startInBackground(["store.db", "loop.lua"], name: "loop", marker: "looping")
        #expect(started, "\(name): the script started")
        try await Task.sleep(nanoseconds: 200_000_000)
        kill(pid, SIGINT)
        let status = try await ChildProcess.wait(pid, timeout: 60)
        if status == nil { kill(pid, SIGKILL) }
        #expect(status == 1, "\(name): status \(String(describing: status))")
        let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[1].contains("interrupted"), "\(name): \(stderr)")
        #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "") == "", "\(name): nothing ran after the loop")
    }

    /// --timeout stops a loop inside a coroutine made before the deadline was checked.
    @Test func timeoutStopsALoopInsideACoroutine() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry(
            [
                "--timeout", "0.5", "-e",
                "coroutine.wrap(function() while true do end end)() print('survived')"
            ], timeout: 40)
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.contains("survived"), "\(result)")
        #expect(result.errorLines.count == 1 && result.stderr.contains("timeout"), "\(result)")
    }
}
