import GRDB
import QuarryPredicates
import QuarryStore

/// The rows of an SQL query: its column names, then each row's values in that order.
public struct QueryRows {
    public var columns: [String]
    public var rows: [[Value]]
    public init(columns: [String], rows: [[Value]]) { self.columns = columns; self.rows = rows }
}

/// Whether a result of so many rows, holding so many bytes of text and blobs, may be
/// kept: asked as rows are read (every `stride` rows, and whenever `byteStride` more bytes
/// arrived, before the row that brings them is copied), and once at the end; it throws to
/// refuse.
public struct RowAdmission {
    public static let stride = 4096
    /// Bytes of text and blobs read between two asks: rows of big values are asked about
    /// every few rows, a single huge value before it is copied.
    public static let byteStride = 1 << 20
    let check: (_ rows: Int, _ columns: Int, _ bytes: Int) throws -> Void
    public init(_ check: @escaping (_ rows: Int, _ columns: Int, _ bytes: Int) throws -> Void) { self.check = check }
}

/// A result's rows and value bytes, counted as they are read, and the asks of its
/// admission (see `RowAdmission`).
struct RowTally {
    let admission: RowAdmission?
    let columns: Int
    private(set) var rows = 0
    private(set) var bytes = 0
    private var bytesAsked = 0

    init(_ admission: RowAdmission?, columns: Int) {
        self.admission = admission
        self.columns = columns
    }

    /// Counts one more row, whose text and blobs hold `rowBytes`, before it is copied.
    mutating func add(_ rowBytes: Int) throws {
        rows += 1
        bytes += rowBytes
        guard let admission, rows % RowAdmission.stride == 0 || bytes - bytesAsked >= RowAdmission.byteStride else { return }
        bytesAsked = bytes
        try admission.check(rows, columns, bytes)
    }

    func finish() throws { try admission?.check(rows, columns, bytes) }
}

extension ObjectContext {
    /// Runs one read-only SQL statement with `arguments` bound to its `?` and returns
    /// its rows: the escape hatch for a question a predicate cannot ask yet. SQLite
    /// itself says whether the statement would write (sqlite3_stmt_readonly); one that
    /// would, or that returns no rows (ATTACH, BEGIN), or a second statement, is refused,
    /// and so is one that calls a function other than SQLite's ordinary ones and
    /// Quarry's own (`SQLFunctions`), before it runs.
    /// `admit` is asked, as rows arrive, whether that many rows of that many columns and
    /// bytes may be kept (it throws to stop), so a result too big for the caller's budget
    /// is refused before it is all built.
    public func readOnlyQuery(_ sql: String, arguments: [Value], admit: RowAdmission? = nil) throws -> QueryRows {
        func refuse(_ reason: String) -> FetchError { .badOption(option: "sql", reason: reason) }
        // Before anything is compiled: SQLite carries out a pragma while compiling it.
        if let reason = SQLPragmas.refusal(in: sql) { throw refuse(reason) }
        return try read { db in
            let statements = try db.allStatements(sql: sql)
            guard let statement = try statements.next() else { throw refuse("no statement to run") }
            guard try statements.next() == nil else {
                throw refuse("one statement at a time (the text holds more than one)")
            }
            guard statement.isReadonly, statement.columnCount > 0 else {
                throw refuse("only a statement that reads rows can run here; this one would write or returns nothing (save() writes)")
            }
            for name in try SQLFunctions.called(by: statement, db) where !Self.sqlFunctions.contains(name) {
                throw refuse("\(name)() is not allowed here; sql() calls SQLite's ordinary functions (date, json_extract, printf, count, ...) and Quarry's own")
            }
            let bound = StatementArguments(arguments.map(\.databaseValue))
            do { try statement.validateArguments(bound) } catch {
                throw refuse("the statement's parameters do not match the \(arguments.count) argument\(arguments.count == 1 ? "" : "s") given")
            }
            try statement.setArguments(bound)
            let columns = statement.columnNames
            var rows: [[Value]] = []
            var tally = RowTally(admit, columns: columns.count)
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                try tally.add(statement.rowValueBytes)
                rows.append((0..<columns.count).map { Value(row[$0] as DatabaseValue) })
            }
            try tally.finish()
            return QueryRows(columns: columns, rows: rows)
        }
    }

    /// The functions `sql()` may call (lower case): SQLite's ordinary ones, the predicate
    /// layer's, and those Quarry provides for Core Data stores' views and triggers.
    static let sqlFunctions: Set<String> = SQLFunctions.ordinary
        .union(PredicateFunctions.names.map { $0.lowercased() })
        .union(CoreDataStore.sqlFunctions.map { $0.name.lowercased() })
}
