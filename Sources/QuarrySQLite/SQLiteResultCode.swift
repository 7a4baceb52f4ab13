import QuarryModel

/// SQLite's result code as data: the extended code SQLite gave (`primaryResultCode` is
/// its low byte, the primary one), under the names SQLite's header gives them. Kept by
/// `SQLiteFailure` and `ConstraintViolation.EngineCode.sqlite`, so an error says what
/// SQLite said without naming the library that read it (GRDB's `ResultCode` becomes one
/// in `DatabaseError+Store`). The codes are SQLite's stable ones (sqlite3.h); only
/// those Quarry and its callers name are listed.
package struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code of an extended one (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`).
    package var primaryResultCode: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    package var description: String { "SQLite result code \(rawValue)" }

    /// The bound on SQLite's heap in force (`SQLiteHeap`), in bytes, 0 when none: what an
    /// out-of-memory refusal says it reached. Unsafe only to the compiler: set once
    /// (`SQLiteHeap.limit`) before any connection runs a statement, then only read.
    nonisolated(unsafe) package static var heapLimit = 0

    private static func extended(_ primary: SQLiteResultCode, _ n: Int32) -> SQLiteResultCode {
        SQLiteResultCode(rawValue: primary.rawValue | (n << 8))
    }

    // Primary codes.
    package static let SQLITE_OK = SQLiteResultCode(rawValue: 0)
    package static let SQLITE_ERROR = SQLiteResultCode(rawValue: 1)
    package static let SQLITE_INTERNAL = SQLiteResultCode(rawValue: 2)
    package static let SQLITE_PERM = SQLiteResultCode(rawValue: 3)
    package static let SQLITE_ABORT = SQLiteResultCode(rawValue: 4)
    package static let SQLITE_BUSY = SQLiteResultCode(rawValue: 5)
    package static let SQLITE_LOCKED = SQLiteResultCode(rawValue: 6)
    package static let SQLITE_NOMEM = SQLiteResultCode(rawValue: 7)
    package static let SQLITE_READONLY = SQLiteResultCode(rawValue: 8)
    package static let SQLITE_INTERRUPT = SQLiteResultCode(rawValue: 9)
    package static let SQLITE_IOERR = SQLiteResultCode(rawValue: 10)
    package static let SQLITE_CORRUPT = SQLiteResultCode(rawValue: 11)
    package static let SQLITE_NOTFOUND = SQLiteResultCode(rawValue: 12)
    package static let SQLITE_FULL = SQLiteResultCode(rawValue: 13)
    package static let SQLITE_CANTOPEN = SQLiteResultCode(rawValue: 14)
    package static let SQLITE_PROTOCOL = SQLiteResultCode(rawValue: 15)
    package static let SQLITE_EMPTY = SQLiteResultCode(rawValue: 16)
    package static let SQLITE_SCHEMA = SQLiteResultCode(rawValue: 17)
    package static let SQLITE_TOOBIG = SQLiteResultCode(rawValue: 18)
    package static let SQLITE_CONSTRAINT = SQLiteResultCode(rawValue: 19)
    package static let SQLITE_MISMATCH = SQLiteResultCode(rawValue: 20)
    package static let SQLITE_MISUSE = SQLiteResultCode(rawValue: 21)
    package static let SQLITE_NOLFS = SQLiteResultCode(rawValue: 22)
    package static let SQLITE_AUTH = SQLiteResultCode(rawValue: 23)
    package static let SQLITE_FORMAT = SQLiteResultCode(rawValue: 24)
    package static let SQLITE_RANGE = SQLiteResultCode(rawValue: 25)
    package static let SQLITE_NOTADB = SQLiteResultCode(rawValue: 26)
    package static let SQLITE_NOTICE = SQLiteResultCode(rawValue: 27)
    package static let SQLITE_WARNING = SQLiteResultCode(rawValue: 28)
    package static let SQLITE_ROW = SQLiteResultCode(rawValue: 100)
    package static let SQLITE_DONE = SQLiteResultCode(rawValue: 101)

    // Extended codes of a failed read or write.
    package static let SQLITE_IOERR_READ = extended(.SQLITE_IOERR, 1)
    package static let SQLITE_IOERR_SHORT_READ = extended(.SQLITE_IOERR, 2)
    package static let SQLITE_IOERR_WRITE = extended(.SQLITE_IOERR, 3)
    package static let SQLITE_IOERR_FSYNC = extended(.SQLITE_IOERR, 4)
    package static let SQLITE_IOERR_TRUNCATE = extended(.SQLITE_IOERR, 6)

    // Extended codes of a constraint's refusal.
    package static let SQLITE_CONSTRAINT_CHECK = extended(.SQLITE_CONSTRAINT, 1)
    package static let SQLITE_CONSTRAINT_COMMITHOOK = extended(.SQLITE_CONSTRAINT, 2)
    package static let SQLITE_CONSTRAINT_FOREIGNKEY = extended(.SQLITE_CONSTRAINT, 3)
    package static let SQLITE_CONSTRAINT_FUNCTION = extended(.SQLITE_CONSTRAINT, 4)
    package static let SQLITE_CONSTRAINT_NOTNULL = extended(.SQLITE_CONSTRAINT, 5)
    package static let SQLITE_CONSTRAINT_PRIMARYKEY = extended(.SQLITE_CONSTRAINT, 6)
    package static let SQLITE_CONSTRAINT_TRIGGER = extended(.SQLITE_CONSTRAINT, 7)
    package static let SQLITE_CONSTRAINT_UNIQUE = extended(.SQLITE_CONSTRAINT, 8)
    package static let SQLITE_CONSTRAINT_VTAB = extended(.SQLITE_CONSTRAINT, 9)
    package static let SQLITE_CONSTRAINT_ROWID = extended(.SQLITE_CONSTRAINT, 10)
    package static let SQLITE_CONSTRAINT_PINNED = extended(.SQLITE_CONSTRAINT, 11)
    package static let SQLITE_CONSTRAINT_DATATYPE = extended(.SQLITE_CONSTRAINT, 12)
}
