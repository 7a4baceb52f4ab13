import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

extension SQLiteCursor {
    /// The bytes of the text and blob values of the row the statement is on, read without
    /// copying or converting a value (numbers and NULLs count none: they take no more than
    /// their slot).
    package var valueBytes: Int {
        var total = 0
        for column in 0..<Int32(columnCount) {
            let type = sqlite3_column_type(handle, column)
            // Only for text and blobs: asked of a number, SQLite would convert it to text.
            guard type == SQLITE_TEXT || type == SQLITE_BLOB else { continue }
            total += Int(sqlite3_column_bytes(handle, column))
        }
        return total
    }
}
