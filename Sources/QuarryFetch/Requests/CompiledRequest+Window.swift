import QuarryModel
import QuarryPredicates
import QuarryStore

extension CompiledRequest {
    /// The rows the request's window holds (its sort, limit and offset, sections first
    /// where it has them), as one condition on the key with no window of its own:
    /// `key IN (SELECT key ... ORDER BY ... LIMIT ? OFFSET ?)`. Statistics read these rows
    /// (`summarize`, `histogram`, a barchart's counts), so they summarise exactly the rows
    /// the results hold, and the sort and limit still run in the database. A request
    /// without a window is itself.
    var windowRows: CompiledRequest {
        guard limit != nil || offset > 0 else { return self }
        let window = select(keySQL, start: 0, count: nil)
        var rows = self
        rows.whereClause = SQLFragment("\(keySQL) IN (\(window.sql))", window.arguments)
        rows.limit = nil
        rows.offset = 0
        return rows
    }
}

extension CompiledRequest {
    /// The rows a statistic reads: those `request` matches, in no order when it has no
    /// window (sorting them would be work for nothing), else those of its window.
    static func statisticsRows(of request: FetchRequest, in context: ObjectContext) throws -> CompiledRequest {
        var request = request
        if request.limit == nil && request.offset == 0 {
            request.sortDescriptors = []
            request.sectionKey = nil
        }
        return try CompiledRequest(request, context: context).windowRows
    }
}
