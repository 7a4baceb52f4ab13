import GRDBSQLite

extension Statement {
    /// The bytes of the text and blob values of the row the statement is on, read without
    /// copying or converting a value (numbers and NULLs count none: they take no more than
    /// their slot): what keeping the row will cost, known before it is copied, so a
    /// caller with a budget can refuse a row of a gigabyte before it holds it.
    var valueBytes: Int {
        var total = 0
        for column in 0..<Int32(columnCount) {
            let type = self.type(column)
            // Only for text and blobs: asked of a number, SQLite would convert it to text.
            guard type == SQLITE_TEXT || type == SQLITE_BLOB else { continue }
            if let handle { total += Int(sqlite3_column_bytes(handle, column)) } else { total += text(column).count }
        }
        return total
    }
}
