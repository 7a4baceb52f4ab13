import GRDB
import QuarryPredicates
import QuarryStore

extension FetchResults {
    /// The SQL that loads the objects, its bound arguments, and SQLite's query plan.
    public func explain() throws -> String {
        let query = sql()
        let arguments = StatementArguments(query.arguments.map(\.databaseValue))
        let plan = try context.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query.sql, arguments: arguments)
                .map { row -> String in row["detail"] ?? "" }
        }
        let shown = query.arguments.map { $0.isNull ? "nil" : ($0.kindName == "string" ? "\"\($0.displayString)\"" : $0.displayString) }
        return (["SQL: " + query.sql, "arguments: [" + shown.joined(separator: ", ") + "]", "plan:"]
            + plan.map { "  " + $0 }).joined(separator: "\n")
    }
}
