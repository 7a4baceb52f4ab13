import QuarryPredicates
import QuarryStore

/// What to fetch: NSFetchRequest's entity, predicate, sort descriptors, limit, offset
/// and batch size.
public struct FetchRequest {
    public var entityName: String
    public var predicate: Predicate?
    public var sortDescriptors: [SortDescriptor]
    /// nil or 0: no limit, as Core Data.
    public var limit: Int?
    public var offset: Int
    /// How many objects one query loads.
    public var batchSize: Int

    public init(entityName: String, predicate: Predicate? = nil, sortDescriptors: [SortDescriptor] = [],
                limit: Int? = nil, offset: Int = 0, batchSize: Int = 200) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.limit = limit
        self.offset = offset
        self.batchSize = batchSize
    }
}

/// A request checked against its entity and turned into SQL pieces.
struct CompiledRequest {
    let entity: EntityDescription
    let predicate: BoundPredicate?
    let from: String
    let whereClause: SQLFragment?
    let orderBy: String
    let limit: Int?
    let offset: Int

    init(_ request: FetchRequest, context: ObjectContext) throws {
        guard request.offset >= 0 else { throw FetchError.invalid("fetch: offset must be 0 or more, got \(request.offset)") }
        if let limit = request.limit, limit < 0 { throw FetchError.invalid("fetch: limit must be 0 or more, got \(limit)") }
        let entity = try context.entity(named: request.entityName)
        self.entity = entity
        predicate = try request.predicate.map { try BoundPredicate($0, entity: entity) }
        let from = quoteIdentifier(entity.name)
        self.from = from
        whereClause = predicate?.sql()
        // The primary key breaks ties, so pages never overlap or skip rows. It runs in the
        // direction of the last key, so an index on that key serves the whole ORDER BY.
        let tieBreak = (request.sortDescriptors.last?.ascending ?? true) ? "ASC" : "DESC"
        let terms = try request.sortDescriptors.map { try $0.sql(for: entity, qualifier: entity.name) }
            + ["\(from).\(quoteIdentifier(entity.primaryKey)) \(tieBreak)"]
        orderBy = terms.joined(separator: ", ")
        limit = (request.limit ?? 0) > 0 ? request.limit : nil
        offset = request.offset
    }

    /// `SELECT <columns> FROM t [WHERE ...] ORDER BY ...` for rows `start..<start+count`
    /// of the request's window.
    func select(_ columns: String, start: Int, count: Int?) -> SQLFragment {
        var sql = "SELECT \(columns) FROM \(from)"
        var arguments: [Value] = []
        if let whereClause { sql += " WHERE " + whereClause.sql; arguments += whereClause.arguments }
        sql += " ORDER BY " + orderBy
        var take = count
        if let limit { take = min(take ?? limit, max(0, limit - start)) }
        sql += " LIMIT ? OFFSET ?"
        arguments += [.integer(Int64(take ?? -1)), .integer(Int64(offset + start))]
        return SQLFragment(sql, arguments)
    }

    /// `SELECT count(*)` of the request's window.
    func countQuery() -> SQLFragment {
        var inner = "SELECT 1 FROM \(from)"
        var arguments: [Value] = []
        if let whereClause { inner += " WHERE " + whereClause.sql; arguments += whereClause.arguments }
        if limit == nil && offset == 0 { return SQLFragment("SELECT count(*) FROM (\(inner))", arguments) }
        inner += " LIMIT ? OFFSET ?"
        arguments += [.integer(Int64(limit ?? -1)), .integer(Int64(offset))]
        return SQLFragment("SELECT count(*) FROM (\(inner))", arguments)
    }
}
