import QuarryModel

/// How a dialect reads rows and plans: rows by their keys, whether a view's key holds an
/// integer, the statement that shows a query's plan, and whether Quarry's own SQLite
/// functions run there.
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
}

/// A database whose columns are typed, where Quarry's SQLite functions are not installed.
extension SQLReads {
    public func holdsInteger(_ sql: String) -> String { "\(sql) IS NOT NULL" }
    public var runsQuarryFunctions: Bool { false }
    /// No row numbers: a bound would take a count.
    public func rowCountBound(of table: String) -> String? { nil }
}
