import Foundation

/// A PostgreSQL server of one test's own, for what the shared one (`PostgresServer`)
/// must not meet: a restart, which would break every other test's sessions. Started by
/// `scripts/postgres start` in a folder of its own, with the test process as its owner
/// (its watcher stops it if the process dies); `stop()` ends it.
public final class PostgresOwnServer {
    public let url: String
    private let folder: String

    /// Starts one; fails (never skips) with the script's words when it cannot.
    public init(_ name: String) throws {
        folder =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("quarry-pg-\(name)-\(UUID().uuidString.prefix(8).lowercased())").path
        let start = try PostgresServer.run(PostgresServer.script, ["start", folder, String(ProcessInfo.processInfo.processIdentifier)])
        guard start.status == 0, let url = start.output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgres://") else {
            throw PostgresServer.Unavailable(description: "PostgreSQL did not start (scripts/postgres start \(folder)): \(start.errors)")
        }
        self.url = url
    }

    /// Starts one, awaited: `initdb` and the start are waited for on a thread of their own
    /// (`OffThePool`), not one of the runner's few.
    public static func start(_ name: String) async throws -> PostgresOwnServer {
        try await OffThePool.run { try PostgresOwnServer(name) }
    }

    deinit { stop() }

    /// The command that restarts it (fast shutdown, then a start on the same port), for a
    /// script to run in the middle of a session (`os.execute`).
    public var restartCommand: String { "'\(PostgresServer.script)' restart '\(folder)'" }

    /// Restarts it: every session's connection is closed by the server.
    public func restart() throws {
        let result = try PostgresServer.run(PostgresServer.script, ["restart", folder])
        guard result.status == 0 else { throw PostgresServer.Unavailable(description: "scripts/postgres restart failed: \(result.errors)") }
    }

    /// The same, awaited off the runner's threads.
    public func restartAwaited() async throws {
        try await OffThePool.run { try self.restart() }
    }

    public func stop() {
        _ = try? PostgresServer.run(PostgresServer.script, ["stop", folder])
    }
}
