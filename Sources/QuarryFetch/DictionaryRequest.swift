import GRDB
import QuarryPredicates
import QuarryStore

/// NSFetchRequest's dictionary result type: chosen properties and aggregates
/// (`count(*)`, `sum(x)`, `avg(x)`, `min(x)`, `max(x)`), grouped, filtered by `having`,
/// all computed by SQLite.
public struct DictionaryRequest {
    public var base: FetchRequest
    public var properties: [String]
    public var group: [String]
    /// A predicate over the result's keys (e.g. `count > 1000`).
    public var having: Predicate?
    public var distinct: Bool

    public init(base: FetchRequest, properties: [String], group: [String] = [], having: Predicate? = nil, distinct: Bool = false) {
        self.base = base; self.properties = properties; self.group = group; self.having = having; self.distinct = distinct
    }
}

/// One column of a dictionary result: the SQL that computes it and the keys it goes by.
struct ResultColumn {
    var sql: String
    /// The key as written (`avg(dep_delay)`), then a name predicates can use (`avg_dep_delay`;
    /// `count` for `count(*)`).
    var keys: [String]
    var type: AttributeType

    static let functions = ["count", "sum", "avg", "min", "max"]

    /// A property as its expression and its `AS` name, if it has one (`sum(t) AS revenue`).
    static func split(_ text: String) -> (body: String, alias: String?) {
        let spec = trimmed(text)
        let words = spec.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 3, words[1].lowercased() == "as" { return (String(words[0]), String(words[2])) }
        return (spec, nil)
    }

    /// `joins`: the request's joins, which key paths through to-one relationships join into.
    init(_ text: String, entity: EntityDescription, context: ObjectContext? = nil, joins: inout ToOneJoins) throws {
        let (body, alias) = Self.split(text)
        /// The attribute `name` reaches and its SQL: a column, or a key path through to-one
        /// relationships (`airline.name`), which Core Data's dictionary requests take too.
        func attribute(_ name: String) throws -> (AttributeDescription, String) {
            if name.contains("."), let context {
                let (steps, a) = try BoundPredicate.attributePath(name, in: entity, context: context)
                var aliases = 300
                let storage = context.mapped(entity)
                return (a, joins.column(steps, a, in: storage) ?? pathSQL(steps, a, from: storage.table, in: storage, aliases: &aliases))
            }
            guard let a = entity.attribute(named: name) else {
                throw FetchError.unknownKey(option: "properties", key: name, entity: entity.name,
                                            suggestion: closestMatch(to: name, in: entity.attributeNames))
            }
            let storage = StoreMapping.storage(of: entity, in: context)
            return (a, "\(storage.table).\(storage.column(a.name))")
        }
        if let open = body.firstIndex(of: "("), body.hasSuffix(")") {
            let function = body[..<open].lowercased()
            let argument = trimmed(String(body[body.index(after: open)..<body.index(before: body.endIndex)]))
            guard Self.functions.contains(function) else {
                throw FetchError.badOption(option: "properties", reason: "unknown function '\(function)' (use count, sum, avg, min or max)")
            }
            if argument == "*" {
                guard function == "count" else { throw FetchError.badOption(option: "properties", reason: "only count takes *") }
                sql = "count(*)"
                keys = [body, alias ?? "count"]
                type = .int64
                return
            }
            let (a, column) = try attribute(argument)
            sql = "\(function)(\(column))"
            keys = [body, alias ?? "\(function)_\(argument.replacingOccurrences(of: ".", with: "_"))"]
            switch function {
            case "count": type = .int64
            case "avg": type = .double
            case "sum": type = [.int16, .int32, .int64, .bool].contains(a.type) ? .int64 : .double
            default: type = a.type
            }
            return
        }
        let (a, column) = try attribute(body)
        sql = column
        keys = alias.map { [body, $0] } ?? [body]
        type = a.type
    }

    /// The name the column has in SQL and in `having`.
    var name: String { keys.last! }
}

extension DictionaryRequest {
    /// The key a property's column is shown and exported by: its `AS` name, else the
    /// property as written (`count(*)`, not its alias `count`).
    public static func shownKey(of property: String) -> String {
        let (body, alias) = ResultColumn.split(property)
        return alias ?? body
    }
}

extension ObjectContext {
    /// Runs a dictionary request: each row as (key, value) pairs, every key of a column
    /// carrying its value.
    /// `admit` may refuse the result as its rows arrive (see `RowAdmission`).
    public func fetchDictionaries(_ request: DictionaryRequest, admit: RowAdmission? = nil) throws -> [[(key: String, value: Value)]] {
        // Sort keys name the result's keys, so they are compiled against its shape below.
        var base = request.base
        base.sortDescriptors = []
        var compiled = try CompiledRequest(base, context: self)
        let entity = compiled.entity
        guard !request.properties.isEmpty else { throw FetchError.invalid("fetch: dictionaries need properties") }
        let columns = try request.properties.map { try ResultColumn($0, entity: entity, context: self, joins: &compiled.joins) }
        let groups = try request.group.map { try ResultColumn($0, entity: entity, context: self, joins: &compiled.joins) }
        // The result's own shape, so `having` and `sort` can name its keys.
        let shape = EntityDescription(name: entity.name, attributes: columns.map {
            AttributeDescription(name: $0.name, type: $0.type, isOptional: true)
        })

        var arguments: [Value] = []
        var inner = "SELECT " + (request.distinct ? "DISTINCT " : "")
            + columns.map { "\($0.sql) AS \(quoteIdentifier($0.name))" }.joined(separator: ", ")
            + " FROM \(compiled.source)"
        if let whereClause = compiled.whereClause { inner += " WHERE " + whereClause.sql; arguments += whereClause.arguments }
        if !groups.isEmpty { inner += " GROUP BY " + groups.map(\.sql).joined(separator: ", ") }
        var sql = "SELECT * FROM (\(inner)) AS \"q\""
        if let having = request.having {
            let bound: BoundPredicate
            do { bound = try BoundPredicate(having, entity: shape) } catch let error as PredicateError { throw error.given(as: "having") }
            let fragment = bound.sql(qualifier: "q")
            sql += " WHERE " + fragment.sql
            arguments += fragment.arguments
        }
        if !request.base.sortDescriptors.isEmpty {
            sql += " ORDER BY " + (try request.base.sortDescriptors.map { sort in
                var s = sort
                if let column = columns.first(where: { $0.keys.contains(sort.key) }) { s.key = column.name }
                return try s.sql(for: shape, qualifier: "q")
            }).joined(separator: ", ")
        }
        if compiled.limit != nil || compiled.offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [.integer(Int64(compiled.limit ?? -1)), .integer(Int64(compiled.offset))]
        }
        let width = columns.reduce(0) { $0 + $1.keys.count }
        return try read { db in
            var result: [[(key: String, value: Value)]] = []
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(StatementArguments(arguments.map(\.databaseValue)))
            var tally = RowTally(admit, columns: width)
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                try tally.add(statement.rowValueBytes)
                var pairs: [(key: String, value: Value)] = []
                for (i, column) in columns.enumerated() {
                    let value = column.type.decode(Value(row[i] as DatabaseValue))
                    for key in column.keys { pairs.append((key, value)) }
                }
                result.append(pairs)
            }
            try tally.finish()
            return result
        }
    }

    /// The object IDs a request matches, in order, without loading the objects.
    public func fetchIDs(_ request: FetchRequest) throws -> [String] {
        let results = try fetch(request)
        let compiled = results.compiled
        // With unsaved changes included (Core Data's default), the IDs are those of the
        // objects the results hold; otherwise one query of keys.
        let entity = compiled.entity
        if let merge = try results.merged() {
            // A saved row's ID is its key, unless a sub-entity's row may name its own entity.
            guard descendants(of: entity.name).isEmpty else { return try results.objects().map(\.objectID) }
            return results.pendingEntries(merge).map { entry in
                switch entry {
                case .key(let key): return "\(entity.name)/\(key)"
                case .object(let object): return object.objectID
                }
            }
        }
        let key = "\(compiled.table).\(compiled.storage.key)"
        guard !descendants(of: entity.name).isEmpty else {
            let query = compiled.select(key, start: 0, count: nil)
            return try readKeys(query.sql, arguments: query.arguments).map { "\(entity.name)/\($0)" }
        }
        // An object's ID names its own entity (a SportCar fetched as a Car is SportCar/7),
        // as the object itself gives it: the entity column names each row's.
        let query = compiled.select("\(key), \(compiled.table).\(quoteIdentifier(EntityStorage.entityColumn))", start: 0, count: nil)
        return try read { db in
            var ids: [String] = []
            var names: [DatabaseValue: String] = [:]
            let rows = try Row.fetchCursor(db, sql: query.sql, arguments: StatementArguments(query.arguments.map(\.databaseValue)))
            while let row = try rows.next() {
                let primaryKey: Int64 = try row.stored(0, table: entity.name, column: compiled.storage.keyColumn)
                let tag = row[1] as DatabaseValue
                let name = names[tag] ?? ownEntity(of: entity, tag: tag)?.name ?? entity.name
                names[tag] = name
                ids.append("\(name)/\(primaryKey)")
            }
            return ids
        }
    }
}


private func trimmed(_ s: String) -> String {
    String(s.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
}
