import QuarryStore

extension DictionaryRequest {
    /// How many rows `execute` returns (one per group, or per distinct row), counted by
    /// the database around the same statement, so `count{ ..., distinct = true }` and
    /// `count{ ..., group = {...} }` count what `#fetch{ ... }` holds without reading it.
    public func count(in context: ObjectContext) throws -> Int {
        let query = try compiled(in: context).query
        let row = try context.connection.row("SELECT count(*) FROM (\(query.sql)) AS \"counted\"", arguments: query.arguments)
        guard case .integer(let n)? = row?.first else { return 0 }
        return Int(n)
    }
}
