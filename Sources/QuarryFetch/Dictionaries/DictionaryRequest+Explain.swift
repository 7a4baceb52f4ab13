import QuarryStore

extension DictionaryRequest {
    /// The statement the request runs (properties, grouping, `having`, sort), its bound
    /// arguments and the database's query plan, as `FetchResults.explain` gives for objects.
    /// It is compiled again, as `execute` compiles it: the rows keep no SQL of their own.
    public func explain(in context: ObjectContext) throws -> String {
        try QueryExplanation(try compiled(in: context).query).text(in: context)
    }
}
