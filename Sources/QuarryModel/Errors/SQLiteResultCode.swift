/// SQLite's result code as data: the extended code SQLite gave (`primaryResultCode` is
/// its low byte, the primary one), under the names SQLite's header gives them. Kept by
/// `StoreError.sqlite` and `ConstraintViolation.EngineCode.sqlite`, so an error says what
/// SQLite said without naming the library that read it (GRDB's `ResultCode` becomes one
/// in `SQLite/DatabaseError+Store`). The codes are SQLite's stable ones (sqlite3.h); only
/// those Quarry and its callers name are listed.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code of an extended one (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`).
    public var primaryResultCode: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    public var description: String { "SQLite result code \(rawValue)" }

    /// The bound on SQLite's heap in force (`SQLiteHeap`), in bytes, 0 when none: what an
    /// out-of-memory refusal says it reached.
    nonisolated(unsafe) package static var heapLimit = 0

    private static func extended(_ primary: SQLiteResultCode, _ n: Int32) -> SQLiteResultCode {
        SQLiteResultCode(rawValue: primary.rawValue | (n << 8))
    }

    // Primary codes.
    public static let SQLITE_OK = SQLiteResultCode(rawValue: 0)
    public static let SQLITE_ERROR = SQLiteResultCode(rawValue: 1)
    public static let SQLITE_INTERNAL = SQLiteResultCode(rawValue: 2)
    public static let SQLITE_PERM = SQLiteResultCode(rawValue: 3)
    public static let SQLITE_ABORT = SQLiteResultCode(rawValue: 4)
    public static let SQLITE_BUSY = SQLiteResultCode(rawValue: 5)
    public static let SQLITE_LOCKED = SQLiteResultCode(rawValue: 6)
    public static let SQLITE_NOMEM = SQLiteResultCode(rawValue: 7)
    public static let SQLITE_READONLY = SQLiteResultCode(rawValue: 8)
    public static let SQLITE_INTERRUPT = SQLiteResultCode(rawValue: 9)
    public static let SQLITE_IOERR = SQLiteResultCode(rawValue: 10)
    public static let SQLITE_CORRUPT = SQLiteResultCode(rawValue: 11)
    public static let SQLITE_NOTFOUND = SQLiteResultCode(rawValue: 12)
    public static let SQLITE_FULL = SQLiteResultCode(rawValue: 13)
    public static let SQLITE_CANTOPEN = SQLiteResultCode(rawValue: 14)
    public static let SQLITE_PROTOCOL = SQLiteResultCode(rawValue: 15)
    public static let SQLITE_EMPTY = SQLiteResultCode(rawValue: 16)
    public static let SQLITE_SCHEMA = SQLiteResultCode(rawValue: 17)
    public static let SQLITE_TOOBIG = SQLiteResultCode(rawValue: 18)
    public static let SQLITE_CONSTRAINT = SQLiteResultCode(rawValue: 19)
    public static let SQLITE_MISMATCH = SQLiteResultCode(rawValue: 20)
    public static let SQLITE_MISUSE = SQLiteResultCode(rawValue: 21)
    public static let SQLITE_NOLFS = SQLiteResultCode(rawValue: 22)
    public static let SQLITE_AUTH = SQLiteResultCode(rawValue: 23)
    public static let SQLITE_FORMAT = SQLiteResultCode(rawValue: 24)
    public static let SQLITE_RANGE = SQLiteResultCode(rawValue: 25)
    public static let SQLITE_NOTADB = SQLiteResultCode(rawValue: 26)
    public static let SQLITE_NOTICE = SQLiteResultCode(rawValue: 27)
    public static let SQLITE_WARNING = SQLiteResultCode(rawValue: 28)
    public static let SQLITE_ROW = SQLiteResultCode(rawValue: 100)
    public static let SQLITE_DONE = SQLiteResultCode(rawValue: 101)

    // Extended codes of a failed read or write.
    public static let SQLITE_IOERR_READ = extended(.SQLITE_IOERR, 1)
    public static let SQLITE_IOERR_SHORT_READ = extended(.SQLITE_IOERR, 2)
    public static let SQLITE_IOERR_WRITE = extended(.SQLITE_IOERR, 3)
    public static let SQLITE_IOERR_FSYNC = extended(.SQLITE_IOERR, 4)
    public static let SQLITE_IOERR_TRUNCATE = extended(.SQLITE_IOERR, 6)

    // Extended codes of a constraint's refusal.
    public static let SQLITE_CONSTRAINT_CHECK = extended(.SQLITE_CONSTRAINT, 1)
    public static let SQLITE_CONSTRAINT_COMMITHOOK = extended(.SQLITE_CONSTRAINT, 2)
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = extended(.SQLITE_CONSTRAINT, 3)
    public static let SQLITE_CONSTRAINT_FUNCTION = extended(.SQLITE_CONSTRAINT, 4)
    public static let SQLITE_CONSTRAINT_NOTNULL = extended(.SQLITE_CONSTRAINT, 5)
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = extended(.SQLITE_CONSTRAINT, 6)
    public static let SQLITE_CONSTRAINT_TRIGGER = extended(.SQLITE_CONSTRAINT, 7)
    public static let SQLITE_CONSTRAINT_UNIQUE = extended(.SQLITE_CONSTRAINT, 8)
    public static let SQLITE_CONSTRAINT_VTAB = extended(.SQLITE_CONSTRAINT, 9)
    public static let SQLITE_CONSTRAINT_ROWID = extended(.SQLITE_CONSTRAINT, 10)
    public static let SQLITE_CONSTRAINT_PINNED = extended(.SQLITE_CONSTRAINT, 11)
    public static let SQLITE_CONSTRAINT_DATATYPE = extended(.SQLITE_CONSTRAINT, 12)
}
