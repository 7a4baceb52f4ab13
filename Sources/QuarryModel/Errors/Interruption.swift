import CQuarrySignals

/// Work stopped on purpose, by Ctrl-C or by `--timeout`, as data: one value whichever
/// stopped it (an embedded engine's progress handler, a statement a server cancelled, or
/// one of Quarry's own loops), so a caller asks `.interrupted` rather than an engine's
/// code or words. Rendered as Lua's hook says it: `interrupted!`, or the timeout's line.
public struct Interruption: Equatable, Sendable, Codable {
    public enum Reason: Equatable, Sendable, Codable {
        /// Ctrl-C (SIGINT), or a caller's request to stop.
        case interrupt
        /// The script ran past `--timeout`.
        case timeout
    }

    /// What was running when it stopped.
    public enum Stopped: Equatable, Sendable, Codable {
        /// A statement an engine in this process ran (SQLite's), stopped by its progress
        /// handler.
        case embeddedStatement
        /// A statement a server ran (PostgreSQL's), cancelled at Quarry's request.
        case serverStatement
        /// Quarry's own work between statements (an import's reading, an export's writing).
        case work
    }

    public var reason: Reason
    public var stopped: Stopped

    public init(_ reason: Reason, stopped: Stopped) {
        self.reason = reason
        self.stopped = stopped
    }

    /// The interruption of what is running now, its reason decided now, while the
    /// deadline still tells a timeout from Ctrl-C.
    public static func now(stopping stopped: Stopped) -> Interruption {
        let deadline = quarry_process_deadline()
        return Interruption(deadline > 0 && quarry_monotonic_now() >= deadline ? .timeout : .interrupt, stopped: stopped)
    }

    /// The words Lua's hook says (`CQuarryShim`'s "interrupted!" and timeout line).
    public var said: String {
        switch reason {
        case .interrupt: return "interrupted!"
        case .timeout: return "timeout: the script ran past its time limit"
        }
    }
}

extension StoreError {
    /// Quarry's own work stopped by Ctrl-C or `--timeout` (see `Interruption.now`).
    public static func stopped() -> StoreError { .interrupted(.now(stopping: .work)) }
}
