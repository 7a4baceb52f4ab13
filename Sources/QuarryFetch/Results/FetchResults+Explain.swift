import QuarryPredicates
import QuarryStore

extension FetchResults {
    /// The SQL that loads the objects, its bound arguments, and the database's query plan.
    public func explain() throws -> String {
        try QueryExplanation(sql()).text(in: context)
    }

    /// What `count()` runs, as `explain()` shows a fetch: the COUNT statement, its bound
    /// arguments and the database's plan; or, when unsaved changes make the results
    /// counted in memory (merged with the saved rows), one line saying so.
    public func explainCount() throws -> String {
        if try merged() != nil {
            return "counted in memory: unsaved changes to \(entity.name) are merged with the saved rows (save() to count in SQL)"
        }
        let textKeys = compiled.textSatisfiedKeys
        let sortedKeys = compiled.textSortedKeys
        let query =
            textKeys.isEmpty && sortedKeys.isEmpty
            ? compiled.countQuery() : compiled.countQuery(textCellsOf: textKeys + sortedKeys, ordered: !sortedKeys.isEmpty)
        return try QueryExplanation(query).text(in: context)
    }
}

/// What `explain` shows of a statement, for results and for dictionary rows alike: the
/// SQL, its bound arguments and the database's query plan.
struct QueryExplanation {
    let query: SQLFragment

    init(_ query: SQLFragment) { self.query = query }

    func text(in context: ObjectContext) throws -> String {
        var plan: [String] = []
        let explaining = context.sqlDialect.queryPlan(query.sql)
        try context.connection.forEachRow(explaining.sql, arguments: query.arguments) { row in
            if case .text(let detail) = row.value(at: explaining.detailColumn) { plan.append(detail) } else { plan.append("") }
        }
        let shown = query.arguments.map { $0.isNull ? "nil" : ($0.kindName == "string" ? "\"\($0.displayString)\"" : $0.displayString) }
        // Over a Core Data store, entities are views of its Z-tables: show what each reads.
        let tables = context.tablesRead(by: query.sql).map { "  \(quoteIdentifier($0.entity)) reads: \($0.sql)" }
        return
            (["SQL: " + query.sql, "arguments: [" + shown.joined(separator: ", ") + "]"]
            + (tables.isEmpty ? [] : ["Core Data tables:"] + tables)
            + ["plan:"] + plan.map { "  " + $0 }).joined(separator: "\n")
    }
}
