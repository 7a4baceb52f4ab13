import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryStore

/// Seeing data: `summarize`, `sql`, and dictionary rows printed and exported as tables.
/// The statistics and queries run in QuarryFetch; these functions only convert.
extension QuarryRuntime {
    /// The request behind a source: results (their request), an entity or its name (all of it).
    func sourceRequest(_ call: LuaCall, _ index: Int32) throws -> FetchRequest {
        if let handle = swiftObject(call.state, index, kind: .results, as: ResultsHandle.self) { return handle.results.request }
        if let handle = swiftObject(call.state, index, kind: .entity, as: EntityHandle.self) { return FetchRequest(entityName: handle.name) }
        guard call.type(index) == LUA_TSTRING else { throw call.typeError(index, expected: "results or entity name") }
        return FetchRequest(entityName: resolvedEntityName(try call.string(index)))
    }

    /// The rows `query` gives now: when a script asks, and each time a watch redraws.
    /// `noting`: say the text cells aggregates took in; a watch's redraws say nothing (the
    /// rows it watches said it when they were fetched).
    func rows(of query: RowsQuery, noting: Bool = true) throws -> DictionaryRows {
        if query.context == nil { query.context = context }
        switch query.source {
        case .dictionaries(let request):
            var days: Set<String> = []
            var textCells: [DictionaryRequest.TextCellsAggregated] = []
            let rows = try request.execute(
                in: context, admit: LuaMemoryBudget.rowAdmission(state, remedy: "give the request a limit"), dayKeys: &days,
                textCells: &textCells)
            if noting {
                noteTextCells(textCells, entity: request.base.entityName)
                noteTextDates(request.base.entityName, sorted: request.base.sortDescriptors.map(\.key), grouped: request.group)
            }
            // The rows remember their columns in the order the properties named them, so
            // they print and export as a table in that order.
            // With no rows, the properties' own names, so an empty result prints its
            // header and `(0 rows)` as an empty fetch of objects or sql() does.
            let columns = rows.first.map { $0.map(\.key) } ?? request.properties.map(DictionaryRequest.shownKey)
            // A named aggregate (`sum(t) AS revenue`) shows as its name, never dropped.
            let named = request.properties.map(DictionaryRequest.shownKey).filter(columns.contains)
            return DictionaryRows(
                columns: columns,
                rows: rows.map { row in
                    columns.map { column in row.first { $0.key == column }?.value ?? .null }
                }, shown: named.isEmpty ? nil : named, days: days)
        case .sql(let text, let arguments):
            let admit = LuaMemoryBudget.rowAdmission(state, remedy: "add a LIMIT to the query, or export() fetch results, which stream to the file")
            do {
                let rows = try ReadOnlyQuery(text, arguments: arguments).execute(in: context, admit: admit)
                if noting {
                    noteDatesInSQL(text)
                    noteDateArguments(text, arguments)
                }
                return DictionaryRows(columns: rows.columns, rows: rows.rows)
            } catch let error as StoreError where error.operation == nil {
                // SQLite's own words ("near "SELEC": syntax error") say which call failed.
                throw StoreError.during(operation: "sql", error)
            }
        }
    }

    /// Dictionary rows at `index` (a list of records), for export and charts.
    func dictionaryRows(_ call: LuaCall, _ index: Int32) -> DictionaryRows? {
        readDictionaryRows(call.state, index)
    }
}
