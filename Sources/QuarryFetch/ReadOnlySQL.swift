import GRDB
import QuarryStore

/// The rows of an SQL query: its column names, then each row's values in that order.
public struct QueryRows {
    public var columns: [String]
    public var rows: [[Value]]
    public init(columns: [String], rows: [[Value]]) { self.columns = columns; self.rows = rows }
}

/// Whether a result of so many rows may be kept: asked every `stride` rows as they are
/// read, and once at the end; it throws to refuse.
public struct RowAdmission {
    public static let stride = 4096
    let check: (_ rows: Int, _ columns: Int) throws -> Void
    public init(_ check: @escaping (_ rows: Int, _ columns: Int) throws -> Void) { self.check = check }
}

extension ObjectContext {
    /// Runs one read-only SQL statement with `arguments` bound to its `?` and returns
    /// its rows: the escape hatch for a question a predicate cannot ask yet. SQLite
    /// itself says whether the statement would write (sqlite3_stmt_readonly); one that
    /// would, or that returns no rows (ATTACH, BEGIN), or a second statement, is refused.
    /// `admit` is asked, as rows arrive, whether that many rows of that many columns may
    /// be kept (it throws to stop), so a result too big for the caller's budget is
    /// refused before it is all built.
    public func readOnlyQuery(_ sql: String, arguments: [Value], admit: RowAdmission? = nil) throws -> QueryRows {
        func refuse(_ reason: String) -> FetchError { .badOption(option: "sql", reason: reason) }
        return try read { db in
            let statements = try db.allStatements(sql: sql)
            guard let statement = try statements.next() else { throw refuse("no statement to run") }
            guard try statements.next() == nil else {
                throw refuse("one statement at a time (the text holds more than one)")
            }
            guard statement.isReadonly, statement.columnCount > 0 else {
                throw refuse("only a statement that reads rows can run here; this one would write or returns nothing (save() writes)")
            }
            let bound = StatementArguments(arguments.map(\.databaseValue))
            do { try statement.validateArguments(bound) } catch {
                throw refuse("the statement's parameters do not match the \(arguments.count) argument\(arguments.count == 1 ? "" : "s") given")
            }
            try statement.setArguments(bound)
            let columns = statement.columnNames
            var rows: [[Value]] = []
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                rows.append((0..<columns.count).map { Value(row[$0] as DatabaseValue) })
                if let admit, rows.count % RowAdmission.stride == 0 { try admit.check(rows.count, columns.count) }
            }
            try admit?.check(rows.count, columns.count)
            return QueryRows(columns: columns, rows: rows)
        }
    }
}
