import GRDB

/// What SQLite's result code says that its message does not: how the `.sqlite` case
/// reads, and how a caller asks whether an error came from the database at all.
extension StoreError {
    /// SQLite's message, with the cause its code points to where the words alone would
    /// leave a person guessing ("database is locked": by whom, for how long?).
    static func sqliteMessage(_ message: String, code: ResultCode) -> String {
        switch code.primaryResultCode {
        case .SQLITE_BUSY:
            // The busy timeout (five seconds) ran out while another connection held the lock.
            return message + " (another connection held it for more than 5 seconds)"
        case .SQLITE_NOMEM where SQLiteHeap.bytes > 0:
            // SQLite's "out of memory" under --memory is the bound Quarry set, not the machine's.
            return "not enough memory: SQLite's heap reached the --memory limit (\(SQLiteHeap.bytes >> 20) MB)"
        case .SQLITE_IOERR where [.SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_TRUNCATE].contains(code):
            return message + " while writing (is the disk full, or the file at its size limit?)"
        default:
            return message
        }
    }

    /// The database's own failure (SQLite's, or Quarry's words about the store's file),
    /// which names no operation: the caller that knows which one says it (`.during`).
    public var isDatabaseFailure: Bool {
        switch self {
        // An interrupt too: it has always been said inside the operation it stopped.
        case .database, .sqlite, .postgres, .constraint, .interrupted: return true
        default: return false
        }
    }

    /// The constraint a write broke, on either engine (inside `.during` too).
    public var constraintViolation: ConstraintViolation? {
        switch self {
        case let .constraint(violation): return violation
        case let .during(_, error): return error.constraintViolation
        default: return nil
        }
    }

    /// Why work stopped, when Ctrl-C or `--timeout` stopped it (inside `.during` too).
    public var interruption: Interruption? {
        switch self {
        case let .interrupted(interruption): return interruption
        case let .during(_, error): return error.interruption
        default: return nil
        }
    }

    /// SQLite's extended result code, when SQLite refused (inside `.during` too).
    public var sqliteCode: ResultCode? {
        switch self {
        case let .sqlite(code, _, _): return code
        case let .constraint(violation):
            if case let .sqlite(code) = violation.code { return code }
            return nil
        case let .interrupted(interruption): return interruption.stopped == .sqliteStatement ? .SQLITE_INTERRUPT : nil
        case let .during(_, error): return error.sqliteCode
        default: return nil
        }
    }

    /// The statement SQLite refused, when it is known (inside `.during` too).
    public var sql: String? {
        switch self {
        case let .sqlite(_, sql, _), let .postgres(_, sql, _): return sql
        case let .constraint(violation): return violation.sql
        case let .during(_, error): return error.sql
        default: return nil
        }
    }
}
