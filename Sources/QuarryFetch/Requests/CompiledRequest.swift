import QuarryEngine
import QuarryModel
import QuarryPredicates
import QuarryStore

/// A request checked against its entity and turned into SQL pieces.
struct CompiledRequest {
    let entity: EntityDescription
    let predicate: BoundPredicate?
    /// Where the entity's rows are (the store's mapping).
    let storage: EntityStorage
    /// The SQL the store speaks.
    let dialect: any SQLDialect
    /// The entity's table as the query names it (quoted), to qualify its columns.
    let table: String
    /// The LEFT JOINs that the request's to-one key paths need, each path joined once.
    var joins: ToOneJoins
    /// The key column, qualified by the table.
    var keySQL: String { "\(table).\(storage.key)" }
    /// The FROM clause: the table and its joins.
    var source: String { table + joins.sql }
    var whereClause: SQLFragment?
    /// The part of the WHERE clause that is not the predicate: rows that can be objects,
    /// the entity's own rows when sub-entities are left out (nil: every row).
    let rowsCondition: SQLFragment?
    let orderBy: String
    var limit: Int?
    var offset: Int
    let sectionAttribute: AttributeDescription?
    /// The section key as SQL: a column, or a subquery for a key path through to-one
    /// relationships (`airline.name`), as Core Data allows.
    let sectionSQL: String?
    /// The sort as run, the section key first when Quarry put it there.
    let sort: [SortDescriptor]
    /// True when the sort did not start with the section key and Quarry put it first.
    let sortedBySectionFirst: Bool
    /// The sort keys that reach an enum attribute, with its labels: ordered by them in
    /// memory as the SQL orders them (`MemoryOrder`).
    let sortEnumerations: [String: EnumLabels]

    init(_ request: FetchRequest, context: ObjectContext) throws {
        guard request.offset >= 0 else { throw FetchError.invalid("fetch: offset must be 0 or more, got \(request.offset)") }
        if let limit = request.limit, limit < 0 { throw FetchError.invalid("fetch: limit must be 0 or more, got \(limit)") }
        let entity = try context.entity(named: request.entityName)
        self.entity = entity
        predicate = try request.predicate.map { try BoundPredicate($0, entity: entity, context: context) }
        let storage = context.mapped(entity)
        self.storage = storage
        dialect = context.sqlDialect
        let from = storage.table
        table = from
        var joins = ToOneJoins(root: from)
        var whereClause = predicate?.sql(joins: &joins, dialect: context.sqlDialect)
        var rows: [(sql: String, arguments: [Value])] = []
        if storage.needsIntegerKeyCheck {
            // A view's rows are objects only where its id column holds an integer (a view
            // has no rowid, and a LEFT JOIN may leave the column NULL); so are those of a
            // WITHOUT ROWID table, whose INTEGER PRIMARY KEY takes text too.
            let identified = context.sqlDialect.holdsInteger("\(from).\(storage.key)")
            rows.append((identified, []))
            whereClause = SQLFragment(whereClause.map { "\(identified) AND (\($0.sql))" } ?? identified, whereClause?.arguments ?? [])
        }
        if !request.includesSubentities, let own = context.ownRowsCondition(of: entity, qualifier: from) {
            // The condition comes first, so its argument does too.
            rows.insert((own.sql, [own.argument]), at: 0)
            whereClause = SQLFragment(
                whereClause.map { "\(own.sql) AND (\($0.sql))" } ?? own.sql,
                [own.argument] + (whereClause?.arguments ?? []))
        }
        self.whereClause = whereClause
        rowsCondition = rows.isEmpty ? nil : SQLFragment(rows.map(\.sql).joined(separator: " AND "), rows.flatMap(\.arguments))
        var sort = request.sortDescriptors
        if let key = request.sectionKey {
            if key.contains(".") {
                let (steps, reached, part) = try BoundPredicate.keyPathValue(key, in: entity, context: context, role: "section")
                var aliases = 200
                let column = joins.column(steps, reached, in: storage) ?? pathSQL(steps, reached, from: from, in: storage, aliases: &aliases)
                // A date's part (`time_hour.date`): sections of its values.
                sectionSQL = part.flatMap { context.sqlDialect.datePart($0, of: column) } ?? column
                // Named by the whole path, so the sort key that leads is recognised as it.
                sectionAttribute = AttributeDescription(
                    name: key, type: part?.type ?? reached.type, isOptional: true, enumeration: part == nil ? reached.enumeration : nil)
            } else {
                guard let found = entity.attribute(named: key) else {
                    if let error = FetchError.relationshipKey(key, option: "section", of: entity, context: context) { throw error }
                    throw FetchError.unknownKey(
                        option: "section", key: key, entity: entity.name,
                        suggestion: closestMatch(to: key, in: entity.attributeNames))
                }
                sectionSQL = storage.readable(from, found)
                sectionAttribute = found
            }
            // Sections must be contiguous, so the section key leads the sort (`flattened`).
            sortedBySectionFirst = sort.first?.key != key
            sort = request.flattened.sortDescriptors
        } else {
            sectionAttribute = nil
            sectionSQL = nil
            sortedBySectionFirst = false
        }
        // A table known by numbers made from its key (a PostgreSQL table keyed by text or
        // several columns) comes in its key's order, as a table keyed by an integer does:
        // its numbers are hashes, no order to show. The key's columns are attributes, so
        // results with unsaved objects order them the same way in memory.
        if let numbered = storage.numberedRows {
            let ascending = sort.last?.ascending ?? true
            for key in numbered.keys where entity.attribute(named: key) != nil && !sort.contains(where: { $0.key == key }) {
                sort.append(SortDescriptor(key: key, ascending: ascending))
            }
        }
        self.sort = sort
        var enumerations: [String: EnumLabels] = [:]
        for descriptor in sort {
            let reached =
                descriptor.key.contains(".")
                ? try BoundPredicate.keyPathValue(descriptor.key, in: entity, context: context, role: "sort")
                : entity.attribute(named: descriptor.key).map { (steps: [PathStep](), attribute: $0, part: DatePart?.none) }
            if reached?.part == nil, let enumeration = reached?.attribute.enumeration { enumerations[descriptor.key] = enumeration }
        }
        sortEnumerations = enumerations
        // The primary key breaks ties, so pages never overlap or skip rows. It runs in the
        // direction of the last key, so an index on that key serves the whole ORDER BY.
        let tieBreak = (sort.last?.ascending ?? true) ? "ASC" : "DESC"
        // Rows keyed by their places come in that order unsorted (`keyIsPlace`).
        let terms =
            try sort.map { try $0.sql(for: entity, qualifier: storage.relation, context: context, joins: &joins) }
            + (storage.keyIsPlace && sort.isEmpty ? [] : ["\(from).\(storage.key) \(tieBreak)"])
        orderBy = terms.joined(separator: ", ")
        joins.facts = UniqueValues.facts(answering: joins, in: context)
        self.joins = joins
        limit = (request.limit ?? 0) > 0 ? request.limit : nil
        offset = request.offset
        for name in request.prefetch where entity.relationship(named: name) == nil {
            throw FetchError.notARelationship(
                option: "prefetch", name: name, entity: entity.name,
                suggestion: closestMatch(to: name, in: entity.relationships.map(\.name)))
        }
    }

    /// Looks at the data for the joins added since `init` (by a dictionary request's
    /// columns), so their SQL is written knowing it too.
    mutating func learnJoinFacts(in context: ObjectContext) {
        joins.facts = UniqueValues.facts(answering: joins, in: context)
    }

    /// Forgets what the data said and looks again: after a save, a column that held each
    /// value once may repeat one.
    mutating func relearnJoinFacts(in context: ObjectContext) {
        joins.facts = ColumnFacts()
        learnJoinFacts(in: context)
    }

    /// ` ORDER BY ...`, or nothing for rows that come in their order (`keyIsPlace`).
    var orderClause: String { orderBy.isEmpty ? "" : " ORDER BY " + orderBy }

    /// The LIMIT that takes every row in SQLite and PostgreSQL alike (SQLite's -1 is an
    /// error in PostgreSQL, whose NULL is one in SQLite).
    static let noLimit = Int64.max

    /// True when the request takes a table's rows unfiltered, in key order.
    var takesRowsInKeyOrder: Bool { whereClause == nil && sort.isEmpty && joins.isEmpty && !storage.needsIntegerKeyCheck }

    /// `SELECT <columns> FROM t [WHERE ...] ORDER BY ...` for rows `start..<start+count`
    /// of the request's window.
    func select(_ columns: String, start: Int, count: Int?) -> SQLFragment {
        var sql = "SELECT \(columns) FROM \(source)"
        var arguments: [Value] = []
        if let whereClause {
            sql += " WHERE " + whereClause.sql
            arguments += whereClause.arguments
        }
        sql += orderClause
        var take = count
        if let limit { take = min(take ?? limit, max(0, limit - start)) }
        sql += " LIMIT ? OFFSET ?"
        let (skip, overflow) = offset.addingReportingOverflow(start)
        arguments += [.integer(take.map(Int64.init) ?? Self.noLimit), .integer(overflow ? Int64.max : Int64(skip))]
        return SQLFragment(sql, arguments)
    }

    /// Every matching row in order, without the window (for results with unsaved changes).
    func selectAll(_ columns: String) -> SQLFragment {
        var sql = "SELECT \(columns) FROM \(source)"
        var arguments: [Value] = []
        if let whereClause {
            sql += " WHERE " + whereClause.sql
            arguments += whereClause.arguments
        }
        return SQLFragment(sql + orderClause, arguments)
    }

    /// Every row of the entity the request may fetch, whatever the predicate: the entity's
    /// own rows when sub-entities are left out, and only rows that can be objects.
    func selectEveryRow(_ columns: String) -> SQLFragment {
        guard let rowsCondition else { return SQLFragment("SELECT \(columns) FROM \(table)", []) }
        return SQLFragment("SELECT \(columns) FROM \(table) WHERE \(rowsCondition.sql)", rowsCondition.arguments)
    }

    /// `SELECT count(*)` of the request's window; each of `also` is a column the inner
    /// rows select (`expression AS "name"`) and a count the outer select adds
    /// (`CompiledRequest+TextCells`). `ordered`: a limited window is the sorted one, so
    /// `also` counts the rows the fetch shows (a plain count needs no order).
    func countQuery(also: [(expression: String, count: String)] = [], ordered: Bool = false) -> SQLFragment {
        if also.isEmpty, whereClause == nil, joins.isEmpty, limit == nil, offset == 0, let rows = storage.rowsWithoutColumns {
            // Every row: counted where the view reads them, without making or preparing it.
            return SQLFragment("SELECT count(*) FROM \(rows)", [])
        }
        let selected = ([("1", "")] + also).map(\.0).joined(separator: ", ")
        let counted = (["count(*)"] + also.map(\.count)).joined(separator: ", ")
        var inner = "SELECT \(selected) FROM \(source)"
        var arguments: [Value] = []
        if let whereClause {
            inner += " WHERE " + whereClause.sql
            arguments += whereClause.arguments
        }
        if limit == nil && offset == 0 { return SQLFragment("SELECT \(counted) FROM (\(inner)) AS \"q\"", arguments) }
        if ordered { inner += orderClause }
        inner += " LIMIT ? OFFSET ?"
        arguments += [.integer(limit.map(Int64.init) ?? Self.noLimit), .integer(Int64(offset))]
        return SQLFragment("SELECT \(counted) FROM (\(inner)) AS \"q\"", arguments)
    }
}
