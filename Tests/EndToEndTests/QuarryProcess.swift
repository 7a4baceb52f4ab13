import Foundation
import Testing

/// A failure of the test harness itself (not of quarry), with a message that says what to do.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where the real `quarry` binary is: `<package root>/.build/debug/quarry`, found from this
/// file's path, or `$QUARRY_BINARY` when set (e.g. to test a release build).
enum QuarryBinary {
    static func url() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["QUARRY_BINARY"], !override.isEmpty {
            return try checked(URL(fileURLWithPath: override))
        }
        // Tests/EndToEndTests/QuarryProcess.swift → the package root, three levels up.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try checked(root.appendingPathComponent(".build/debug/quarry"))
    }

    private static func checked(_ url: URL) throws -> URL {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw HarnessError("quarry binary not found at \(url.path): run `swift build` in the package root first")
        }
        return url
    }
}

/// What a finished process left behind.
struct ProcessResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout split into lines, without the empty string after a final newline.
    var lines: [String] { Self.split(stdout) }
    /// stderr split into lines, without the empty string after a final newline.
    var errorLines: [String] { Self.split(stderr) }

    static func split(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    var description: String { "status \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)" }
}

/// A scratch directory for one test: the working directory of every process it runs, with
/// its own `home/` used as `$HOME` (so history files never touch the real one). Removed
/// when the test is done with it.
final class Sandbox {
    let directory: URL
    let home: URL
    /// The quarry binary under test.
    let binary: URL

    init() throws {
        binary = try QuarryBinary.url()
        // Short paths: tmux sockets and shell command lines stay small.
        directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("quarry-e2e-" + UUID().uuidString.prefix(8).lowercased())
        home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Starts quarry on `arguments` in the background (stdout and stderr to `<name>.out`
    /// and `<name>.err`), and waits up to 30 s until its stderr holds `marker`, so a
    /// signal sent next reaches the script, not quarry's start-up. Returns the pid and
    /// whether the marker came.
    func startInBackground(_ arguments: [String], name: String, marker: String) async throws -> (pid: pid_t, started: Bool) {
        let err = path(name + ".err")
        let out = path(name + ".out")
        let pid = try ChildProcess.spawn(
            binary.path, arguments, environment: environment(),
            directory: directory.path, stdin: "/dev/null", stdout: out, stderr: err)
        var started = false
        for _ in 0..<600 where !started {
            try await Task.sleep(nanoseconds: 50_000_000)
            started = ((try? String(contentsOfFile: err, encoding: .utf8)) ?? "").contains(marker)
        }
        return (pid, started)
    }

    /// The absolute path of `name` inside the sandbox.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `text` to `name` inside the sandbox and returns its absolute path.
    @discardableResult
    func write(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let path = path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
        return path
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// The names in the sandbox, other than `home` and the harness's own files.
    func listing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0 != "home" && $0 != "tmux.sock" && !$0.hasPrefix(".stream-") }
            .sorted()
    }

    /// The environment every process gets: the test's own, with `$HOME` in the sandbox and
    /// none of the variables that make quarry run start-up files or move its own files
    /// (a developer's LUA_INIT or init.lua would otherwise run in every test).
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["TMUX"] = nil
        for name in ["LUA_INIT", "LUA_INIT_5_4", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] { environment[name] = nil }
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs `quarry ARGUMENTS` in the sandbox, with `stdin` as standard input (empty when nil,
    /// never the test runner's own terminal).
    /// `timeout` only keeps a hung run from hanging the suite: generous, since a loaded
    /// machine (the whole suite, or two, on two cores) slows every process several times.
    func quarry(
        _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
        timeout: Double = 120
    ) async throws -> ProcessResult {
        try await run(binary, arguments, stdin: stdin, environment: environment(extra), timeout: timeout)
    }

    /// Runs `quarry ARGUMENTS` as `quarry(_:)` does, and returns how long the process ran as
    /// `/bin/sh`, which starts it, timed it. A clock read by the test itself also counts the
    /// time until this task is resumed, which a busy run (CPU-heavy unit tests holding the
    /// runner's few threads, or a sanitized build) can stretch to minutes.
    func timedQuarry(_ arguments: [String], timeout: Double = 20) async throws -> (result: ProcessResult, seconds: Double) {
        let clock = ".stream-\(UUID().uuidString.prefix(8)).time"
        defer { try? FileManager.default.removeItem(atPath: path(clock)) }
        let script =
            #"s=$(date +%s.%N); "$0" "$@"; status=$?; echo "$s $(date +%s.%N)" > "#
            + clock + "; exit $status"
        let result = try await run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, binary.path] + arguments,
            environment: environment(), timeout: timeout)
        let times = try read(clock).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard times.count == 2 else { throw HarnessError("the shell did not time quarry: \(times)") }
        return (result, times[1] - times[0])
    }

    /// Runs any executable with the sandbox as working directory. stdout and stderr go to
    /// files (no pipe can fill up and stall the child); a process still running after
    /// `timeout` seconds is killed and reported.
    func run(
        _ executable: URL, _ arguments: [String], stdin: String? = nil,
        environment: [String: String]? = nil, timeout: Double = 20
    ) async throws -> ProcessResult {
        let tag = UUID().uuidString.prefix(8)
        let outPath = path(".stream-\(tag).out")
        let errPath = path(".stream-\(tag).err")
        let inPath = path(".stream-\(tag).in")
        defer { for p in [outPath, errPath, inPath] { try? FileManager.default.removeItem(atPath: p) } }
        _ = FileManager.default.createFile(atPath: inPath, contents: Data((stdin ?? "").utf8))

        let pid = try ChildProcess.spawn(
            executable.path, arguments, environment: environment ?? self.environment(),
            directory: directory.path, stdin: inPath, stdout: outPath, stderr: errPath)
        guard let status = try await ChildProcess.wait(pid, timeout: timeout) else {
            throw HarnessError("\(executable.lastPathComponent) \(arguments) still running after \(timeout)s; killed")
        }
        return ProcessResult(
            status: status,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

/// The schema most tests use, as the contract's examples write it.
let itemSchema = #"entity "Item" { title = "string", n = "int64", when = "date?" }"#
