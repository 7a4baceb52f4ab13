/// A relation's rows as an engine's dialect reads them by their keys
/// (`SQLReads.rowsByKey`): its table and key column, quoted for SQL, and the numbers'
/// table of rows known by numbers rather than by an integer key of their own.
public struct KeyedRows: Equatable, Sendable {
    /// The table or view, qualified and quoted.
    public let table: String
    /// The key column, quoted.
    public let key: String
    /// Where the rows are known by numbers made from their key (a PostgreSQL table keyed
    /// by text, uuid or several columns): no index finds a row by its number, so the rows
    /// of given numbers are read through the session's table of numbers and keys.
    public let numbered: NumberedRows?

    public init(table: String, key: String, numbered: NumberedRows?) {
        self.table = table
        self.key = key
        self.numbered = numbered
    }

    /// `SELECT columns` of the rows whose keys are `count` placeholders: rows a key's
    /// index finds (`SQLReads.rowsByKey` where no numbers' table is needed).
    public func byKeyIndex(_ columns: String, count: Int) -> String {
        // Repeated, not joined: joining 500 one-character strings took 340,000 instructions.
        "SELECT \(columns) FROM \(table) WHERE \(key) IN (\(count > 0 ? "?" + String(repeating: ",?", count: count - 1) : ""))"
    }
}

/// Rows known by numbers made from their key columns, read through the session's table
/// of numbers and keys.
public struct NumberedRows: Equatable, Sendable {
    /// The table whose rows are numbered, qualified and quoted.
    public let table: String
    /// The number of a row of `table`, in SQL over its columns.
    public let number: String
    /// The key columns the number is made from, unquoted.
    public let keys: [String]
    /// The session's table of numbers and keys, qualified and quoted: numbers in the
    /// storage's key column, keys under their own names.
    public let numbers: String
    /// The table's own name, unquoted, as the engine's number function is told it
    /// (a clash of numbers names it); empty where the engine is not told.
    public let owner: String

    public init(table: String, number: String, keys: [String], numbers: String, owner: String = "") {
        self.table = table
        self.number = number
        self.keys = keys
        self.numbers = numbers
        self.owner = owner
    }
}
