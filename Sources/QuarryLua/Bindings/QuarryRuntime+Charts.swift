import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryStore

/// `histogram`, `barchart` and `linechart`: counts come from SQLite (QuarryFetch), the
/// drawing from QuarryFormat; each returns the chart as a string for the REPL to print.
extension QuarryRuntime {
    func installChartFunctions() {
        register(Self.chartLibrary)
    }

    /// Charts fit the terminal (80 columns when there is none).
    private var chartStyle: ChartStyle {
        ChartStyle(width: tableFormat.width > 0 ? tableFormat.width : 80)
    }

    /// Dictionary rows at 1 and the indexes of the columns named at 2 and 3.
    private func chartRows(_ call: LuaCall, _ function: String) throws -> (DictionaryRows, Int, Int) {
        // No options today: a table given anyway is refused, not ignored.
        if call.argumentCount > 3, !call.isNoneOrNil(4) { throw call.argumentError(4, "\(function) takes no options") }
        let named = [2, 3].compactMap { (try? call.string(Int32($0))) }
        guard let rows = readDictionaryRows(call.state, 1, including: named) else {
            throw call.typeError(1, expected: "dictionary rows (fetch{ ..., group = ... } or sql())")
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

    private func number(_ value: Value, key: String, function: String) throws -> Double {
        switch value {
        case .integer(let i): return Double(i)
        case .real(let d), .date(let d): return d
        case .null: return .nan
        default: throw LuaError("'\(key)' holds \(value.kindName) values; \(function) plots numbers", operation: function)
        }
    }

    /// Globals (also fields of `quarry`), registered as lua.c registers a library: name → function.
    static let chartLibrary: [LuaBinding] = [
        LuaBinding("histogram", QuarryRuntime.luaHistogram),
        LuaBinding("barchart", QuarryRuntime.luaBarchart),
        LuaBinding("linechart", QuarryRuntime.luaLinechart),
    ]

    // MARK: Bindings

    func luaHistogram(_ call: LuaCall) throws -> Int32 {
        let request = try self.sourceRequest(call, 1)
        let key = try call.string(2)
        var bins = 10
        if !call.isNoneOrNil(3) {
            try call.table(3)
            try Self.checkOptions(call, 3, allowed: ["bins"], operation: "histogram")
            if LuaTable.field(call.state, 3, "bins") != LUA_TNIL { bins = Int(try call.integer(-1)) }
            quarry_pop(call.state, 1)
        }
        let (type, buckets) = try self.context.histogram(request, key: key, bins: bins)
        let bounds = buckets.flatMap { [$0.lower, $0.upper] }
        let texts = type == .date ? CellText.dates(bounds) : bounds.map(CellText.number)
        let labels = buckets.indices.map { "\(texts[2 * $0]) – \(texts[2 * $0 + 1])" }
        let total = buckets.reduce(0) { $0 + $1.count }
        return call.push(Chart.bars(title: "\(key): \(grouped(total)) values in \(buckets.count) bins", labels: labels,
                                    values: buckets.map { Double($0.count) }, style: self.chartStyle))
    }

    func luaBarchart(_ call: LuaCall) throws -> Int32 {
        let (rows, labelColumn, valueColumn) = try self.chartRows(call, "barchart")
        let values = try rows.rows.map { try self.number($0[valueColumn], key: rows.columns[valueColumn], function: "barchart") }
        return call.push(Chart.bars(title: "\(rows.columns[valueColumn]) by \(rows.columns[labelColumn])",
                                    labels: rows.rows.map { $0[labelColumn].displayString }, values: values, style: self.chartStyle))
    }

    func luaLinechart(_ call: LuaCall) throws -> Int32 {
        let (rows, xColumn, yColumn) = try self.chartRows(call, "linechart")
        let xs = try rows.rows.map { try self.number($0[xColumn], key: rows.columns[xColumn], function: "linechart") }
        let ys = try rows.rows.map { try self.number($0[yColumn], key: rows.columns[yColumn], function: "linechart") }
        let dates = rows.rows.contains { if case .date = $0[xColumn] { return true } else { return false } }
        return call.push(Chart.line(title: "\(rows.columns[yColumn]) by \(rows.columns[xColumn])", xs: xs, ys: ys,
                                    xLabel: { dates ? CellText.dates([$0])[0] : CellText.number($0) }, style: self.chartStyle))
    }
}
