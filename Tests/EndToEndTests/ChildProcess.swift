import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts and reaps child processes with `posix_spawn`, not Foundation's `Process`.
///
/// Why: the test runner's threads block most signals, and a child started by `Process`
/// inherits that mask. quarry would then never see SIGINT (Ctrl-C) or SIGHUP, and a tmux
/// server would never go away. Every child here starts with an empty signal mask and
/// default signal actions, as it would from a shell.
enum ChildProcess {
    /// Starts `executable` with the given standard streams (paths opened for the child).
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                      directory: String, stdin: String, stdout: String, stderr: String) throws -> pid_t {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard addChdir(&actions, directory) == 0 else { throw HarnessError("cannot set the directory \(directory)") }
        // Other threads' descriptors (a script being written, say) must not leak into the
        // child: an inherited write descriptor makes exec of that script fail with ETXTBSY.
        if let addClosefrom { _ = addClosefrom(&actions, 3) }

        var none = sigset_t(), all = sigset_t()
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
        guard status == 0 else {
            throw HarnessError("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return pid
    }

    #if os(Linux)
    private typealias Actions = posix_spawn_file_actions_t
    #else
    private typealias Actions = posix_spawn_file_actions_t?
    #endif
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<Actions>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+, macOS 10.15+), looked up at run
    /// time because Swift's Glibc module does not export GNU extensions.
    private static let addChdir: AddChdir = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else {
            fatalError("posix_spawn_file_actions_addchdir_np is missing: the end-to-end tests need glibc 2.29+ or macOS 10.15+")
        }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<Actions>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), when there is one.
    private static let addClosefrom: AddClosefrom? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddClosefrom.self) }

    /// The exit status once `pid` has ended (128 + N for a death by signal N, as a shell
    /// reports it), or nil while it still runs.
    static func poll(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Waits up to `timeout` seconds without blocking a test thread; kills the process and
    /// returns nil if it is still running then.
    static func wait(_ pid: pid_t, timeout: Double) async throws -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = poll(pid) { return status }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        // A busy test run can resume this task long after the deadline: a process that
        // ended meanwhile has ended, not timed out.
        if let status = poll(pid) { return status }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return nil
    }

    /// The same, blocking: for `deinit`, where nothing can be awaited.
    static func waitBlocking(_ pid: pid_t, timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = poll(pid) { return status }
            usleep(5_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return nil
    }
}
