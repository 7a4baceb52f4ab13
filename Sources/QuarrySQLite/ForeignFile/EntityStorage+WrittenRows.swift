import QuarryModel
import QuarryStore

/// Where SQLite writes an entity's rows. A table without a rowid is read through its
/// temporary view, which adds each row's number (`ForeignSchemaReader+KeyedTables`); a
/// SQLite view takes no writes of its own, so its rows are written to the file's table,
/// found by their number (`KeyNumber`) or, for one object, by the key it was saved with,
/// which the table's primary key index finds. Every other entity's rows are written where
/// they are read.
extension EntityStorage {
    /// The relation written, quoted for SQL (the file's table, `main.`, for a table
    /// without a rowid).
    var writtenTable: String { numberedRows?.table ?? table }

    /// A row's key as SQL over `writtenTable`: the key column, or the number made from
    /// the row's key.
    var writtenKey: String { numberedRows?.number ?? key }

    /// The condition finding `object`'s row, whose key is `key`, in `writtenTable`, with
    /// its values: its key as saved as well as its number where its rows are numbered.
    func writtenRow(of object: ManagedObject, key: Value) -> (sql: String, values: [Value]) {
        // Integers and text only: a value a column keeps in a format of its own (a date
        // as text) would find no row, the number alone finds it.
        guard let numbered = numberedRows, let saved = savedKey(of: object),
            saved.allSatisfy({ if case .integer = $0 { return true } else if case .text = $0 { return true } else { return false } })
        else { return ("\(writtenKey) = ?", [key]) }
        return ((numbered.keys.map { "\(quoteIdentifier($0)) = ?" } + ["\(numbered.number) = ?"]).joined(separator: " AND "), saved + [key])
    }
}
