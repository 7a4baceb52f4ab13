import QuarryModel
import QuarryPredicates
import QuarryStore

extension FetchRequest {
    /// The object IDs the request matches, in order, without loading the objects.
    public func objectIDs(in context: ObjectContext) throws -> [String] {
        let results = try execute(in: context)
        let compiled = results.compiled
        // With unsaved changes included (Core Data's default), the IDs are those of the
        // objects the results hold; otherwise one query of keys.
        let entity = compiled.entity
        // Rows named by their key (`airlines/VX`, `ObjectIDKey`): as their objects name them.
        if compiled.storage.namingKey(of: entity) != nil { return try results.objects().map(\.objectID) }
        if let merge = try results.merged() {
            // A saved row's ID is its key, unless a sub-entity's row may name its own entity.
            guard context.descendants(of: entity.name).isEmpty else { return try results.objects().map(\.objectID) }
            return results.pendingEntries(merge).map { entry in
                switch entry {
                case .key(let key): return "\(entity.name)/\(key)"
                case .object(let object): return object.objectID
                }
            }
        }
        let key = "\(compiled.table).\(compiled.storage.key)"
        guard !context.descendants(of: entity.name).isEmpty else {
            let query = compiled.select(key, start: 0, count: nil)
            return try context.connection.readKeys(query.sql, arguments: query.arguments).map { "\(entity.name)/\($0)" }
        }
        // An object's ID names its own entity (a SportCar fetched as a Car is SportCar/7),
        // as the object itself gives it: the entity column names each row's.
        let query = compiled.select("\(key), \(compiled.table).\(quoteIdentifier(EntityStorage.entityColumn))", start: 0, count: nil)
        var ids: [String] = []
        var names: [Value: String] = [:]
        try context.connection.forEachRow(query.sql, arguments: query.arguments) { row in
            let primaryKey = try row.storedInt64(at: 0, table: entity.name, column: compiled.storage.keyColumn)
            let tag = row.value(at: 1)
            let name = names[tag] ?? context.ownEntity(of: entity, tag: tag)?.name ?? entity.name
            names[tag] = name
            ids.append("\(name)/\(primaryKey)")
        }
        return ids
    }
}
