import QuarryModel
import QuarryStore

/// The rows one side of a diff reads: an entity's whole relation, or what a fetch request
/// selects (its FROM clause with its joins, WHERE, and its sort and window when it has a
/// limit or offset), with the arguments bound to it.
struct DiffSource {
    var from: String
    var arguments: [Value]
    /// Columns must be named with their table's name: the FROM clause joins others.
    var qualified: Bool

    init(_ storage: EntityStorage) {
        from = storage.table
        arguments = []
        qualified = false
    }

    init(_ request: FetchRequest, in context: ObjectContext) throws {
        let compiled = try CompiledRequest(request, context: context)
        var sql = compiled.source
        var arguments: [Value] = []
        if let whereClause = compiled.whereClause {
            sql += " WHERE " + whereClause.sql
            arguments += whereClause.arguments
        }
        // A window is the first objects in the request's order; without one the order
        // is the diff's own (by key), and SQL need not sort twice.
        if compiled.limit != nil || compiled.offset != 0 {
            sql += compiled.orderClause + " LIMIT ? OFFSET ?"
            arguments += [.integer(compiled.limit.map(Int64.init) ?? CompiledRequest.noLimit), .integer(Int64(compiled.offset))]
        }
        from = sql
        self.arguments = arguments
        qualified = true
    }
}
