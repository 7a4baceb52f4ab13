import QuarryModel

/// How a dialect reads rows, columns and plans: rows by their keys, whether a view's key
/// holds an integer, what a column's read converts, the statement that shows a query's
/// plan, and whether Quarry's own SQLite functions run there.
public protocol SQLReads: Sendable {
    /// `SELECT columns` of `rows` whose keys are `count` placeholders (any past the keys
    /// bound to NULL), in any order: `key IN (...)`, or through the numbers' table of rows
    /// known by numbers (`KeyedRows.numbered`).
    func rowsByKey(_ columns: String, of rows: KeyedRows, count: Int) -> String
    /// The statement that shows how the database will run `sql`, and which column of its
    /// rows holds each line of the plan.
    func queryPlan(_ sql: String) -> (sql: String, detailColumn: Int)
    /// Whether the value of `sql` (a view's key column) is an integer, for the rows that
    /// are objects: SQLite's columns take any value; a typed column holds its type or NULL.
    func holdsInteger(_ sql: String) -> String
    /// Whether the functions Quarry installs into SQLite (`quarry_summary`, ...) run in
    /// this database; where not, what needs them takes standard SQL (summarize's exact way).
    var runsQuarryFunctions: Bool { get }
    /// A query whose one integer is at least the number of rows of `table`, read without
    /// counting them (SQLite's largest rowid); nil where the dialect has none.
    func rowCountBound(of table: String) -> String?
    /// Whether a column holds only values of its declared type (a server's columns),
    /// rather than any value, as a SQLite file's may: then booleans and dates are read
    /// as stored, and `format()` declares times in number columns only.
    var columnsHoldTheirTypes: Bool { get }
    /// `column` read through `conversion` (`EntityStorage` says which a column needs).
    func converted(_ column: String, _ conversion: ColumnConversion) -> String
    /// Whether a to-many's members are better read once for all their owners (a
    /// sub-select the engine materializes and indexes) than owner by owner: false where
    /// the engine plans correlated subqueries itself (a server turns EXISTS into a join).
    var readsMembersOnce: Bool { get }
}

/// A database whose columns are typed, where Quarry's SQLite functions are not installed.
extension SQLReads {
    public func holdsInteger(_ sql: String) -> String { "\(sql) IS NOT NULL" }
    public var columnsHoldTheirTypes: Bool { true }
    /// Standard SQL's casts; a boolean or a date as stored, a number column of dates as
    /// the dialect's own date type reads it (`NumericDateScale.typed`).
    public func converted(_ column: String, _ conversion: ColumnConversion) -> String {
        switch conversion {
        case .text: return "CAST(\(column) AS TEXT)"
        case .uuidText: return "upper(CAST(\(column) AS TEXT))"
        case .number: return "CAST(\(column) AS NUMERIC)"
        case .intervalSeconds: return "EXTRACT(EPOCH FROM \(column))"
        case .dayInstant: return "CAST(\(column) AS TIMESTAMP WITH TIME ZONE)"
        case .looseBoolean: return column
        case .looseDate(let scale), .looseDatePresence(let scale): return scale?.typed?.filled(column) ?? column
        case .numbersAsDate(let scale): return scale.typed?.filled(column) ?? column
        case .numbersOnly: return column
        }
    }
    public var runsQuarryFunctions: Bool { false }
    /// Owner by owner: a server plans the correlated subqueries itself.
    public var readsMembersOnce: Bool { false }
    /// No row numbers: a bound would take a count.
    public func rowCountBound(of table: String) -> String? { nil }
}
