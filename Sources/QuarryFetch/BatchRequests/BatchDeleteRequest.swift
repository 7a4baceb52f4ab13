import QuarryPredicates
import QuarryStore

/// `deleteall`: NSBatchDeleteRequest's job. The predicate is compiled to SQL and the store
/// runs the DELETEs, following the delete rules.
public struct BatchDeleteRequest {
    public var entityName: String
    /// nil: every row of the entity.
    public var predicate: Predicate?

    public init(_ entityName: String, where predicate: Predicate?) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// Runs the delete; the number of objects it deleted.
    public func execute(in context: ObjectContext) throws -> Int {
        try context.batchDelete(entityName, where: try BatchUpdateRequest.filter(entityName, predicate, in: context))
    }

    /// Runs the delete; the objects it deleted, and the rows the delete rules cascaded to.
    public func executeReporting(in context: ObjectContext) throws -> ObjectContext.BatchDeleted {
        try context.batchDeleteRows(entityName, where: try BatchUpdateRequest.filter(entityName, predicate, in: context))
    }
}
