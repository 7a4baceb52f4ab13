import GRDB

/// A file's foreign key that SQLite cannot check: one naming parent columns that are not
/// unique, or not there (an IMDb sample's `actors(id) REFERENCES casting(actor_id)`). With
/// keys checked, SQLite refuses every write to either table ("foreign key mismatch"),
/// where the sqlite3 shell, which leaves keys unchecked, writes. The opening notes say the
/// key is read as columns; Quarry's writes to such a file are then made as sqlite3 makes
/// them. The relationships Quarry did read keep their delete rules, which the context
/// applies either way.
extension DatabaseWriter {
    /// `body` in a write transaction; where SQLite refused it for such a key, run again
    /// from the start in a new transaction with the connection's keys unchecked, and
    /// checked again after it. `keysChecked` tells `body` which run it is.
    func writeUncheckingKeysSQLiteCannotCheck<T>(_ body: (Database, _ keysChecked: Bool) throws -> T) throws -> T {
        do {
            return try write { db in try body(db, true) }
        } catch let error as DatabaseError where error.message?.hasPrefix("foreign key mismatch") == true {
            return try writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                var value: T?
                try db.inTransaction {
                    value = try body(db, false)
                    return .commit
                }
                guard let value else { throw error }
                return value
            }
        }
    }
}
