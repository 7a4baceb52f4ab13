import CQuarrySignals
import GRDB

extension StoreError {
    init(_ error: DatabaseError) {
        if error.resultCode == .SQLITE_INTERRUPT {
            // Stopped by Quarry's own progress handler: say why, as the Lua hook does.
            let deadline = quarry_process_deadline()
            self = .database(message: deadline > 0 && quarry_monotonic_now() >= deadline
                ? "timeout: the script ran past its time limit" : "interrupted!")
            return
        }
        let message = error.message ?? "\(error)"
        switch error.resultCode {
        case .SQLITE_BUSY:
            // The busy timeout (five seconds) ran out while another connection held the lock.
            self = .database(message: message + " (another connection held it for more than 5 seconds)")
        case .SQLITE_IOERR where [.SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_TRUNCATE].contains(error.extendedResultCode):
            self = .database(message: message + " while writing (is the disk full, or the file at its size limit?)")
        default:
            self = .database(message: message)
        }
    }
}
