import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

extension StoreError {
    /// SQLite's refusal as data: the one place a `DatabaseError` becomes a `StoreError`.
    /// An interrupt is `.interrupted` and a constraint's refusal `.constraint`, decided
    /// here from the extended code (and the message's one shape for table and columns);
    /// any other keeps its code, statement and message for the caller.
    init(_ error: DatabaseError) {
        if error.resultCode == .SQLITE_INTERRUPT {
            // Stopped by Quarry's own progress handler: why is decided now, while the
            // deadline still tells a timeout from Ctrl-C.
            self = .interrupted(.now(stopping: .sqliteStatement))
            return
        }
        let message = error.message ?? "\(error)"
        if let violation = ConstraintViolation(sqlite: error.extendedResultCode, message: message, sql: error.sql) {
            self = .constraint(violation)
            return
        }
        self = .engine(SQLiteFailure(code: SQLiteResultCode(error.extendedResultCode), sql: error.sql, said: message))
    }
}

extension SQLiteResultCode {
    /// GRDB's code as Quarry's errors keep it.
    init(_ code: ResultCode) { self.init(rawValue: code.rawValue) }
}

extension DatabaseError {
    /// The table SQLite says it could not find while preparing (`no such table: main.T`,
    /// as `main.T` or `T`): SQLite says it only in words, so they are read here, beside
    /// the rest of what its errors are made into, and nowhere else.
    var missingTable: String? {
        guard resultCode == .SQLITE_ERROR, let message else { return nil }
        return Self.missingTable(in: message)
    }

    static func missingTable(in message: String) -> String? {
        let prefix = "no such table: "
        guard message.hasPrefix(prefix) else { return nil }
        return String(message.dropFirst(prefix.count))
    }
}
