import Foundation
import Testing

/// An interactive `quarry` on a real terminal: a private tmux server (its own socket) with
/// one pane of 40 rows (120 columns unless said), driven by keystrokes as a person types, and read back from the screen.
/// Every wait polls the pane with a deadline; nothing relies on a fixed sleep for output.
///
/// The pane runs `quarry ARGS; echo "[quarry exited: $?]"; sleep 600`, so the exit status
/// of the REPL shows on the screen. The server is killed when the session is released.
///
/// Everything the pane's programs write is also copied to a file (`pipe-pane`), whose size
/// says when the screen can have changed: a wait reads the screen again only then, so
/// sixty sessions waiting at once in a full run do not each start a tmux client every few
/// milliseconds (each one costs the two cores as much as quarry's own work).
final class TmuxSession {
    let sandbox: Sandbox
    let socket: String
    /// The pane's output, copied by tmux as it draws it (a `.stream-` name, which the
    /// sandbox's listing leaves out as the harness's own).
    private let paneOutput: String
    private let tmux: URL
    private var serverPID: pid_t?
    private static let target = "repl"
    static let exitMarker = "[quarry exited: "

    init(_ sandbox: Sandbox, arguments: [String] = [], environment: [String: String] = [:], columns: Int = 120) async throws {
        self.sandbox = sandbox
        tmux = try Self.locateTmux()
        // A socket inside the sandbox: private to this test, and removed with it.
        socket = sandbox.path("tmux.sock")
        paneOutput = sandbox.path(".stream-pane")
        let run = ([Self.quote(sandbox.binary.path)] + arguments.map(Self.quote)).joined(separator: " ")
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value)) " }.joined()
        let command =
            "cd \(Self.quote(sandbox.directory.path)) && HOME=\(Self.quote(sandbox.home.path)) \(assignments)\(run); "
            + #"echo "\#(Self.exitMarker)$?]"; sleep 600"#
        try await tmux(["new-session", "-d", "-s", Self.target, "-x", String(columns), "-y", "40", command])
        // What was drawn before this is on the screen, which every wait reads first.
        try await tmux(["pipe-pane", "-t", Self.target, "exec cat >> " + Self.quote(paneOutput)])
        serverPID = pid_t(
            try await tmux(["display-message", "-p", "#{pid}"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit {
        // Synchronous on purpose: a test that fails halfway still leaves no server behind.
        let environment = sandbox.environment()
        if let pid = try? ChildProcess.spawn(
            tmux.path, ["-S", socket, "kill-server"], environment: environment,
            directory: sandbox.directory.path,
            stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")
        {
            _ = ChildProcess.waitBlocking(pid, timeout: 5)
        }
        guard let server = serverPID else { return }
        for _ in 0..<100 where kill(server, 0) == 0 { usleep(20_000) }
        if kill(server, 0) == 0 { kill(server, SIGKILL) }
    }

    // MARK: Keys

    /// Types `text` literally (`-l`: words such as `end` or `Up` are not key names).
    func type(_ text: String) async throws { try await tmux(["send-keys", "-t", Self.target, "-l", text]) }

    /// Presses a named key: `Enter`, `C-c`, `C-d`, `Up`.
    func press(_ key: String) async throws { try await tmux(["send-keys", "-t", Self.target, key]) }

    // MARK: Screen

    /// The pane with its scrollback, one entry per row, trailing blanks removed.
    func screen() async throws -> [String] {
        let result = try await tmux(["capture-pane", "-p", "-t", Self.target, "-S", "-"])
        var lines = ProcessResult.split(result.stdout).map { line -> String in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Polls the screen until `condition` holds; fails with the screen's contents if it
    /// does not within `timeout` seconds.
    ///
    /// The screen is read at once, then again each time the pane has written more (the
    /// size of its copy, looked at every 20 ms, costs no process), and at least once a
    /// second in case something changed the screen without writing, and once more at the
    /// deadline, as a busy run can resume this task after it.
    @discardableResult
    func waitUntil(_ what: String, timeout: Double = 30, _ condition: ([String]) -> Bool) async throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        var written = -1
        var lastRead = Date.distantPast
        while Date() < deadline {
            let size = paneOutputSize()
            if size != written || Date().timeIntervalSince(lastRead) >= 1 {
                written = size
                lastRead = Date()
                lines = try await screen()
                if condition(lines) { return lines }
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        lines = try await screen()
        if condition(lines) { return lines }
        throw HarnessError("timed out after \(timeout)s waiting for \(what); the screen:\n" + lines.joined(separator: "\n"))
    }

    /// How many bytes the pane has written since the copy began (0 before it has any).
    private func paneOutputSize() -> Int {
        var info = stat()
        return stat(paneOutput, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Waits until the last row is the prompt `prompt` (`">"` or `">>"`, trailing space trimmed).
    @discardableResult
    func waitForPrompt(_ prompt: String = ">", after count: Int = 0) async throws -> [String] {
        try await waitUntil("the prompt '\(prompt) '") { $0.count > count && $0.last == prompt }
    }

    /// Enters one line at the prompt and returns what it printed (the rows between the
    /// echoed line and the next prompt). `then` is the prompt expected afterwards.
    func enter(_ line: String, then prompt: String = ">") async throws -> [String] {
        let before = try await waitUntil("a prompt before entering \(line)") { $0.last == ">" || $0.last == ">>" }
        try await type(line)
        try await press("Enter")
        let after = try await waitForPrompt(prompt, after: before.count)
        let echo = after[before.count - 1]
        #expect(echo == before[before.count - 1] + " " + line, "the entered line is echoed after the prompt")
        return Array(after[before.count..<after.count - 1])
    }

    /// Waits for quarry to end and returns its exit status, as the pane's shell printed it.
    func waitForExit(timeout: Double = 30) async throws -> Int32? {
        let lines = try await waitUntil("quarry to exit", timeout: timeout) {
            $0.contains { $0.hasPrefix(Self.exitMarker) }
        }
        let marker = lines.last { $0.hasPrefix(Self.exitMarker) }!
        return Int32(marker.dropFirst(Self.exitMarker.count).dropLast())
    }

    // MARK: tmux

    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> ProcessResult {
        let result = try await sandbox.run(tmux, ["-S", socket, "-f", "/dev/null"] + arguments, timeout: 30)
        guard result.status == 0 else { throw HarnessError("tmux \(arguments.first ?? "") failed: \(result)") }
        return result
    }

    private static func locateTmux() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let candidate = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent("tmux")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HarnessError("tmux is needed to drive the REPL; install it (scripts/test does)")
    }

    /// Single-quotes `text` for the shell tmux runs the command with.
    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
}
