import QuarryModel

/// A statement SQLite refused, as data: its extended result code (`code.primaryResultCode`
/// is the primary one), the SQL when known, and SQLite's message; said with what the code
/// tells besides. The one `EngineFailure` of this target, made where GRDB's error becomes a
/// `StoreError` (`StoreError(DatabaseError)`).
package struct SQLiteFailure: EngineFailure {
    package var resultCode: SQLiteResultCode
    package var sql: String?
    /// SQLite's words, unchanged.
    package var said: String

    package init(code: SQLiteResultCode, sql: String?, said: String) {
        self.resultCode = code
        self.sql = sql
        self.said = said
    }

    package var code: String? { String(resultCode.rawValue) }

    package var isBusy: Bool { resultCode.primaryResultCode == .SQLITE_BUSY }

    // No `isConnectionLost`: a file is no connection that can be lost.

    /// SQLite's message, with the cause its code points to where the words alone would
    /// leave a person guessing ("database is locked": by whom, for how long?).
    package var message: String {
        switch resultCode.primaryResultCode {
        case .SQLITE_BUSY:
            // The busy timeout (five seconds) ran out while another connection held the lock.
            return said + " (another connection held it for more than 5 seconds)"
        case .SQLITE_NOMEM where SQLiteResultCode.heapLimit > 0:
            // SQLite's "out of memory" under --memory is the bound Quarry set, not the machine's.
            return "not enough memory: SQLite's heap reached the --memory limit (\(SQLiteResultCode.heapLimit >> 20) MB)"
        case .SQLITE_IOERR where [.SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_TRUNCATE].contains(resultCode):
            return said + " while writing (is the disk full, or the file at its size limit?)"
        case .SQLITE_ERROR where said.hasPrefix("no such collation sequence: "):
            // Anki's `unicase`, Android's `PHONEBOOK`: the application registers it on its
            // own connection; the opening note names the columns and indexes using it.
            return said
                + " (a collation the application that wrote the file registers, which SQLite does not know, nor sqlite3: "
                + ".notes names the columns and indexes that use it; group, sort and compare by other columns, "
                + "or by its rows' keys)"
        default:
            return said
        }
    }
}

extension StoreError {
    /// SQLite's refusal (`SQLiteFailure`), as tests and the Core Data layout make one.
    package static func sqlite(code: SQLiteResultCode, sql: String?, message: String) -> StoreError {
        .engine(SQLiteFailure(code: code, sql: sql, said: message))
    }

    /// SQLite's extended result code, when SQLite refused (inside `.during` too).
    package var sqliteCode: SQLiteResultCode? {
        if let failure = engineFailure as? SQLiteFailure { return failure.resultCode }
        if let violation = constraintViolation {
            guard violation.code.engine == ConstraintViolation.EngineCode.sqliteEngine, let raw = Int32(violation.code.code) else { return nil }
            return SQLiteResultCode(rawValue: raw)
        }
        if let interruption, interruption.stopped == .embeddedStatement { return .SQLITE_INTERRUPT }
        return nil
    }
}

extension ConstraintViolation.EngineCode {
    static let sqliteEngine = "SQLite"

    /// SQLite's extended result code: Quarry's words for a constraint are SQLite's own.
    package static func sqlite(_ code: SQLiteResultCode) -> Self {
        Self(engine: sqliteEngine, code: String(code.rawValue), namedInMessages: false)
    }
}

extension Interruption.Stopped {
    /// A statement SQLite ran, stopped by its progress handler.
    package static var sqliteStatement: Self { .embeddedStatement }
}
