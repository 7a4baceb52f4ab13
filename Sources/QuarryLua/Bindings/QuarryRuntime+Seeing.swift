import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryStore

/// Seeing data: `summarize`, `sql`, and dictionary rows printed and exported as tables.
/// The statistics and queries run in QuarryFetch; these functions only convert.
extension QuarryRuntime {
    func installSeeingFunctions() {
        register(Self.seeingLibrary)
        registerInQuarryTable(Self.pagerHook)
    }

    /// For the prelude only (it takes them out of `quarry` before any script runs).
    static let pagerHook: [LuaBinding] = [
        LuaBinding("__page", QuarryRuntime.luaPage),
    ]

    /// The prelude's quarry.show hands what it prints to the console's pager first
    /// (true: the pager showed it).
    func luaPage(_ call: LuaCall) throws -> Int32 {
        let text = try call.string(1)
        return call.push(console.page(text))
    }

    /// The request behind a source: results (their request), an entity or its name (all of it).
    func sourceRequest(_ call: LuaCall, _ index: Int32) throws -> FetchRequest {
        if let handle = swiftObject(call.state, index, kind: .results, as: ResultsHandle.self) { return handle.results.request }
        if let handle = swiftObject(call.state, index, kind: .entity, as: EntityHandle.self) { return FetchRequest(entityName: handle.name) }
        guard call.type(index) == LUA_TSTRING else { throw call.typeError(index, expected: "results or entity name") }
        return FetchRequest(entityName: try call.string(index))
    }

    /// The rows `query` gives now: when a script asks, and each time a watch redraws.
    func rows(of query: RowsQuery) throws -> DictionaryRows {
        switch query.source {
        case .dictionaries(let request):
            let rows = try context.fetchDictionaries(request, admit: LuaMemoryBudget.rowAdmission(state, remedy: "give the request a limit"))
            // The rows remember their columns in the order the properties named them, so
            // they print and export as a table in that order.
            let columns = rows.first.map { $0.map(\.key) } ?? []
            // A named aggregate (`sum(t) AS revenue`) shows as its name, never dropped.
            let named = request.properties.map(DictionaryRequest.shownKey).filter(columns.contains)
            return DictionaryRows(columns: columns, rows: rows.map { row in
                columns.map { column in row.first { $0.key == column }?.value ?? .null }
            }, shown: named.isEmpty ? nil : named)
        case .sql(let text, let arguments):
            let admit = LuaMemoryBudget.rowAdmission(state, remedy: "add a LIMIT to the query, or export() fetch results, which stream to the file")
            do {
                let rows = try context.readOnlyQuery(text, arguments: arguments, admit: admit)
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

    /// Globals (also fields of `quarry`), registered as lua.c registers a library: name → function.
    static let seeingLibrary: [LuaBinding] = [
        LuaBinding("summarize", QuarryRuntime.luaSummarize),
        LuaBinding("sql", QuarryRuntime.luaSql),
        LuaBinding("__rowstable", QuarryRuntime.luaRowstable),
    ]

    // MARK: Bindings

    func luaSummarize(_ call: LuaCall) throws -> Int32 {
        let request = try self.sourceRequest(call, 1)
        let options = try Self.summaryOptions(call, 2)
        let summaries = try self.summarizeShowingProgress(request, options: options)
        pushDictionaryRows(call.state, DictionaryRows(columns: AttributeSummary.columns, rows: summaries.map(\.values)))
        // Estimated statistics say so in the printed header (`distinct~`, `q50~`).
        let headers = AttributeSummary.headers(summaries)
        if headers != AttributeSummary.columns { rememberHeaders(call.state, -1, headers) }
        return 1
    }

    func luaSql(_ call: LuaCall) throws -> Int32 {
        let text = try call.string(1)
        var arguments: [Value] = []
        if call.argumentCount >= 2 {
            for i in 2...call.argumentCount {
                guard let value = luaValue(call.state, i) else { throw call.typeError(i, expected: "string, number, boolean, date or nil") }
                arguments.append(value)
            }
        }
        let query = RowsQuery(.sql(text, arguments))
        pushDictionaryRows(call.state, try self.rows(of: query))
        rememberQuery(call.state, -1, query)
        return 1
    }

    /// The prelude's quarry.show prints a list of records with this (nil: not one);
    /// its print, only rows Quarry made (`__rowstable(v, true)`).
    func luaRowstable(_ call: LuaCall) throws -> Int32 {
        if call.type(2) == LUA_TBOOLEAN, lua_toboolean(call.state, 2) != 0, !isQuarryRows(call.state, 1) { return call.pushNil() }
        guard let rows = readDictionaryRows(call.state, 1) else { return call.pushNil() }
        let marked = self.tableFormat.mode.isData ? nil : rememberedHeaders(call.state, 1, count: rows.columns.count)
        return call.push(TextTable.rows(headers: marked ?? rows.columns, values: rows.rows, format: self.tableFormat).render(self.tableFormat))
    }
}
