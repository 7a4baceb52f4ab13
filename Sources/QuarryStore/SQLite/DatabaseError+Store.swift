import CQuarrySignals
import GRDB

extension StoreError {
    /// SQLite's refusal as data: its extended code, the statement and its message, all
    /// kept for the caller (the words and the hints are `.sqlite`'s rendering).
    init(_ error: DatabaseError) {
        if error.resultCode == .SQLITE_INTERRUPT {
            // Stopped by Quarry's own progress handler: say why, as the Lua hook does,
            // decided now, while the deadline still tells a timeout from Ctrl-C.
            let deadline = quarry_process_deadline()
            self = .sqlite(code: error.extendedResultCode, sql: error.sql, message: deadline > 0 && quarry_monotonic_now() >= deadline
                ? "timeout: the script ran past its time limit" : "interrupted!")
            return
        }
        self = .sqlite(code: error.extendedResultCode, sql: error.sql, message: error.message ?? "\(error)")
    }
}
