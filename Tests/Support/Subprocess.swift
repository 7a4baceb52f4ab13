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
    /// nothing on its standard input, to its end.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> Ended {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-child-\(UUID().uuidString)").path
        let outPath = base + ".out"
        let errPath = base + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let pid = try spawn(
            executable, arguments, environment: ProcessInfo.processInfo.environment,
            directory: directory ?? FileManager.default.currentDirectoryPath, stdin: "/dev/null", stdout: outPath, stderr: errPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which are macros Swift does not see.
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = FileManager.default.contents(atPath: outPath) ?? Data()
        let errors = FileManager.default.contents(atPath: errPath) ?? Data()
        return Ended(status: code, output: output, errors: errors)
    }

    /// Starts `executable` with the given standard streams (paths opened for the child),
    /// as from a shell: the test runner's threads block most signals, and a child would
    /// inherit that mask (quarry would never see SIGINT, a tmux server never go away), so
    /// every child starts with an empty signal mask and default signal actions.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String],
        directory: String, stdin: String, stdout: String, stderr: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard let addChdir else { throw Failure(description: "posix_spawn_file_actions_addchdir_np is missing (glibc 2.29+ is needed)") }
        guard addChdir(&actions, directory) == 0 else { throw Failure(description: "cannot set the directory \(directory)") }
        // Other threads' descriptors (a script being written, say) must not leak into the
        // child: an inherited write descriptor makes exec of that script fail with ETXTBSY.
        if let addClosefrom { _ = addClosefrom(&actions, 3) }

        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        var status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // A script written just now may still be open for writing in a child that another
        // test forked meanwhile (ETXTBSY); it closes at that child's exec, so try again.
        var attempts = 0
        while status == ETXTBSY, attempts < 50 {
            attempts += 1
            usleep(20_000)
            status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        guard status == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))") }
        return pid
    }

    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+), looked up at run time because
    /// Swift's Glibc module does not export GNU extensions.
    private static let addChdir: AddChdir? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }

    private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), when there is one.
    private static let addClosefrom: AddClosefrom? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddClosefrom.self) }
}
