import QuarryModel
import QuarryPredicates
import QuarryStore

/// A dictionary request's sort keys. SQL sorts by columns it does not select, and so does
/// a dictionary request (issue 60, item 6: `properties = { "title", "visit_count" }, sort
/// = { "-visit_count", "id" }` was refused): a key that is no property is computed beside
/// them, unread. Where the rows are groups (`group`, aggregates) or told apart by the
/// properties alone (`distinct`), a key that is not a value of the row is meaningless, and
/// refused saying why.
struct DictionarySort {
    /// The descriptors, each naming a column of the result's shape.
    var descriptors: [SortDescriptor] = []
    /// The columns computed for sort keys no property or `having` column gives.
    var hidden: [ResultColumn] = []

    init(
        _ sorts: [SortDescriptor], columns: [ResultColumn], groups: [ResultColumn], distinct: Bool,
        entity: EntityDescription, context: ObjectContext, joins: inout ToOneJoins
    ) throws {
        let aggregated = columns.contains { $0.function != nil }
        for sort in sorts {
            var s = sort
            let canonical = ResultColumn.canonical(sort.key)
            if let column = (columns + hidden).first(where: {
                $0.keys.contains(sort.key) || (canonical != nil && $0.canonical == canonical)
            }) {
                s.key = column.name
                descriptors.append(s)
                continue
            }
            if let written = ResultColumn.aggregateAsProperty(sort.key) {
                throw FetchError.badOption(option: "sort", reason: Self.keyPathAggregate(sort, written, columns: columns))
            }
            var column = try ResultColumn(sort.key, entity: entity, context: context, joins: &joins, option: "sort")
            if let why = Self.refusal(column, sort.key, groups: groups, aggregated: aggregated, distinct: distinct) {
                throw FetchError.badOption(option: "sort", reason: why)
            }
            column.keys = [sort.key, "quarry_sort_\(hidden.count + 1)"]
            hidden.append(column)
            s.key = column.name
            descriptors.append(s)
        }
    }

    /// The refusal of `@sum.amount` as a sort key, naming the form that sorts by it: the
    /// `AS` name of a property that computes it (`sort = "-total"`), else the function.
    private static func keyPathAggregate(_ sort: SortDescriptor, _ written: String, columns: [ResultColumn]) -> String {
        let sign = sort.ascending ? "" : "-"
        let canonical = ResultColumn.canonical(written)
        // Only an `AS` name: a column's only key, and no aggregate as written.
        let aliased = columns.first { column in
            canonical != nil && column.canonical == canonical && column.keys.count == 1 && ResultColumn.canonical(column.keys[0]) == nil
        }
        let named = aliased?.keys[0]
        let form = named.map { "sort = \"\(sign)\($0)\" (or \"\(sign)\(written)\")" } ?? "sort = \"\(sign)\(written)\""
        return "'\(sign)\(sort.key)' is an aggregate written as NSExpression's key path; "
            + "grouped rows sort by an aggregate as properties write it: \(form)"
    }

    /// Why `column`, which no property gives, cannot order these rows; nil when it can.
    private static func refusal(_ column: ResultColumn, _ key: String, groups: [ResultColumn], aggregated: Bool, distinct: Bool) -> String? {
        if distinct {
            return "'\(key)' is not among the properties, and with distinct the rows are told apart by the properties alone; "
                + "sort by one of them, or add '\(key)' to them"
        }
        let grouped = groups.contains { $0.sql == column.sql && $0.arguments == column.arguments }
        if column.function != nil {
            if groups.isEmpty && !aggregated {
                return "'\(key)' is an aggregate, which needs group = { ... }: without it each row stands alone"
            }
            return nil
        }
        if !groups.isEmpty && !grouped {
            return "'\(key)' is neither grouped nor an aggregate: each row is a group holding many values of it; "
                + "add it to group, or sort by an aggregate of it, as max(\(key))"
        }
        if groups.isEmpty && aggregated {
            return "'\(key)' is no aggregate, and the result is one row of aggregates over all the rows; sort by an aggregate"
        }
        return nil
    }
}
