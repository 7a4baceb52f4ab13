import QuarryFetch

extension LuaRequest {
    /// The request as dictionary rows: what `fetch{}` runs for `result = "dictionaries"`
    /// (also made so by `properties`, `group` or `having`), and what `count{}` counts then.
    var dictionaryRequest: DictionaryRequest {
        DictionaryRequest(base: request, properties: properties, group: group, having: having, distinct: distinct)
    }
}

extension QuarryRuntime {
    /// `count{ "Item", properties = { "title" }, distinct = true }` or `count{ ..., group =
    /// { "title" } }`: the rows `#fetch{ ... }` holds, one per group or distinct row,
    /// counted in SQL, where counting the objects that match would answer another question.
    func countRows(_ request: LuaRequest) throws -> Int {
        noteKeysCoreDataRefuses(request.request)
        let rows = request.dictionaryRequest
        // `.explain on`: the statement whose rows are counted, as a printed fetch's is shown.
        if explainsPrintedResults { console.write(try rows.explain(in: context) + "\n") }
        let n = try rows.count(in: context)
        noteUnsavedChangesLeftOut(of: request.request, keys: request.properties + request.group)
        return n
    }
}
