/// What SQLite's result code says that its message does not: how the `.sqlite` case
/// reads, and which code a refusal had.
extension StoreError {
    /// SQLite's message, with the cause its code points to where the words alone would
    /// leave a person guessing ("database is locked": by whom, for how long?).
    package static func sqliteMessage(_ message: String, code: SQLiteResultCode) -> String {
        switch code.primaryResultCode {
        case .SQLITE_BUSY:
            // The busy timeout (five seconds) ran out while another connection held the lock.
            return message + " (another connection held it for more than 5 seconds)"
        case .SQLITE_NOMEM where SQLiteResultCode.heapLimit > 0:
            // SQLite's "out of memory" under --memory is the bound Quarry set, not the machine's.
            return "not enough memory: SQLite's heap reached the --memory limit (\(SQLiteResultCode.heapLimit >> 20) MB)"
        case .SQLITE_IOERR where [.SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_TRUNCATE].contains(code):
            return message + " while writing (is the disk full, or the file at its size limit?)"
        default:
            return message
        }
    }

    /// SQLite's extended result code, when SQLite refused (inside `.during` too).
    public var sqliteCode: SQLiteResultCode? {
        switch self {
        case .sqlite(let code, _, _): return code
        case .constraint(let violation):
            if case .sqlite(let code) = violation.code { return code }
            return nil
        case .interrupted(let interruption): return interruption.stopped == .sqliteStatement ? .SQLITE_INTERRUPT : nil
        case .during(_, let error): return error.sqliteCode
        default: return nil
        }
    }
}
