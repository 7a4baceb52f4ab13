import QuarryModel
import QuarryPredicates
import QuarryStore

/// NSFetchRequest's dictionary result type: chosen properties and aggregates
/// (`count(*)`, `sum(x)`, `avg(x)`, `min(x)`, `max(x)`, `count(distinct x)`) of key paths
/// or expressions (`sum(UnitPrice * Quantity) AS revenue`; see `ResultColumn`), grouped,
/// filtered by `having`, all computed by SQLite.
public struct DictionaryRequest {
    public var base: FetchRequest
    public var properties: [String]
    public var group: [String]
    /// A predicate over the result's keys (e.g. `count > 1000`); `parseHaving` reads one
    /// that names aggregates as written (`sum(Total) > 100`).
    public var having: Predicate?
    public var distinct: Bool
    /// The rows are those `base`'s window holds (its sort, limit and offset), and the
    /// result has no order or window of its own: a barchart's counts of results with a
    /// limit count the rows the results hold. False: `base`'s sort, limit and offset are
    /// the result's own.
    public var rowsOfWindow = false

    public init(
        base: FetchRequest, properties: [String], group: [String] = [], having: Predicate? = nil, distinct: Bool = false,
        rowsOfWindow: Bool = false
    ) {
        self.base = base
        self.properties = properties
        self.group = group
        self.having = having
        self.distinct = distinct
        self.rowsOfWindow = rowsOfWindow
    }
}

extension DictionaryRequest {
    /// The key a property's column is shown and exported by: its `AS` name, else the
    /// property as written (`count(*)`, not its alias `count`).
    public static func shownKey(of property: String) -> String {
        let (body, alias) = ResultColumn.split(property)
        return alias ?? body
    }
}

extension DictionaryRequest {
    /// Runs the request: each row as (key, value) pairs, every key of a column carrying
    /// its value.
    /// `admit` may refuse the result as its rows arrive (see `RowAdmission`).
    public func execute(in context: ObjectContext, admit: RowAdmission? = nil) throws -> [[(key: String, value: Value)]] {
        var days: Set<String> = []
        var textCells: [TextCellsAggregated] = []
        return try execute(in: context, admit: admit, dayKeys: &days, textCells: &textCells)
    }

    /// Runs the request as `execute` does; `dayKeys` receives the keys whose values are
    /// days (a column of days or its min or max), which Lua prints as their day;
    /// `textCells` the text cells of number columns the aggregates took in
    /// (`DictionaryRequest+TextCells`), for a note.
    public func execute(
        in context: ObjectContext, admit: RowAdmission? = nil, dayKeys: inout Set<String>, textCells: inout [TextCellsAggregated]
    ) throws -> [[(key: String, value: Value)]] {
        let (query, columns, textCounts, firstTextCount) = try compiled(in: context)
        dayKeys = Set(columns.filter(\.day).flatMap(\.keys))
        let width = columns.reduce(0) { $0 + $1.keys.count }
        var result: [[(key: String, value: Value)]] = []
        var tally = RowTally(admit, columns: width)
        var textCellCounts = [Int](repeating: 0, count: textCounts.count)
        try context.connection.forEachRow(query.sql, arguments: query.arguments) { row in
            try tally.add(row.valueBytes)
            for i in textCellCounts.indices {
                if case .integer(let n) = AttributeType.int64.decode(row.value(at: firstTextCount + i)) { textCellCounts[i] += Int(n) }
            }
            var pairs: [(key: String, value: Value)] = []
            for (i, column) in columns.enumerated() {
                let value = column.type.decode(row.value(at: i))
                for key in column.keys { pairs.append((key, value)) }
            }
            result.append(pairs)
        }
        try tally.finish()
        textCells = zip(textCounts, textCellCounts).filter { $0.1 > 0 }.map {
            TextCellsAggregated(key: $0.0.key, count: $0.1, functions: $0.0.functions)
        }
        return result
    }

    /// The statement the request runs, with its arguments, and the columns its rows
    /// carry first (the rows' values, in the properties' order): what `execute` runs and
    /// `explain` shows.
    /// `textCounts`: the counts of text cells its aggregates took in
    /// (`DictionaryRequest+TextCells`), read from the columns after `firstTextCount`.
    func compiled(
        in context: ObjectContext
    ) throws -> (query: SQLFragment, columns: [ResultColumn], textCounts: [(key: String, functions: [String], sql: String)], firstTextCount: Int) {
        let request = self
        // Sort keys name the result's keys, so they are compiled against its shape below.
        var base = request.base
        base.sortDescriptors = []
        var compiled =
            try request.rowsOfWindow ? CompiledRequest.statisticsRows(of: request.base, in: context) : CompiledRequest(base, context: context)
        let entity = compiled.entity
        guard !request.properties.isEmpty else { throw FetchError.invalid("fetch: dictionaries need properties") }
        let columns = try request.properties.map { try ResultColumn($0, entity: entity, context: context, joins: &compiled.joins) }
        // A property's AS name, which SQL's GROUP BY takes as `sort` and `having` do here
        // (`group = "cc"` with "CountryCode AS cc"), where no key of the entity has it.
        let named = Dictionary(
            zip(request.properties, columns).compactMap { text, column in ResultColumn.split(text).alias.map { ($0, column) } },
            uniquingKeysWith: { first, _ in first })
        let groups = try request.group.map { text in
            let column: ResultColumn
            do {
                if let key = try ResultColumn.toOneGroup(text, entity: entity, context: context) { return key }
                column = try ResultColumn(text, entity: entity, context: context, joins: &compiled.joins, option: "group")
            } catch let error as FetchError {
                guard case .unknownKey = error, let aliased = named[text] else { throw error }
                column = aliased
            }
            // SQLite refuses an aggregate in GROUP BY with its own words; say it in ours.
            if column.function != nil {
                throw FetchError.badOption(option: "group", reason: "'\(text)' is an aggregate; group by properties, as group = { \"carrier\" }")
            }
            return column
        }
        try Self.refuseUngrouped(request.properties, columns, group: request.group, groups: groups, entity: entity, context: context)
        let having = try request.having.map { try BoundHaving($0, columns: columns, entity: entity, context: context, joins: &compiled.joins) }
        let sort = try DictionarySort(
            request.rowsOfWindow ? [] : request.base.sortDescriptors, columns: columns + (having?.hidden ?? []), groups: groups,
            distinct: request.distinct,
            entity: entity, context: context, joins: &compiled.joins)
        // The columns and `having` may have joined more tables: their facts are looked up too.
        compiled.learnJoinFacts(in: context)
        let hidden = (having?.hidden ?? []) + sort.hidden
        let textCounts = Self.textCellCounts(columns, distinct: request.distinct, compiled: compiled)
        // An aggregate computed only for the test would fold rows that nothing groups into one.
        if let first = having?.hidden.first, groups.isEmpty, !columns.contains(where: { $0.function != nil }) {
            throw FetchError.badOption(option: "having", reason: "'\(first.keys[0])' needs group = { ... }: without it each row stands alone")
        }
        if request.distinct, let first = having?.hidden.first {
            throw FetchError.badOption(
                option: "having", reason: "with distinct, test only aggregates among the properties (add '\(first.keys[0])' to them)")
        }
        // The result's own shape, so `having` and `sort` can name its keys (the sort's own
        // columns come last, read by neither).
        let shape = EntityDescription(
            name: entity.name,
            attributes: (columns + hidden).map {
                AttributeDescription(name: $0.name, type: $0.type, isOptional: true, enumeration: $0.enumeration)
            })

        // Arguments in the order their `?`s stand: columns, WHERE, GROUP BY, having.
        var arguments: [Value] = (columns + hidden).flatMap(\.arguments)
        var inner =
            "SELECT " + (request.distinct ? "DISTINCT " : "")
            + ((columns + hidden).map { "\($0.sql) AS \(quoteIdentifier($0.name))" }
            + textCounts.enumerated().map { i, count in "\(count.sql) AS \"quarry_text_cells_\(i)\"" }).joined(separator: ", ")
            + " FROM \(compiled.source)"
        if let whereClause = compiled.whereClause {
            inner += " WHERE " + whereClause.sql
            arguments += whereClause.arguments
        }
        if !groups.isEmpty {
            inner += " GROUP BY " + groups.map(\.sql).joined(separator: ", ")
            arguments += groups.flatMap(\.arguments)
        }
        var sql = "SELECT * FROM (\(inner)) AS \"q\""
        if let having {
            let bound: BoundPredicate
            do { bound = try BoundPredicate(having.predicate, entity: shape) } catch let error as PredicateError { throw error.given(as: "having") }
            let fragment = bound.sql(qualifier: "q", dialect: context.sqlDialect)
            sql += " WHERE " + fragment.sql
            arguments += fragment.arguments
        }
        if !sort.descriptors.isEmpty {
            sql +=
                " ORDER BY "
                + (try sort.descriptors.map { try $0.sql(for: shape, qualifier: "q", dialect: context.sqlDialect) }).joined(separator: ", ")
        } else if !groups.isEmpty {
            // Groups in their keys' order, as SQLite's GROUP BY returns them; PostgreSQL
            // returns a hash's order unless asked.
            let dialect = context.sqlDialect
            let keys = groups.compactMap { group in columns.first { $0.sql == group.sql && $0.arguments.isEmpty && group.arguments.isEmpty } }
            if !keys.isEmpty {
                sql +=
                    " ORDER BY "
                    + keys.map { column in
                        let name = "\"q\".\(quoteIdentifier(column.name))"
                        let attribute = AttributeDescription(name: column.name, type: column.type, enumeration: column.enumeration)
                        return dialect.orderTerm(dialect.ordered(name, attribute), ascending: true)
                    }.joined(separator: ", ")
            }
        }
        if compiled.limit != nil || compiled.offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [.integer(compiled.limit.map(Int64.init) ?? CompiledRequest.noLimit), .integer(Int64(compiled.offset))]
        }
        return (SQLFragment(sql, arguments), columns, textCounts, columns.count + hidden.count)
    }
}
