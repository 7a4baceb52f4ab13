import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryStore

/// `histogram`, `barchart` and `linechart`: counts come from SQLite (QuarryFetch), the
/// drawing from QuarryFormat; each returns the chart as a string for the REPL to print.
extension QuarryRuntime {
    /// Charts fit the terminal (80 columns when there is none).
    var chartStyle: ChartStyle {
        ChartStyle(width: tableFormat.width > 0 ? tableFormat.width : 80)
    }

    /// Dictionary rows at 1 and the indexes of the columns named at 2 and 3; for results
    /// (or an entity or its name) at 1, the two keys of each of its objects, read in the
    /// store as `fetch{ ..., properties = { key2, key3 } }` reads them, in its order.
    func chartRows(_ call: LuaCall, _ function: String) throws -> (DictionaryRows, Int, Int) {
        // No options today: a table given anyway is refused, not ignored.
        if call.argumentCount > 3, !call.isNoneOrNil(4) { throw call.argumentError(4, "\(function) takes no options") }
        if call.type(1) == LUA_TUSERDATA || call.type(1) == LUA_TSTRING {
            // Sectioned results' rows in their order (the section key first), so a limit
            // takes the rows the results hold, as a histogram's or a count's window does.
            let base = try sourceRequest(call, 1).flattened
            let keys = [try call.string(2), try call.string(3)]
            do {
                let rows = try rows(of: RowsQuery(.dictionaries(DictionaryRequest(base: base, properties: keys))))
                noteUnsavedChangesLeftOut(of: base, keys: keys)
                return (rows, 0, 1)
            } catch FetchError.unknownKey(_, let key, let entity, let suggestion) {
                // Named by the call that was given the key, not by the request made of it.
                throw FetchError.unknownKey(option: function, key: key, entity: entity, suggestion: suggestion)
            }
        }
        let named = [2, 3].compactMap { (try? call.string(Int32($0))) }
        guard let rows = readDictionaryRows(call.state, 1, including: named) else {
            // `barchart{ "Sale", group = ... }`: a request, written as fetch takes one.
            if call.type(1) == LUA_TTABLE, isRequestTable(call.state) {
                throw call.argumentError(
                    1,
                    function == "linechart"
                        ? "a request is fetch's to run: linechart(fetch{ ... }, \"xKey\", \"yKey\")"
                        : "a request is fetch's to run: barchart(fetch{ ... }, \"labelKey\", \"valueKey\"), or barchart(\"Entity\", \"key\") to count each value"
                )
            }
            throw call.typeError(1, expected: "results or dictionary rows (fetch{ ..., group = ... } or sql())")
        }
        // Rows of two keys (a grouped fetch's `{ "month", "sum(total)" }`, a two-column
        // sql()): the first labels, the second is drawn, as the rows show them.
        if call.isNoneOrNil(2), call.isNoneOrNil(3) {
            guard rows.columns.count == 2 else {
                throw call.argumentError(
                    2,
                    "the rows have \(rows.columns.count) keys (\(rows.columns.joined(separator: ", "))): name the two to draw, "
                        + "\(function)(rows, \(function == "linechart" ? "\"xKey\", \"yKey\"" : "\"labelKey\", \"valueKey\""))")
            }
            return (rows, 0, 1)
        }
        func column(_ index: Int32) throws -> Int {
            let key = try call.string(index)
            guard let i = rows.columns.firstIndex(of: key) else {
                throw call.argumentError(index, "the rows have no key '\(key)'", suggestion: closestMatch(to: key, in: rows.columns))
            }
            return i
        }
        return (rows, try column(2), try column(3))
    }

    /// Whether the table at 1 reads as fetch{}'s request: the entity's name first, or as
    /// `entity =`.
    private func isRequestTable(_ state: OpaquePointer) -> Bool {
        let first = LuaTable.element(state, 1, 1)
        quarry_pop(state, 1)
        let entity = LuaTable.field(state, 1, "entity")
        quarry_pop(state, 1)
        return first == LUA_TSTRING || entity == LUA_TSTRING
    }

    /// `barchart(r, "kind")`: each value of `key` among the objects of the source at 1
    /// (results, or an entity or its name) and how many hold it, counted in the store as
    /// `fetch{ ..., group = key, properties = { key, "count(*)" } }` counts them (drawn
    /// longest first); of results with a limit or an offset, the objects they hold, as a
    /// histogram counts them.
    func countedValues(_ call: LuaCall) throws -> (DictionaryRows, String) {
        let base = try sourceRequest(call, 1)
        let key = try call.string(2)
        let request = DictionaryRequest(base: base, properties: [key, "count(*)"], group: [key], rowsOfWindow: true)
        do {
            let rows = try rows(of: RowsQuery(.dictionaries(request)))
            noteUnsavedChangesLeftOut(of: base, keys: [key])
            return (rows, key)
        } catch FetchError.unknownKey(_, let key, let entity, let suggestion) {
            // Named by the call that was given the key, not by the request made of it.
            throw FetchError.unknownKey(option: "barchart", key: key, entity: entity, suggestion: suggestion)
        }
    }

    /// A value to plot: nil for nil (no mark, and not counted as inf or nan).
    func number(_ value: Value, key: String, function: String) throws -> Double? {
        switch value {
        case .integer(let i): return Double(i)
        case .real(let d), .date(let d): return d
        case .decimal(let s): return DecimalText.double(s)
        case .null: return nil
        default: throw LuaError("'\(key)' holds \(value.kindName) values; \(function) plots numbers", operation: function)
        }
    }
}
