import Foundation
import QuarryTestSupport

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
    /// Starts `executable` with the given standard streams (paths opened for the child),
    /// with an empty signal mask and default signal actions (`Subprocess.spawn`).
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String],
        directory: String, stdin: String, stdout: String, stderr: String
    ) throws -> pid_t {
        do {
            return try Subprocess.spawn(
                executable, arguments, environment: environment, directory: directory, stdin: stdin, stdout: stdout, stderr: stderr)
        } catch let failure as Subprocess.Failure {
            throw HarnessError(failure.description)
        }
    }

    /// The exit status once `pid` has ended (128 + N for a death by signal N, as a shell
    /// reports it), or nil while it still runs.
    static func poll(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return shellStatus(status)
    }

    /// Waits up to `timeout` seconds without blocking a test thread; kills the process and
    /// returns nil if it is still running then.
    ///
    /// The wait is the kernel's (`ExitWatch`: a thread of its own blocked in `waitpid`), not
    /// a poll: a full run has a hundred of these waiting at once, and polling each every few
    /// milliseconds took a share of the two cores from the processes being waited for.
    static func wait(_ pid: pid_t, timeout: Double) async throws -> Int32? {
        let watch = ExitWatch(pid)
        let deadline = Task {
            try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1_000_000_000))
            if !Task.isCancelled { watch.killIfRunning() }
        }
        let status = await watch.status()
        deadline.cancel()
        return status
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

    /// WIFSIGNALED/WTERMSIG and WEXITSTATUS, macros Swift does not see.
    static func shellStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
