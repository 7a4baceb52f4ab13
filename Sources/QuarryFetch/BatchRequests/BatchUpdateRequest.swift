import QuarryModel
import QuarryPredicates
import QuarryStore

/// `updateall`: NSBatchUpdateRequest's job. The predicate is compiled to SQL and the
/// store runs one UPDATE; objects in memory are not consulted.
public struct BatchUpdateRequest {
    public var entityName: String
    /// nil: every row of the entity.
    public var predicate: Predicate?
    public var values: [String: Value]

    public init(_ entityName: String, where predicate: Predicate?, set values: [String: Value]) {
        self.entityName = entityName
        self.predicate = predicate
        self.values = values
    }

    /// Runs the update; the number of rows it changed.
    public func execute(in context: ObjectContext) throws -> Int {
        try context.batchUpdate(entityName, where: try Self.filter(entityName, predicate, in: context), set: values)
    }

    /// A batch request's predicate as the store's WHERE clause: it stands alone, as an
    /// UPDATE or DELETE takes no joins. Shared with `BatchDeleteRequest`.
    static func filter(_ entityName: String, _ predicate: Predicate?, in context: ObjectContext) throws -> BatchFilter? {
        guard let predicate else { return nil }
        let bound = try BoundPredicate(predicate, entity: try context.entity(named: entityName), context: context)
        let fragment = bound.sql(dialect: context.sqlDialect)
        return BatchFilter(sql: fragment.sql, arguments: fragment.arguments)
    }
}
