import QuarryPredicates
import QuarryStore

extension FetchResults {
    /// The SQL that loads the objects, its bound arguments, and the database's query plan.
    public func explain() throws -> String {
        try context.explanation(of: sql())
    }
}

extension ObjectContext {
    /// `query`, its bound arguments and the database's query plan, as `explain` shows
    /// them for results and for dictionary rows alike.
    func explanation(of query: SQLFragment) throws -> String {
        var plan: [String] = []
        let explaining = sqlDialect.queryPlan(query.sql)
        try connection.forEachRow(explaining.sql, arguments: query.arguments) { row in
            if case .text(let detail) = row.value(at: explaining.detailColumn) { plan.append(detail) } else { plan.append("") }
        }
        let shown = query.arguments.map { $0.isNull ? "nil" : ($0.kindName == "string" ? "\"\($0.displayString)\"" : $0.displayString) }
        // Over a Core Data store, entities are views of its Z-tables: show what each reads.
        let tables = tablesRead(by: query.sql).map { "  \(quoteIdentifier($0.entity)) reads: \($0.sql)" }
        return
            (["SQL: " + query.sql, "arguments: [" + shown.joined(separator: ", ") + "]"]
            + (tables.isEmpty ? [] : ["Core Data tables:"] + tables)
            + ["plan:"] + plan.map { "  " + $0 }).joined(separator: "\n")
    }
}
