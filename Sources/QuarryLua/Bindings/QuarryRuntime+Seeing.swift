import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryStore

/// Seeing data: `summarize`, `sql`, and dictionary rows printed and exported as tables.
/// The statistics and queries run in QuarryFetch; these functions only convert.
extension QuarryRuntime {
    func installSeeingFunctions() {
        defineGlobal("summarize") { [unowned self] call in
            let request = try self.sourceRequest(call, 1)
            let options = try Self.summaryOptions(call, 2)
            let summaries = try self.summarizeShowingProgress(request, options: options)
            pushDictionaryRows(call.state, DictionaryRows(columns: AttributeSummary.columns, rows: summaries.map(\.values)))
            // Estimated statistics say so in the printed header (`distinct~`, `q50~`).
            let headers = AttributeSummary.headers(summaries)
            if headers != AttributeSummary.columns { rememberHeaders(call.state, -1, headers) }
            return 1
        }
        defineGlobal("sql") { [unowned self] call in
            let text = try call.string(1)
            var arguments: [Value] = []
            if call.argumentCount >= 2 {
                for i in 2...call.argumentCount {
                    guard let value = luaValue(call.state, i) else { throw call.typeError(i, expected: "string, number, boolean, date or nil") }
                    arguments.append(value)
                }
            }
            let rows: QueryRows
            let admit = LuaMemoryBudget.rowAdmission(call.state, remedy: "add a LIMIT to the query, or export() fetch results, which stream to the file")
            do { rows = try self.context.readOnlyQuery(text, arguments: arguments, admit: admit) }
            catch let error as StoreError where error.operation == nil {
                // SQLite's own words ("near "SELEC": syntax error") say which call failed.
                throw StoreError.during(operation: "sql", error)
            }
            pushDictionaryRows(call.state, DictionaryRows(columns: rows.columns, rows: rows.rows))
            return 1
        }
        // The prelude's quarry.show hands what it prints to the shell's pager first
        // (true: the pager showed it).
        pushQuarryTable()
        pushFunction("__page") { [unowned self] call in
            let text = try call.string(1)
            return call.push(self.pager?(text) ?? false)
        }
        LuaTable.setField(state, -2, "__page")
        quarry_pop(state, 1)
        // The prelude's quarry.show prints a list of records with this (nil: not one);
        // its print, only rows Quarry made (`__rowstable(v, true)`).
        defineGlobal("__rowstable") { [unowned self] call in
            if call.type(2) == LUA_TBOOLEAN, lua_toboolean(call.state, 2) != 0, !isQuarryRows(call.state, 1) { return call.pushNil() }
            guard let rows = readDictionaryRows(call.state, 1) else { return call.pushNil() }
            let marked = self.tableFormat.mode.isData ? nil : rememberedHeaders(call.state, 1, count: rows.columns.count)
            return call.push(TextTable.rows(headers: marked ?? rows.columns, values: rows.rows, format: self.tableFormat).render(self.tableFormat))
        }
    }

    /// The request behind a source: results (their request), an entity or its name (all of it).
    func sourceRequest(_ call: LuaCall, _ index: Int32) throws -> FetchRequest {
        if let handle = swiftObject(call.state, index, kind: .results, as: ResultsHandle.self) { return handle.results.request }
        if let handle = swiftObject(call.state, index, kind: .entity, as: EntityHandle.self) { return FetchRequest(entityName: handle.name) }
        guard call.type(index) == LUA_TSTRING else { throw call.typeError(index, expected: "results or entity name") }
        return FetchRequest(entityName: try call.string(index))
    }

    /// Dictionary rows at `index` (a list of records), for export and charts.
    func dictionaryRows(_ call: LuaCall, _ index: Int32) -> DictionaryRows? {
        readDictionaryRows(call.state, index)
    }
}
