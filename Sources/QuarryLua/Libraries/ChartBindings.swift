import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryStore

/// The Lua side of histogram(), barchart() and linechart(): tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum ChartBindings {
    /// Globals, also fields of `quarry`.
    static let chartLibrary: [LuaBinding] = [
        LuaBinding("histogram", luaHistogram),
        LuaBinding("barchart", luaBarchart),
        LuaBinding("linechart", luaLinechart)
    ]

    static func luaHistogram(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let request = try runtime.sourceRequest(call, 1)
        let key = try call.string(2)
        var bins = 10
        if !call.isNoneOrNil(3) {
            try call.table(3)
            try QuarryRuntime.checkOptions(call, 3, allowed: ["bins"], operation: "histogram")
            if LuaTable.field(call.state, 3, "bins") != LUA_TNIL {
                // The option is argument 3's field: named so, not by its place on the stack.
                guard let n = try? call.integer(-1) else {
                    let got = call.type(-1) == LUA_TNUMBER ? "a number with a fraction" : call.typeName(-1)
                    throw call.argumentError(3, "bins: integer expected, got \(got)")
                }
                bins = Int(n)
            }
            quarry_pop(call.state, 1)
        }
        let counted = try HistogramRequest(request, key: key, bins: bins).execute(in: runtime.context)
        runtime.noteUnsavedChangesLeftOut(of: request, keys: [key])
        let (type, buckets) = (counted.type, counted.buckets)
        let bounds = buckets.flatMap { [$0.lower, $0.upper] }
        // Every label of the chart grouped alike: years and IDs bare (`1990 – 1993`).
        let grouping = CellText.groupsDigits(bounds)
        let local = runtime.tableFormat.localTime
        var texts = type == .date ? CellText.dates(bounds, local: local) : CellText.edges(bounds, grouping: grouping)
        // Ends of different lengths (dates each as a table writes them: `…29.49Z`,
        // `…09.652Z`; `9,042.9` beside `16,955.4`) line up on the ranges' dash, each end
        // padded with spaces: numbers to the right, as a column of them is, dates to the left.
        for side in 0..<2 {
            let width = stride(from: side, to: texts.count, by: 2).map { texts[$0].count }.max() ?? 0
            for i in stride(from: side, to: texts.count, by: 2) {
                let pad = String(repeating: " ", count: width - texts[i].count)
                texts[i] = side == 1 && type == .date ? texts[i] + pad : pad + texts[i]
            }
        }
        let labels = buckets.indices.map { i in
            // Whole days: both ends included, one day alone where the bucket is one.
            if buckets[i].isIntegral, type == .date {
                return buckets[i].lower == buckets[i].upper ? texts[2 * i] : "\(texts[2 * i]) – \(texts[2 * i + 1])"
            }
            return buckets[i].isIntegral
                ? CellText.integers(buckets[i].lower, buckets[i].upper, grouping: grouping) : "\(texts[2 * i]) – \(texts[2 * i + 1])"
        }
        let total = buckets.reduce(0) { $0 + $1.count }
        let chart = Chart.bars(
            title: "\(key): \(grouped(total)) value\(total == 1 ? "" : "s") in \(buckets.count) bin\(buckets.count == 1 ? "" : "s")", labels: labels,
            values: buckets.map { Double($0.count) }, leftOut: counted.nonFinite, style: runtime.chartStyle, wholeLabels: type == .date)
        // Nil values are no values to bin: said under the chart, as inf and nan are.
        let nils = counted.nils == 0 ? "" : counted.nils == 1 ? "\n1 value is nil, left out" : "\n\(grouped(counted.nils)) values are nil, left out"
        // Text in a number column (a SQLite file's '' or 'n/a') is no value to bin: said
        // under the chart, as summarize counts it under text.
        guard counted.texts > 0 else { return call.push(chart + nils) }
        // In a date column, text that reads as no date (`2025-05-2025`).
        let (one, many) = type == .date ? ("a date", "dates") : ("a number", "numbers")
        let held = runtime.nonNumberWord(request.entityName, [key])
        let cells = counted.texts == 1 ? "1 cell is \(held), not \(one)" : "\(grouped(counted.texts)) cells are \(held), not \(many)"
        return call.push(chart + nils + "\n\(cells), left out")
    }

    static func luaBarchart(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        // Results or an entity's name and one key, as a histogram of text is refused with:
        // a bar per value of the key, its count from the store's GROUP BY.
        if call.type(1) != LUA_TTABLE, call.argumentCount <= 2 || call.isNoneOrNil(3) {
            let (rows, key) = try runtime.countedValues(call)
            let bars = byValue(rows.rows.map { ($0[0], try? runtime.number($0[1], key: "count", function: "barchart")) })
            return call.push(
                Chart.bars(
                    title: "count by \(key)", labels: labels(bars.map(\.0), local: runtime.tableFormat.localTime), values: bars.map(\.1),
                    style: runtime.chartStyle))
        }
        let (rows, labelColumn, valueColumn) = try runtime.chartRows(call, "barchart")
        var bars = try rows.rows.map {
            ($0[labelColumn], try runtime.number($0[valueColumn], key: rows.columns[valueColumn], function: "barchart"))
        }
        // Grouped rows with no sort come in their groups' order, which no one asked for:
        // the longest bar first, as a count's bars. A sort given, or sql()'s rows (its
        // ORDER BY), or results' objects, keep the order they were given in.
        if case .dictionaries(let request)? = rememberedQuery(call.state, 1)?.source, !request.group.isEmpty,
            request.base.sortDescriptors.isEmpty
        {
            bars = byValue(bars)
        }
        return call.push(
            Chart.bars(
                title: "\(rows.columns[valueColumn]) by \(rows.columns[labelColumn])",
                labels: labels(bars.map(\.0), local: runtime.tableFormat.localTime), values: bars.map(\.1), style: runtime.chartStyle))
    }

    /// Bars longest first (as pandas' `value_counts` orders counts), equal ones in the
    /// order given, nil last.
    private static func byValue(_ bars: [(Value, Double?)]) -> [(Value, Double?)] {
        bars.enumerated().sorted { a, b in
            switch (a.element.1, b.element.1) {
            case (let x?, let y?) where x != y: return x > y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// A bar chart's labels as a table shows the values: dates as `CellText.dates` writes
    /// them (days alone where every one is midnight, as a grouped `t.date` reads).
    private static func labels(_ values: [Value], local: Bool) -> [String] {
        let dates = values.compactMap { value -> Double? in if case .date(let seconds) = value { return seconds } else { return nil } }
        guard !dates.isEmpty, dates.count == values.count(where: { !$0.isNull }) else { return values.map { CellText.display($0, local: local) } }
        var texts = CellText.dates(dates, local: local)[...]
        return values.map { value in value.isNull ? "nil" : texts.popFirst() ?? "" }
    }

    static func luaLinechart(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let (rows, xColumn, yColumn) = try runtime.chartRows(call, "linechart")
        let ys = try rows.rows.map { try runtime.number($0[yColumn], key: rows.columns[yColumn], function: "linechart") }
        let title = "\(rows.columns[yColumn]) by \(rows.columns[xColumn])"
        // Text x values (a month as '2024-03', a date SQLite keeps as text) are places on
        // the axis, one a row in the rows' order, labelled by their text.
        let isText = rows.rows.contains {
            switch $0[xColumn] {
            case .text, .textBytes: return true
            default: return false
            }
        }
        if isText {
            var labels: [String] = []
            let xs: [Double?] = rows.rows.map { row in
                if case .null = row[xColumn] { return nil }
                labels.append(CellText.display(row[xColumn]))
                return Double(labels.count - 1)
            }
            return call.push(
                Chart.line(
                    title: title, xs: xs, ys: ys, xLabel: { x in labels.indices.contains(Int(x)) ? labels[Int(x)] : "" },
                    xTicks: .points, style: runtime.chartStyle))
        }
        let xs = try rows.rows.map { try runtime.number($0[xColumn], key: rows.columns[xColumn], function: "linechart") }
        let dates = rows.rows.contains { if case .date = $0[xColumn] { return true } else { return false } }
        // Every x label as the others are written: days only when every x is a midnight.
        let days = dates && xs.allSatisfy { x in x.map { Value.dayText($0) != nil } ?? true }
        let local = runtime.tableFormat.localTime
        return call.push(
            Chart.line(
                title: title, xs: xs, ys: ys,
                xLabel: { x in !dates ? CellText.axis(x) : days ? CellText.dates([x])[0] : CellText.display(.date(x), local: local) },
                xTicks: dates ? .points : .roundNumbers, style: runtime.chartStyle))
    }
}
