import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end, with its output and errors in files: `posix_spawn` and
/// `waitpid`, not Foundation's `Process`.
///
/// Why: `Process` reaps its children on a thread of its own and signals the waiter through
/// a pipe; a run of suites once hung for 19 minutes with a `swiftc` child left a zombie and
/// that thread blocked writing. Its wait also needs a free thread of the pool, which tests
/// waiting for a server's start can all be holding. Files, not pipes, hold what the child
/// writes, so nothing here has to be read while the child runs.
public enum Subprocess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public struct Ended {
        /// The exit status, or 128 + N for a death by signal N, as a shell reports it.
        public let status: Int32
        public let output: Data
        public let errors: Data
    }

    /// Runs `executable` with `arguments` in `directory` (the caller's when nil), with
    /// nothing on its standard input and an empty signal mask, as from a shell.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> Ended {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-child-\(UUID().uuidString)").path
        let outPath = base + ".out", errPath = base + ".err"
        defer { unlink(outPath); unlink(errPath) }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let directory {
            guard let addChdir else { throw Failure(description: "posix_spawn_file_actions_addchdir_np is missing (glibc 2.29+ is needed)") }
            guard addChdir(&actions, directory) == 0 else { throw Failure(description: "cannot run \(executable) in \(directory)") }
        }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which are macros Swift does not see.
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = FileManager.default.contents(atPath: outPath) ?? Data()
        let errors = FileManager.default.contents(atPath: errPath) ?? Data()
        return Ended(status: code, output: output, errors: errors)
    }

    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addchdir_np`, looked up at run time because Swift's Glibc
    /// module does not export GNU extensions.
    private static let addChdir: AddChdir? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }
}
