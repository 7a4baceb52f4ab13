import Foundation
import QuarryModel
import QuarryStore

/// Charts drawn as text: horizontal bars (histograms, bar charts) and a column plot
/// (line charts), with labelled axes and values, fitting `width` columns. Unicode block
/// characters (eighths of a cell) by default; plain ASCII when the terminal cannot show
/// them (`TERM=dumb`) or `NO_COLOR` asks for plain output.
public struct ChartStyle {
    public var width: Int
    public var unicode: Bool
    /// Rows of the line chart's plot area.
    public var height = 12

    public init(width: Int = 80, unicode: Bool = ChartStyle.environmentAllowsUnicode()) {
        self.width = width
        self.unicode = unicode
    }

    /// False under `TERM=dumb` or with `NO_COLOR` set.
    public static func environmentAllowsUnicode() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }
}

public enum Chart {
    /// One bar per label, longest for the largest value, each followed by its value.
    /// Negative values draw no bar (the value still shows), nor do nil, infinite and NaN
    /// ones: the scale is the finite values', and a line under the chart counts the others
    /// (with `leftOut` more that the caller counted apart).
    /// `wholeLabels`: labels that a cut would make wrong (dates, which tables never cut
    /// either) take what the line leaves after the count and ten cells of bar, rather than
    /// a third of it.
    public static func bars(
        title: String, labels: [String], values: [Double?], leftOut: Int = 0, style: ChartStyle = ChartStyle(), wholeLabels: Bool = false
    ) -> String {
        let labels = labels.map(CellText.flat)
        let grouping = CellText.groupsDigits(values.compactMap { $0 })
        let texts = values.map { $0.map { CellText.number($0, grouping: grouping) } ?? "nil" }
        let valueWidth = texts.map(\.count).max() ?? 0
        let labelRoom = wholeLabels ? max(8, style.width / 3, style.width - valueWidth - 3 - 10) : max(8, style.width / 3)
        let labelWidth = min(labels.map(\.count).max() ?? 0, labelRoom)
        let axis = style.unicode ? "│" : "|"
        // label, space, axis, bar, space, value.
        let room = max(1, style.width - labelWidth - 3 - valueWidth)
        let finite = values.compactMap { $0 }.filter(\.isFinite)
        let top = finite.max() ?? 0
        var lines = [CellText.flat(title)]
        for (i, label) in labels.enumerated() {
            let shown = CellText.clip(label, labelWidth)
            // A finite value over the largest is at most 1: no cell count can overflow.
            let value = values[i] ?? 0
            let bar = top > 0 && value > 0 && value.isFinite ? drawBar(value / top * Double(room), unicode: style.unicode) : ""
            lines.append(String(repeating: " ", count: labelWidth - shown.count) + shown + " " + axis + bar + " " + texts[i])
        }
        let nonFinite = values.count { $0.map { !$0.isFinite } ?? false }
        if let note = leftOutNote(nonFinite + leftOut) { lines.append(note) }
        return lines.joined(separator: "\n")
    }

    /// "2 values are inf or nan, left out": what a chart drew no mark for; nil for none.
    static func leftOutNote(_ count: Int) -> String? {
        count == 0 ? nil : count == 1 ? "1 value is inf or nan, left out" : "\(grouped(count)) values are inf or nan, left out"
    }

    /// Where a line chart labels its x axis between the ends: at round numbers (a number
    /// x: 1980, 2000), or at points of the series (dates and text, whose round values
    /// would be no value of the series), each as `xLabel` writes it.
    public enum XTicks {
        case roundNumbers
        case points
    }

    /// y against x as columns rising from the x axis (x sorted), or marks at each value
    /// where the axis does not start at 0. Each point's x is its place on the axis: evenly
    /// spaced x (whole numbers, dates a day apart) take a column each where they fit, else
    /// the axis is cut into the width's columns; a column shared by several points rises to
    /// the highest (marks from the lowest to it), and a line under the chart says so. The y axis is labelled at its ends and at a few round values between them,
    /// all written alike; the x axis at its ends and at a few ticks between where they fit,
    /// as gnuplot's dumb terminal labels its axes. Points with a nil coordinate are left
    /// out, and those with an infinite or NaN one too, the latter counted in a line under
    /// the chart.
    public static func line(
        title: String, xs: [Double?], ys: [Double?], xLabel: (Double) -> String, xTicks: XTicks = .roundNumbers,
        style: ChartStyle = ChartStyle()
    ) -> String {
        let given = zip(xs, ys).compactMap { x, y in x.flatMap { x in y.map { (x, $0) } } }
        let points = given.filter { $0.0.isFinite && $0.1.isFinite }.sorted { $0.0 < $1.0 }
        let note = leftOutNote(given.count - points.count)
        guard let first = points.first, let last = points.last else {
            return [CellText.flat(title), "(no points)", note].compactMap { $0 }.joined(separator: "\n")
        }
        let (low, high) = yRange(points.map(\.1).min() ?? 0, points.map(\.1).max() ?? 0)
        let yLabels = yAxisLabels(low: low, high: high, rows: style.height)
        let gutter = yLabels.values.map(\.count).max() ?? 0
        let room = max(1, style.width - gutter - 2)
        let columns = columnCount(points.map(\.0), room: room)
        // Few points stretch to share the width, as a histogram's bars take it: five
        // points were 20 columns of a 160-column terminal.
        let cellWidth = max(1, room / columns)
        // Each column's lowest and highest y over the points whose x falls in it: a point's
        // column reaches its value (a mean of 17 and 3 drew a peak at 10).
        var lows = [Double?](repeating: nil, count: columns)
        var highs = [Double?](repeating: nil, count: columns)
        var shared = false
        for (x, y) in points {
            let column = Self.column(x, from: first.0, to: last.0, columns: columns)
            shared = shared || highs[column] != nil
            lows[column] = min(lows[column] ?? y, y)
            highs[column] = max(highs[column] ?? y, y)
        }
        let levels = style.height * 8
        let level = { (y: Double) in high > low ? Int((fraction(y, from: low, to: high) * Double(levels)).rounded()) : levels }
        let heights: [Int?] = highs.map { $0.map(level) }
        let bottoms: [Int?] = lows.map { $0.map(level) }
        let axis = style.unicode ? "┤" : "|"
        // From 0 a column's height is its value, as a bar's; on an axis from elsewhere a
        // filled column would say the same of a value's distance from the bottom label (a
        // series from 70 to 80 drawn as bars from 70), so each column is a mark at its
        // value alone, as a line's point.
        let marksOnly = low != 0
        var lines = [CellText.flat(title)]
        for row in (0..<style.height).reversed() {
            let label = yLabels[row] ?? ""
            let cells = zip(heights, bottoms).map { height, bottom -> String in
                guard let height, let bottom else { return " " }
                if marksOnly {
                    // The rows the values fall in: their eighths from below, at least one;
                    // a column of several points marks every row from their lowest to
                    // their highest.
                    let top = min(style.height - 1, max(0, height - 1) / 8)
                    let least = min(top, max(0, bottom - 1) / 8)
                    guard row <= top, row >= least else { return " " }
                    if row < top { return style.unicode ? "█" : "#" }
                    let filled = max(1, height - row * 8)
                    return filled >= 8 ? (style.unicode ? "█" : "#") : style.unicode ? String(eighths[filled]) : (filled >= 4 ? "#" : ".")
                }
                let filled = height - row * 8
                if filled >= 8 { return style.unicode ? "█" : "#" }
                if filled <= 0 { return " " }
                return style.unicode ? String(eighths[filled]) : (filled >= 4 ? "#" : ".")
            }.map { String(repeating: $0, count: cellWidth) }.joined()
            lines.append(String(repeating: " ", count: gutter - label.count) + label + " " + axis + cells)
        }
        let corner = style.unicode ? "└" : "+"
        let rule = style.unicode ? "─" : "-"
        lines.append(String(repeating: " ", count: gutter + 1) + corner + String(repeating: rule, count: columns * cellWidth))
        let xValues = xTicks == .points ? points.map(\.0) : nil
        let axisLabels = xAxisLabels(
            from: first.0, to: last.0, points: xValues, whole: points.allSatisfy { isWhole($0.0) }, columns: columns, cellWidth: cellWidth,
            label: xLabel)
        lines.append(String(repeating: " ", count: gutter + 2) + axisLabels)
        if shared {
            lines.append(
                marksOnly
                    ? "several points share a column: it marks from their lowest value to their highest"
                    : "several points share a column: it rises to their highest value")
        }
        if let note { lines.append(note) }
        return lines.joined(separator: "\n")
    }

    /// The y axis's labels by row (0 the bottom): its ends, and the round values between
    /// them (steps of 1, 2 or 5 times a power of ten, about five parts) in the row each
    /// falls in, none in a row next to another label. The ends are values of their own,
    /// to six significant digits (119.681); the ticks share one number of decimals (0.5,
    /// 1.0, 1.5), as gnuplot writes them.
    public static func yAxisLabels(low: Double, high: Double, rows: Int) -> [Int: String] {
        // One axis, one way of writing its numbers: grouped or not as its ends decide.
        let grouping = CellText.groupsDigits([low, high])
        var labels: [Int: String] = [rows - 1: CellText.edges([high], grouping: grouping)[0]]
        if rows > 1 { labels[0] = CellText.edges([low], grouping: grouping)[0] }
        var ticks: [(row: Int, value: Double)] = []
        for value in roundTicks(from: low, to: high) {
            let row = min(rows - 1, max(0, Int((fraction(value, from: low, to: high) * Double(rows)).rounded(.up)) - 1))
            if labels.keys.allSatisfy({ abs($0 - row) >= 2 }), ticks.allSatisfy({ abs($0.row - row) >= 2 }) { ticks.append((row, value)) }
        }
        for (row, text) in zip(ticks.map(\.row), CellText.edges(ticks.map(\.value), grouping: grouping)) { labels[row] = text }
        return labels
    }

    /// Round values strictly between `low` and `high`: multiples of the step of 1, 2 or 5
    /// times a power of ten that cuts the span nearest to `parts` parts; none where the
    /// span is 0 or a double cannot say the steps apart.
    static func roundTicks(from low: Double, to high: Double, parts: Double = 5) -> [Double] {
        let half = high / 2 - low / 2
        guard half > 0, half.isFinite, parts >= 1 else { return [] }
        let span = half * 2
        let power = pow(10, log10(span / parts).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * power }.min { abs(span / $0 - parts) < abs(span / $1 - parts) } ?? power
        guard step.isFinite, step > 0 else { return [] }
        var ticks: [Double] = []
        var i = (low / step).rounded(.up)
        while ticks.count < 12 {
            let value = i * step
            guard value < high, value.isFinite else { break }
            if value > low, ticks.last != value { ticks.append(value) }
            i += 1
        }
        return ticks
    }

    /// The line under the x axis: the ends' labels at its ends, and between them labels
    /// centred under the columns of a few ticks (round numbers, or with `points` the
    /// point nearest each quarter of the axis), each only where it keeps two spaces from
    /// its neighbours, within `columns * cellWidth`.
    static func xAxisLabels(
        from first: Double, to last: Double, points: [Double]?, whole: Bool = false, columns: Int, cellWidth: Int,
        label: (Double) -> String
    ) -> String {
        let left = CellText.flat(label(first))
        guard last > first else { return left }
        let right = CellText.flat(label(last))
        let width = columns * cellWidth
        let rightStart = max(TerminalWidth.of(left) + 1, width - TerminalWidth.of(right))
        var placed: [(start: Int, text: String)] = [(0, left)]
        let ticks: [Double]
        if let points {
            // The point nearest each quarter: a value of the series, written as one.
            ticks = (1...3).compactMap { quarter in
                let target = first + (last - first) / 4 * Double(quarter)
                return points.min { abs($0 - target) < abs($1 - target) }
            }
        } else {
            // Whole x (years, counts) take whole ticks: no 2.5 between the columns of 2 and 3.
            ticks = roundTicks(from: first, to: last).filter { !whole || isWhole($0) }
        }
        for tick in ticks where tick > first && tick < last {
            let text = CellText.flat(label(tick))
            let length = TerminalWidth.of(text)
            let column = Self.column(tick, from: first, to: last, columns: columns)
            let start = column * cellWidth + cellWidth / 2 - length / 2
            let previous = placed.last.map { $0.start + TerminalWidth.of($0.text) } ?? 0
            guard start >= previous + 2, start + length + 2 <= rightStart, !placed.contains(where: { $0.text == text }) else { continue }
            placed.append((start, text))
        }
        placed.append((rightStart, right))
        var line = ""
        var at = 0
        for (start, text) in placed {
            line += String(repeating: " ", count: max(start > 0 ? 1 : 0, start - at)) + text
            at = max(start, at) + TerminalWidth.of(text)
        }
        return line
    }

    /// The y axis's ends for values from `least` to `most`: from 0 where the values hold
    /// it or come near it (0 is no further from them than their own spread), so counts and
    /// sizes rise from the axis as bars do; else the values' range, widened by a twentieth
    /// of it at each end and rounded out to a tenth of its magnitude, as gnuplot's and
    /// plotext's autoscale do: a series between 5,000,037 and 5,001,110 is drawn from
    /// 4,999,900 to 5,001,200, not squeezed into the top row of a chart from 0.
    public static func yRange(_ least: Double, _ most: Double) -> (low: Double, high: Double) {
        let spread = most / 2 - least / 2
        // Values of one sign within a spread of 0, or holding it: the axis is a bound.
        if least >= 0, least / 2 <= spread || most == least { return (0, most) }
        if most <= 0, -most / 2 <= spread || most == least { return (least, 0) }
        if least < 0, most > 0 { return (least, most) }
        let span = most - least
        let step = pow(10, (log10(span * 1.1)).rounded(.down) - 1)
        let low = ((least - span / 20) / step).rounded(.down) * step
        let high = ((most + span / 20) / step).rounded(.up) * step
        // Rounding out never crosses 0 (values all positive keep a positive axis) and
        // gives up where a double cannot say the difference.
        guard low.isFinite, high.isFinite, step > 0, low < least || least == most, high > most || least == most else { return (least, most) }
        return (least > 0 ? max(0, low) : low, most < 0 ? min(0, high) : high)
    }

    /// Where finite `value` lies from `low` to `high`, from 0 to 1 (0 when they are equal),
    /// in halves so that neither difference overflows (the span of ±1.8e308 would).
    static func fraction(_ value: Double, from low: Double, to high: Double) -> Double {
        let span = high / 2 - low / 2
        guard span > 0 else { return 0 }
        let f = (value / 2 - low / 2) / span
        return f.isFinite ? min(1, max(0, f)) : 0
    }

    /// " ▏▎▍▌▋▊▉": a cell filled by 0...7 eighths from the left, or from below for columns.
    private static let eighthsFromLeft = Array(" ▏▎▍▌▋▊▉")
    private static let eighths = Array(" ▁▂▃▄▅▆▇")

    private static func drawBar(_ cells: Double, unicode: Bool) -> String {
        let whole = Int(cells.rounded(.down))
        guard unicode else { return String(repeating: "#", count: max(whole, cells > 0 ? 1 : 0)) }
        let part = Int(((cells - Double(whole)) * 8).rounded(.down))
        let bar = String(repeating: "█", count: whole) + (part > 0 ? String(eighthsFromLeft[part]) : "")
        // A value too small for an eighth still shows that it is there.
        return bar.isEmpty && cells > 0 ? "▏" : bar
    }
}

extension CellText {
    /// Dates as charts label them: as a results table shows them (ISO 8601 in UTC, or in
    /// the machine's time zone with `.dates local`), each as its day when every one is
    /// midnight UTC, as a table's column of midnights reads (`MidnightColumns`). A chart
    /// that wrote them its own way (`2024-03-05 10:15`) showed one date three ways beside a
    /// table and a summary.
    public static func dates(_ seconds: [Double], local: Bool = false) -> [String] {
        let days = seconds.compactMap(Value.dayText)
        if !days.isEmpty, days.count == seconds.count { return days }
        return seconds.map { display(.date($0), local: local) }
    }

    /// A number as charts label a value: integers whole, grouped where the chart's numbers
    /// reach 10,000 (`groupsDigits`), others as Lua's `tostring` writes them, as tables
    /// show them.
    public static func number(_ number: Double, grouping: Bool = true) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return grouping ? grouped(Int(number)) : String(Int(number)) }
        return real(number)
    }

    /// Whether a chart groups its numbers' digits in thousands: where one of them reaches
    /// 10,000, as a magnitude reads better so (`661,806`). Below it every number of the
    /// chart is written bare, as tables, sqlite3 and DuckDB write them and as style guides
    /// leave four-digit numbers: years and IDs read `1990 – 1993`, not `1,990 – 1,993`.
    public static func groupsDigits(_ numbers: [Double]) -> Bool {
        numbers.contains { $0.isFinite && abs($0) >= 10_000 }
    }

    /// A number on a line chart's x axis: as a table shows it, ungrouped (a year is
    /// `1965`, not `1,965`; an x is a place on the axis, not a count).
    public static func axis(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return real(number)
    }

    /// An integer histogram bucket, both ends included, grouped as its chart decides
    /// (`10,000 – 19,999`; `1990 – 1993`), one number where the bucket holds one (`7`).
    public static func integers(_ lower: Double, _ upper: Double, grouping: Bool = true) -> String {
        lower == upper ? number(lower, grouping: grouping) : "\(number(lower, grouping: grouping)) – \(number(upper, grouping: grouping))"
    }

    /// A histogram's bin edges, every one written alike, as a person reads a column of
    /// ranges: one number of decimals for all (six significant digits of the largest edge,
    /// more where two edges would read the same, fewer where all would end in 0) and the
    /// integral part grouped as the charts write integers (`grouping`, by default as
    /// `groupsDigits` decides for these numbers), where each edge alone had its own
    /// (`50.222 – 51.1589`, `1,071 – 661806.2`). Past everyday magnitudes (1e15, 1e-4)
    /// every edge has an exponent, with one mantissa's length.
    public static func edges(_ numbers: [Double], grouping: Bool? = nil) -> [String] {
        let grouping = grouping ?? groupsDigits(numbers)
        let largest = numbers.filter(\.isFinite).map(abs).max() ?? 0
        let exponent = largest >= 1e15 || (largest > 0 && largest < 1e-4)
        let before = exponent || largest == 0 ? 1 : Int(log10(largest).rounded(.down)) + 1
        // A double holds 15 to 17 significant digits: more decimals than that say nothing.
        let most = max(0, 15 - before)
        func texts(_ decimals: Int) -> [String] {
            numbers.map { number in
                guard number.isFinite else { return Value.format(number) }
                return exponent ? String(format: "%.\(decimals)e", number) : groupedFixed(number, decimals: decimals, grouping: grouping)
            }
        }
        var decimals = min(most, max(0, 6 - before))
        // Distinct edges next to each other read apart: 1,000,000.1 – 1,000,000.2, not
        // 1,000,000 – 1,000,000.
        // A loop, not zips of zips under one closure: that took the type checker 3 seconds.
        func blurred(_ labels: [String]) -> Bool {
            for index in labels.indices.dropFirst() where numbers[index - 1] != numbers[index] && labels[index - 1] == labels[index] {
                return true
            }
            return false
        }
        while decimals < most, blurred(texts(decimals)) { decimals += 1 }
        // Zeros every edge ends in say nothing: 1 – 2, not 1.00000 – 2.00000.
        while decimals > 0, texts(decimals).allSatisfy({ $0.prefix { $0 != "e" }.hasSuffix("0") }) { decimals -= 1 }
        return texts(decimals)
    }

    /// `number` with `decimals` decimals and its integral part grouped (`661,806.20`)
    /// unless `grouping` is false; no minus before a zero.
    static func groupedFixed(_ number: Double, decimals: Int, grouping: Bool = true) -> String {
        let text = String(format: "%.\(decimals)f", abs(number))
        let parts = text.split(separator: ".", maxSplits: 1)
        var integral = ""
        for (i, c) in parts[0].enumerated() {
            if grouping, i > 0, (parts[0].count - i) % 3 == 0 { integral.append(",") }
            integral.append(c)
        }
        let negative = number < 0 && text.contains { $0 != "0" && $0 != "." }
        return (negative ? "-" : "") + integral + (parts.count > 1 ? "." + parts[1] : "")
    }
}
