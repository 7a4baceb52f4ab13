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

    /// Runs a program to its end, its output and errors in files: posix_spawn and waitpid,
    /// not Foundation's Process, whose wait needs a free thread of the pool, which tests
    /// waiting for this server's start (in `started`) can all be holding.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-postgres-\(UUID().uuidString)").path
        let outPath = base + ".out", errPath = base + ".err"
        defer { unlink(outPath); unlink(errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Unavailable(description: "cannot run \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which are macros Swift does not see.
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (code, output, errors)
    }
}
