import GRDB
import GRDBSQLite

/// Rows by key read with SQLite's own calls, for loading objects a batch at a time.
/// GRDB's `Row` and `StatementArguments` cost more per row than the query itself when a
/// script walks a whole table (a key path resolved per argument, a row copy per row).
public enum RowReader {
    /// Runs `sql` (whose first parameters are `keys`, in order; any more are NULL) and
    /// returns each row's values. The statement is cached by GRDB, so each SQL text is
    /// compiled once: callers round their parameter counts to keep the texts few.
    public static func rows(_ db: Database, sql: String, keys: [Int64]) throws -> [[DatabaseValue]] {
        let statement = try db.cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, key) in keys.enumerated() { sqlite3_bind_int64(handle, Int32(i + 1), key) }
        defer { sqlite3_reset(handle) }
        let width = sqlite3_column_count(handle)
        var rows: [[DatabaseValue]] = []
        rows.reserveCapacity(keys.count)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            var values: [DatabaseValue] = []
            values.reserveCapacity(Int(width))
            for column in 0..<width { values.append(DatabaseValue(sqliteStatement: handle, index: column)) }
            rows.append(values)
        }
        return rows
    }
}
