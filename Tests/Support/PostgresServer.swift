import Foundation

/// A real PostgreSQL 15 server for the tests that need one: started once per test
/// process by `scripts/postgres start` (initdb into a temporary folder, loopback, as an
/// unprivileged user), stopped when the process exits, or by the script's watcher when
/// the process is killed. When it cannot start, every test
/// asking for it fails with the script's words: they never skip.
public enum PostgresServer {
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The server's URL (`postgres://quarry@127.0.0.1:PORT/quarry`), starting it first.
    public static func url() throws -> String {
        switch started {
        case .success(let url): return url
        case .failure(let error): throw error
        }
    }

    /// A fresh database on the server, for one test: its URL. Tests running in parallel
    /// each get their own.
    public static func database(_ name: String) throws -> String {
        let base = try url()
        let unique = name.lowercased().filter { $0.isLetter || $0.isNumber } + "_" + UUID().uuidString.prefix(8).lowercased()
        let psql = try run("/usr/bin/psql", [base, "-v", "ON_ERROR_STOP=1", "-q", "-c", "CREATE DATABASE \(unique)"])
        guard psql.status == 0 else { throw Unavailable(description: "CREATE DATABASE \(unique) failed: \(psql.errors)") }
        guard let slash = base.lastIndex(of: "/") else { throw Unavailable(description: "no database in \(base)") }
        return base[...slash] + unique
    }

    /// The same, awaited: the server's start (the first time) and psql are waited for on a
    /// thread of their own (`OffThePool`), not one of the runner's few.
    public static func database(_ name: String) async throws -> String {
        try await OffThePool.run { try database(name) as String }
    }

    private static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("quarry-postgres-\(ProcessInfo.processInfo.processIdentifier)").path

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/postgres").path

    private static let started: Result<String, Unavailable> = {
        do {
            // Its watcher stops it if this process dies without running `atexit`.
            let start = try run(script, ["start", folder, String(ProcessInfo.processInfo.processIdentifier)])
            guard start.status == 0, let url = start.output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgres://") else {
                return .failure(Unavailable(description: "PostgreSQL did not start (scripts/postgres start \(folder)): \(start.errors)"))
            }
            stopFolder = strdup(folder)
            stopScript = strdup(script)
            atexit {
                guard let script = stopScript, let folder = stopFolder else { return }
                _ = try? PostgresServer.run(String(cString: script), ["stop", String(cString: folder)])
            }
            return .success(url)
        } catch {
            return .failure(Unavailable(description: "PostgreSQL did not start: \(error)"))
        }
    }()

    /// What the exit handler stops (a C function pointer captures nothing).
    nonisolated(unsafe) private static var stopFolder: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var stopScript: UnsafeMutablePointer<CChar>?

    /// Runs a program to its end (`Subprocess`, not Foundation's `Process`, whose wait
    /// needs a free thread of the pool, which tests waiting for this server's start, in
    /// `started`, can all be holding).
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let ended: Subprocess.Ended
        do { ended = try Subprocess.run(executable, arguments) } catch { throw Unavailable(description: "\(error)") }
        return (ended.status, String(decoding: ended.output, as: UTF8.self), String(decoding: ended.errors, as: UTF8.self))
    }
}
