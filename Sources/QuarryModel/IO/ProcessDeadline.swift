import CQuarrySignals

/// `--timeout` before a Lua state exists: the run's one clock starts before `--model` is
/// read and the store opened, so a model that takes long to read or define is stopped as
/// a script would be (SQLite's progress handler and the model readers look at it).
public enum ProcessDeadline {
    /// Starts the clock: work asked to stop `seconds` from now (none when 0). Returns the
    /// moment, for `remaining(until:)`.
    @discardableResult
    public static func start(seconds: Double) -> Double {
        guard seconds > 0 else { return 0 }
        let deadline = quarry_monotonic_now() + seconds
        quarry_set_process_deadline(deadline)
        return deadline
    }

    /// The seconds left until `deadline` (from `start`), never 0 while there is one (0
    /// would mean no limit): a run already past it stops at its first check.
    public static func remaining(until deadline: Double) -> Double {
        guard deadline > 0 else { return 0 }
        return max(deadline - quarry_monotonic_now(), 0.001)
    }

    /// `body`, with `activity` named by the line a hard stop writes should the time limit
    /// end the process inside it ("defining big.xcdatamodel"): a timeout says what it
    /// stopped, however late the work began on a loaded machine.
    public static func during<T>(_ activity: String, _ body: () throws -> T) rethrows -> T {
        quarry_set_activity(activity)
        defer { quarry_set_activity(nil) }
        return try body()
    }
}
