import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One child's end, as the kernel reports it: a thread of its own sits in a blocking
/// `waitpid` (no CPU until the child ends) and hands the status to whoever awaits it.
///
/// Why a thread and not the pool: a blocking call on one of the runner's few pool threads
/// (two on two cores) would stall every other test; a polling loop costs a wake-up every
/// few milliseconds for each of the many children a full run waits for at once.
final class ExitWatch: @unchecked Sendable {
    private let pid: pid_t
    private let lock = NSLock()
    /// The shell's status once reaped; nil while the child runs.
    private var ended: Int32?
    private var waiter: CheckedContinuation<Int32?, Never>?
    /// Set when `killIfRunning` killed a child that had not ended.
    private var killed = false

    init(_ pid: pid_t) {
        self.pid = pid
        let thread = Thread { [self] in reap() }
        // waitpid needs next to no stack.
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// The exit status (as `ChildProcess.poll` gives it), or nil when the child was killed
    /// by `killIfRunning` (or was not this process's to wait for).
    func status() async -> Int32? {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let ended {
                let answer = result(ended)
                lock.unlock()
                continuation.resume(returning: answer)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }

    /// Kills the child with SIGKILL unless it has been reaped already. A child that ended
    /// just before (a busy run resumes a deadline late) keeps its own status.
    func killIfRunning() {
        lock.lock()
        defer { lock.unlock() }
        guard ended == nil else { return }
        killed = true
        // Not reaped yet, so the pid is still this child's (at worst a zombie, unharmed).
        kill(pid, SIGKILL)
    }

    private func reap() {
        var raw: Int32 = 0
        var reaped = waitpid(pid, &raw, 0)
        while reaped == -1 && errno == EINTR { reaped = waitpid(pid, &raw, 0) }
        // -1: not our child (reaped elsewhere); reported as if it had been killed.
        let status = reaped == pid ? ChildProcess.shellStatus(raw) : Int32.min
        lock.lock()
        ended = status
        let continuation = waiter
        waiter = nil
        let answer = result(status)
        lock.unlock()
        continuation?.resume(returning: answer)
    }

    /// nil for a child this watch killed (or one that was not ours), else its status.
    private func result(_ status: Int32) -> Int32? {
        if status == Int32.min || (killed && status == 128 + SIGKILL) { return nil }
        return status
    }
}
