import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryStore

/// The Lua side of summarize(), sql() and the printing hooks: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum SeeingBindings {
    /// For the prelude only (it takes them out of `quarry` before any script runs).
    static let pagerHook: [LuaBinding] = [
        LuaBinding("__page", luaPage)
    ]

    /// The prelude's quarry.show hands what it prints to the console's pager first
    /// (true: the pager showed it).
    static func luaPage(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let text = try call.string(1)
        return call.push(runtime.console.page(text))
    }

    /// Globals, also fields of `quarry`.
    static let seeingLibrary: [LuaBinding] = [
        LuaBinding("summarize", luaSummarize),
        LuaBinding("sql", luaSql),
        LuaBinding("__rowstable", luaRowstable),
        LuaBinding("__recordorder", luaRecordorder)
    ]

    /// The prelude's repr orders a record's keys by this list (nil: by name), as a diff
    /// row's columns are ordered (`rememberRecordOrder`).
    static func luaRecordorder(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        pushRecordOrder(call.state, 1)
        return 1
    }

    static func luaSummarize(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        // Grouped rows are figures already ("got table" said nothing of what to do). A
        // table naming an entity first is fetch's options, written as for fetch{ ... }.
        if call.type(1) == LUA_TTABLE {
            let named = lua_rawgeti(call.state, 1, 1) == LUA_TSTRING ? luaString(call.state, -1) : nil
            quarry_pop(call.state, 1)
            if let named {
                let name = LuaLiteral.string(named)
                throw call.argumentError(
                    1,
                    "results or entity name expected, got a table of options: summarize(fetch{ \(name), ... }) "
                        + "summarizes what it fetches, summarize(\(name)) every row")
            }
            throw call.argumentError(
                1,
                "results or entity name expected, got rows: summarize the objects the rows were computed from "
                    + #"(summarize(fetch("Entity", "predicate")) or summarize("Entity")); barchart() and histogram() draw rows"#)
        }
        let request = try runtime.sourceRequest(call, 1)
        let options = try QuarryRuntime.summaryOptions(call, 2)
        let summaries = try runtime.summarizeShowingProgress(request, options: options)
        let columns = AttributeSummary.columns(of: summaries)
        let withText = columns != AttributeSummary.columns
        pushDictionaryRows(call.state, DictionaryRows(columns: columns, rows: summaries.map { $0.values(withText: withText) }))
        runtime.noteTextInNumbers(summaries, of: request.entityName)
        runtime.noteTextHoldingNumbers(summaries, of: request.entityName)
        runtime.noteUnsavedChangesLeftOut(of: request)
        // A column of days (a server's date, a file's text of days alone) has days for its
        // min, max and quartiles that fall on a midnight, as its objects' values are shown:
        // the same days in every zone.
        let days = (try? DayAttributes(of: runtime.context.entity(named: request.entityName)).names(in: runtime.context)) ?? []
        for (i, summary) in summaries.enumerated() where days.contains(summary.column) {
            lua_rawgeti(call.state, -1, lua_Integer(i + 1))
            let quartiles = [("q25", summary.q25), ("q50", summary.q50), ("q75", summary.q75)].compactMap { key, value -> (String, Value)? in
                guard let value, case .date(let seconds) = value, Value.dayText(seconds) != nil else { return nil }
                return (key, value)
            }
            for (key, value) in [("min", summary.min), ("max", summary.max)] + quartiles where !value.isNull {
                pushAttributeValue(call.state, value, of: nil, day: true)
                LuaTable.setField(call.state, -2, key)
            }
            quarry_pop(call.state, 1)
        }
        // Estimated statistics say so in the printed header (`distinct~`, `q50~`).
        let headers = AttributeSummary.headers(summaries)
        if headers != columns { rememberHeaders(call.state, -1, headers) }
        // And on each value that is one (`~20,113`), with a line under the table.
        let estimates = AttributeSummary.estimatedCells(summaries)
        if !estimates.isEmpty { rememberEstimates(call.state, -1, estimates) }
        rememberDigits(call.state, -1, 6)
        return 1
    }

    static func luaSql(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let text = try call.string(1)
        var arguments: [Value] = []
        if call.argumentCount >= 2 {
            for i in 2...call.argumentCount {
                guard let value = luaValue(call.state, i) else { throw call.typeError(i, expected: "string, number, boolean, date or nil") }
                arguments.append(value)
            }
        }
        let query = RowsQuery(.sql(text, arguments))
        pushDictionaryRows(call.state, try runtime.rows(of: query))
        runtime.noteUnsavedChangesOutsideSQL("sql()")
        rememberQuery(call.state, -1, query)
        return 1
    }

    /// The prelude's quarry.show prints a list of records with this (nil: not one);
    /// its print, only rows Quarry made (`__rowstable(v, true)`).
    static func luaRowstable(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        // `entities()` at the prompt: one entity a row, not every definition in one line
        // (a script's `print` keeps Lua's form of a table).
        let printing = call.type(2) == LUA_TBOOLEAN && lua_toboolean(call.state, 2) != 0
        if !printing, let entities = runtime.entityListTable(call.state, 1) { return call.push(entities) }
        if printing, !isQuarryRows(call.state, 1) { return call.pushNil() }
        guard let rows = readDictionaryRows(call.state, 1, showingDays: true) else { return call.pushNil() }
        let marked = runtime.tableFormat.mode.isData ? nil : rememberedHeaders(call.state, 1, count: rows.columns.count)
        let digits = rememberedDigits(call.state, 1)
        // A summary's date rows show their stddev (seconds in the rows) as a duration with
        // its unit in the modes people read (`.mode line` too, whose other statistics show
        // 6 digits); CSV and JSON keep the number.
        // Its dates read as a results table writes them, at the column's precision.
        let read = runtime.tableFormat.mode.showsReadCells
        var values =
            digits != nil && read
            ? AttributeSummary.datesShown(AttributeSummary.durationsShown(rows.rows, columns: rows.columns), columns: rows.columns)
            : rows.rows
        // Columns of days as their days (`DayAttributes`), in every zone.
        let days = Set(rememberedDayColumns(call.state, 1).compactMap { rows.columns.firstIndex(of: $0) })
        if !days.isEmpty, read {
            values = values.map { row in row.enumerated().map { days.contains($0.offset) ? $0.element.shownAsDay() : $0.element } }
        }
        // Any other column of dates all at midnight UTC (a CSV's days, grouped) as its
        // days, as a results table shows the same attribute.
        if read { values = MidnightColumns.shownAsDays(values, columns: Array(rows.columns.indices)) }
        // Estimates (a summary's) marked on their cells, and said under the table.
        let estimates = runtime.tableFormat.mode.isData ? [:] : rememberedEstimates(call.state, 1)
        let estimated = Set(
            estimates.flatMap { column, rowIndexes in
                rows.columns.firstIndex(of: column).map { c in rowIndexes.map { TableCell(row: $0, column: c) } } ?? []
            })
        // A summary shows every attribute: it is one row an attribute, read whole, and
        // `.maxrows` (for long results) cut the last attributes of a wide table.
        var format = runtime.tableFormat
        if digits != nil { format.maxRows = 0 }
        var table = TextTable.rows(headers: marked ?? rows.columns, values: values, format: format, estimated: estimated)
        if !estimated.isEmpty { table.footnote = AttributeSummary.estimatesFootnote(Set(estimates.keys)) }
        table.caption = rememberedCaption(call.state, 1)
        table.digits = digits
        // A summary (the rows with digits) keeps its statistics in view: its min and max,
        // samples of the values, are cut before a column is left out.
        if table.digits != nil {
            table.narrowestCap = 12
            table.wholeColumns = [0]
        }
        // Identities (diff's key) are copied, not read at a glance: never cut.
        for name in rememberedWholeColumns(call.state, 1) {
            if let i = rows.columns.firstIndex(of: name) { table.wholeColumns.insert(i) }
        }
        return call.push(table.render(format))
    }
}
