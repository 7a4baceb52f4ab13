import QuarryPredicates
import QuarryStore

extension ObjectContext {
    /// `updateall`: the predicate compiled to SQL, then one UPDATE.
    public func updateAll(_ entityName: String, where predicate: Predicate?, set values: [String: Value]) throws -> Int {
        try batchUpdate(entityName, where: try filter(entityName, predicate), set: values)
    }

    /// `deleteall`: the predicate compiled to SQL, then DELETEs with the delete rules.
    public func deleteAll(_ entityName: String, where predicate: Predicate?) throws -> Int {
        try batchDelete(entityName, where: try filter(entityName, predicate))
    }

    private func filter(_ entityName: String, _ predicate: Predicate?) throws -> BatchFilter? {
        guard let predicate else { return nil }
        let bound = try BoundPredicate(predicate, entity: try entity(named: entityName), context: self)
        let fragment = bound.sql()
        return BatchFilter(sql: fragment.sql, arguments: fragment.arguments)
    }
}
