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
        // Over a Core Data store, entities are views of its Z-tables: show what each reads.
        let tables = (context.coreData?.tableSQL(readBy: query.sql) ?? []).map { "  \(quoteIdentifier($0.entity)) reads: \($0.sql)" }
        return (["SQL: " + query.sql, "arguments: [" + shown.joined(separator: ", ") + "]"]
            + (tables.isEmpty ? [] : ["Core Data tables:"] + tables)
            + ["plan:"] + plan.map { "  " + $0 }).joined(separator: "\n")
    }
}
