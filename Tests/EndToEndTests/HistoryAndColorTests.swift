import Foundation
import Testing

/// The REPL's history under XDG_STATE_HOME, and the old file read until the new one exists.
@Suite struct HistoryFileTests {
    @Test func historyGoesUnderXDGStateHomeAndTheOldFileIsReadFirst() async throws {
        let sandbox = try Sandbox()
        try "oldLine = 7\n".write(toFile: sandbox.home.path + "/.quarry_history", atomically: true, encoding: .utf8)
        let state = sandbox.path("state")
        let repl = try await TmuxSession(sandbox, environment: LuaInitTests.clean(["XDG_STATE_HOME": state]))
        try await repl.waitForPrompt()
        // Up brings back the old file's line.
        try await repl.press("Up")
        _ = try await repl.waitUntil("the old history's line") { $0.last == "> oldLine = 7" }
        try await repl.press("C-c")
        try await repl.waitForPrompt()
        #expect(try await repl.enter("newLine = 8") == [])
        try await repl.press("C-d")
        _ = try await repl.waitForExit()
        let history = try String(contentsOfFile: state + "/quarry/history", encoding: .utf8)
        #expect(history.contains("newLine = 8") && history.contains("oldLine = 7"), "\(history)")
        let old = try String(contentsOfFile: sandbox.home.path + "/.quarry_history", encoding: .utf8)
        #expect(!old.contains("newLine"), "the old file is left as it was: \(old)")
    }
}

/// Colour only on a terminal, and never with NO_COLOR (https://no-color.org).
@Suite struct NoColorTests {
    /// quarry under `script`, on a pseudo-terminal; what it wrote, escapes included.
    static func onATerminal(_ sandbox: Sandbox, noColor: Bool) async throws -> String {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw HarnessError("/usr/bin/script (util-linux's bsdutils) is needed to run quarry on a terminal")
        }
        var environment = sandbox.environment()
        environment["NO_COLOR"] = noColor ? "1" : nil
        let command = TmuxSession.quote(sandbox.binary.path) + " -e 'error(\"boom\")'"
        let result = try await sandbox.run(script, ["-qec", command, "/dev/null"], environment: environment)
        return result.stdout
    }

    @Test func errorsAreRedOnATerminalOnlyWithoutNoColor() async throws {
        let sandbox = try Sandbox()
        let red = try await Self.onATerminal(sandbox, noColor: false)
        #expect(red.contains("\u{1B}[31m") && red.contains("boom"), "red on a terminal: \(red.debugDescription)")
        let noColor = try await Self.onATerminal(sandbox, noColor: true)
        #expect(!noColor.contains("\u{1B}[") && noColor.contains("boom"), "NO_COLOR: \(noColor.debugDescription)")
        var plain = sandbox.environment()
        plain["NO_COLOR"] = nil
        let piped = try await sandbox.run(sandbox.binary, ["-e", "error('boom')"], environment: plain)
        #expect(!piped.stderr.contains("\u{1B}[") && piped.stderr.contains("boom"), "not a terminal: \(piped)")
    }
}
