import QuarryEngine
import QuarryModel
import QuarryPredicates
import QuarryStore

/// The rows of an SQL query: its column names, then each row's values in that order.
public struct QueryRows {
    public var columns: [String]
    public var rows: [[Value]]
    public init(columns: [String], rows: [[Value]]) {
        self.columns = columns
        self.rows = rows
    }
}

/// One read-only SQL statement with `arguments` bound to its `?`: the escape hatch for a
/// question a predicate cannot ask yet (`sql()`).
public struct ReadOnlyQuery {
    public var sql: String
    public var arguments: [Value]

    public init(_ sql: String, arguments: [Value] = []) {
        self.sql = sql
        // A string is bound up to its first NUL, so "a\0b" matched the row 'a'; its bytes
        // are bound whole, as text another program stored is.
        self.arguments = arguments.map { $0.boundWhole }
    }

    /// Runs the statement and returns its rows. SQLite itself says whether the statement
    /// would write (sqlite3_stmt_readonly); one that would, or that returns no rows
    /// (ATTACH, BEGIN), or a second statement, is refused, and so is one that calls a
    /// function other than the engine's ordinary ones and Quarry's own
    /// (`StoreEngine.allowsCall`), before it runs.
    /// `admit` is asked, as rows arrive, whether that many rows of that many columns and
    /// bytes may be kept (it throws to stop), so a result too big for the caller's budget
    /// is refused before it is all built.
    public func execute(in context: ObjectContext, admit: RowAdmission? = nil) throws -> QueryRows {
        try prepareChecked(in: context, for: "sql") { statement in
            let columns = statement.columnNames
            var rows: [[Value]] = []
            var tally = RowTally(admit, columns: columns.count)
            try statement.forEachRow(arguments: arguments) { row in
                try tally.add(row.valueBytes)
                rows.append(row.values)
            }
            try tally.finish()
            // Two columns of one name keep a key each (`QueryColumns`).
            return QueryRows(columns: QueryColumns.uniqueNames(columns), rows: rows)
        }
    }

    /// `body` with the statement prepared and checked as `execute` says, not yet run; the
    /// one place `sql()` and `export({ sql = ... })` are checked, so both refuse alike,
    /// each refusal said by `operation` (the function called).
    func prepareChecked<T>(in context: ObjectContext, for operation: String, _ body: (any PreparedQuery) throws -> T) throws -> T {
        func refuse(_ reason: String) -> FetchError { .badOption(option: operation, reason: reason) }
        // Before anything is compiled: SQLite carries out a pragma while compiling it.
        if let reason = context.connection.engine.refusalBeforeCompiling(sql) { throw refuse(reason) }
        do {
            return try prepareReadOnly(in: context, for: operation, refuse, body)
        } catch let error as StoreError {
            guard error.engineFailure != nil else { throw error }
            // `select * from directors`: the engine's words, with the name meant.
            if let meant = suggestion(forFailure: error.message, in: context) {
                throw FetchError.unknownName(option: operation, message: error.message, suggestion: meant)
            }
            // DuckDB's QUALIFY, which SQLite's grammar lacks: the form SQLite reads (trial 33).
            if error.message.contains("syntax error"), Self.sqlWords(sql).contains(where: { $0.text.uppercased() == "QUALIFY" }) {
                throw FetchError.badOption(
                    option: operation,
                    reason: "\(error.message); QUALIFY is DuckDB's: SQLite filters a window function's value in an outer query, "
                        + "SELECT * FROM (SELECT ..., rank() OVER (...) AS r FROM t) WHERE r = 1")
            }
            // `replace(Dollars, "$", "")`: text in double quotes, which the sqlite3 shell
            // reads as a string where no column has the name, and SQL as a column's name.
            guard let quoted = Self.doubleQuotedText(named: error.message, in: sql) else { throw error }
            let literal = "'" + quoted.replacingOccurrences(of: "'", with: "''") + "'"
            throw FetchError.badOption(
                option: operation, reason: "\(error.message); text in SQL is in single quotes (\(literal)): double quotes name a column")
        }
    }

    /// The text of `"…"` in `sql` that the engine's failure names as a missing column
    /// (SQLite's `no such column: $`, PostgreSQL's `column "$" does not exist`); nil when
    /// none is.
    static func doubleQuotedText(named message: String, in sql: String) -> String? {
        var quoted: [String] = []
        var characters = sql[...]
        // Outside strings (`'` … `'`, doubled inside), each `"` … `"` (doubled inside).
        while let c = characters.popFirst() {
            guard c == "'" || c == "\"" else { continue }
            var text = ""
            while let next = characters.popFirst() {
                if next == c {
                    guard characters.first == c else { break }
                    characters.removeFirst()
                }
                text.append(next)
            }
            if c == "\"" { quoted.append(text) }
        }
        return quoted.first { text in
            message.hasSuffix("no such column: " + text) || message.contains("column \"\(text)\" does not exist")
        }
    }

    private func prepareReadOnly<T>(
        in context: ObjectContext, for operation: String, _ refuse: (String) -> FetchError, _ body: (any PreparedQuery) throws -> T
    ) throws -> T {
        try context.connection.prepareReadOnly(sql) { statement in
            guard let statement else { throw refuse("no statement to run") }
            guard !statement.isFollowedByAnother else {
                throw refuse("one statement at a time (the text holds more than one)")
            }
            let columns = statement.columnNames
            guard statement.isReadOnly, !columns.isEmpty else {
                throw refuse("only a statement that reads rows can run here; this one would write or returns nothing (save() writes)")
            }
            for name in try statement.functionsCalled()
            where !Self.predicateFunctions.contains(name) && !context.connection.engine.allowsCall(to: name) {
                throw refuse(
                    "\(name)() is not allowed here; sql() calls SQLite's ordinary functions (date, json_extract, printf, count, ...) and Quarry's own"
                )
            }
            guard statement.accepts(arguments) else {
                throw refuse("the statement's parameters do not match the \(arguments.count) argument\(arguments.count == 1 ? "" : "s") given")
            }
            return try body(statement)
        }
    }

    /// The predicate layer's functions, which `sql()` may call besides the engine's own
    /// (lower case), so SQL a predicate compiles to runs there too.
    static let predicateFunctions: Set<String> = Set(PredicateFunctions.names.map { $0.lowercased() })
}

extension Value {
    /// Text with a NUL byte as its bytes, which the engines bind with their length.
    fileprivate var boundWhole: Value {
        if case .text(let text) = self, text.utf8.contains(0) { return .textBytes(Array(text.utf8)) }
        return self
    }
}
