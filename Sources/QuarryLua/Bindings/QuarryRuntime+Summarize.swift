import CLua
import CQuarryShim
import Foundation
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryStore

/// summarize()'s options and its progress line; the statistics are QuarryFetch's.
extension QuarryRuntime {
    /// `{ exact = true }` at `index`: distinct counts and quartiles from every value, not
    /// estimated. Any other key is refused, as fetch{} refuses one.
    static func summaryOptions(_ call: LuaCall, _ index: Int32) throws -> SummaryOptions {
        var options = SummaryOptions()
        guard !call.isNoneOrNil(index) else { return options }
        guard call.type(index) == LUA_TTABLE else { throw call.typeError(index, expected: "table of options") }
        try checkOptions(call, index, allowed: ["exact"], operation: "summarize")
        defer { quarry_pop(call.state, 1) }
        switch LuaTable.field(call.state, index, "exact") {
        case LUA_TNIL: break
        case LUA_TBOOLEAN: options.exact = lua_toboolean(call.state, -1) != 0
        default: throw OptionError("exact", mustBe: "true or false", got: call.typeName(-1), operation: "summarize")
        }
        return options
    }

    /// The summary, with a progress line on stderr while it reads when stderr is a
    /// terminal (as import shows one), cleared before the answer or an error is shown.
    func summarizeShowingProgress(_ request: FetchRequest, options: SummaryOptions) throws -> [AttributeSummary] {
        let console = self.console
        guard console.showsProgress else { return try SummaryRequest(request, options: options).execute(in: context) }
        var shown = false
        defer { if shown { console.progress(nil) } }
        return try SummaryRequest(request, options: options).execute(in: context) { step in
            let of = step.total.map { "/\(grouped($0))" } ?? ""
            console.progress("summarize \(request.entityName): \(grouped(step.done))\(of) \(step.unit)")
            shown = true
        }
    }
}

extension QuarryRuntime {
    /// One line when number or date columns hold text (a SQLite file's INTEGER column
    /// with '' or 'n/a' cells): how many cells each, left out of the numeric statistics
    /// and counted under `text`, so a mean is never read as one over every cell.
    func noteTextInNumbers(_ summaries: [AttributeSummary], of entityName: String) {
        let holding = summaries.compactMap { summary in summary.text.flatMap { $0 > 0 ? (summary.column, $0) : nil } }
        guard let (column, count) = holding.first else { return }
        // Each column's cells named as they are (bytes are no text), where it differs from the first's.
        let held = nonNumberWord(entityName, [column])
        let others = holding.dropFirst().map { other in
            let word = nonNumberWord(entityName, [other.0])
            return ", \(other.0) \(grouped(other.1))" + (word == held ? "" : " of \(word)")
        }.joined()
        writeNotice(
            "note: summarize \(entityName): \(column) holds \(grouped(count)) \(count == 1 ? "cell" : "cells") of \(held)\(others): not numbers, "
                + "left out of min, max, mean, stddev and the quartiles (the text column counts them)")
    }
}

extension AttributeSummary {
    /// The printed header of `summaries`: a column whose values are estimated in any row
    /// ends in `~` (`distinct~`, `q25~`), so a table never shows an estimate as a count.
    static func headers(_ summaries: [AttributeSummary]) -> [String] {
        let distinct = summaries.contains { $0.distinctIsEstimate }
        let quartiles = summaries.contains { $0.quartilesAreEstimates }
        return columns(of: summaries).map { column in
            switch column {
            case "distinct" where distinct, "q25" where quartiles, "q50" where quartiles, "q75" where quartiles: return column + "~"
            default: return column
            }
        }
    }
}

extension AttributeSummary {
    /// The estimated cells of `summaries` as rows: the 1-based rows by column name.
    static func estimatedCells(_ summaries: [AttributeSummary]) -> [String: [Int]] {
        var cells: [String: [Int]] = [:]
        for (i, summary) in summaries.enumerated() {
            if summary.distinctIsEstimate { cells["distinct", default: []].append(i + 1) }
            if summary.quartilesAreEstimates { for q in ["q25", "q50", "q75"] { cells[q, default: []].append(i + 1) } }
        }
        return cells
    }

    /// The line under a summary with estimates: what `~` means and how to count exactly.
    static func estimatesFootnote(_ columns: Set<String>) -> String {
        let distinct = columns.contains("distinct")
        let quartiles = !columns.isDisjoint(with: ["q25", "q50", "q75"])
        let what = distinct && quartiles ? "distinct counts and quartiles" : distinct ? "distinct counts" : "quartiles"
        let how =
            distinct && quartiles ? "(on large inputs)" : distinct ? "(HyperLogLog, about 0.8% off)" : "(from a sample of the values)"
        return "~ estimated \(what) \(how); summarize(source, { exact = true }) reads every value"
    }
}

extension AttributeSummary {
    /// Summary rows as printed: a date's `stddev`, seconds in the rows, as a duration in
    /// the unit that reads best (`529.67 days`, `3.5 h`), 6 significant digits as the other
    /// statistics print. Rows of other types, and rows without those columns, as they are.
    static func durationsShown(_ rows: [[Value]], columns: [String]) -> [[Value]] {
        guard let type = columns.firstIndex(of: "type"), let stddev = columns.firstIndex(of: "stddev") else { return rows }
        return rows.map { row in
            guard row.count > Swift.max(type, stddev), row[type] == .text(AttributeType.date.rawValue) else { return row }
            let seconds: Double
            switch row[stddev] {
            case .real(let value) where value.isFinite: seconds = value
            case .integer(let value): seconds = Double(value)
            default: return row
            }
            var row = row
            row[stddev] = .text(duration(seconds))
            return row
        }
    }

    /// Seconds as a person reads a spread of times: seconds, minutes, hours or days.
    static func duration(_ seconds: Double) -> String {
        let units: [(Double, String)] = [(86_400, "days"), (3_600, "h"), (60, "min")]
        for (size, unit) in units where abs(seconds) >= 2 * size {
            return CellText.display(.real(seconds / size), digits: 6) + " " + unit
        }
        return CellText.display(.real(seconds), digits: 6) + " s"
    }
}

extension AttributeSummary {
    /// Summary rows as printed: a date row's statistics written as a results table writes
    /// the column's dates, so one date reads one way in a table, a summary and a chart.
    /// Its min and max are values of the column; the mean and quartiles, computed, are
    /// shown at the precision the min and max have, as numbers show 6 digits: every one as
    /// its day where both are midnight UTC (the column holds days, which a table shows as
    /// days), to the second where both are whole seconds, else as they are. The rows
    /// returned keep the exact values.
    static func datesShown(_ rows: [[Value]], columns: [String]) -> [[Value]] {
        guard let low = columns.firstIndex(of: "min"), let high = columns.firstIndex(of: "max") else { return rows }
        let computed = ["mean", "q25", "q50", "q75"].compactMap { columns.firstIndex(of: $0) }
        return rows.map { row in
            guard row.count > Swift.max(low, high) else { return row }
            let ends = [row[low], row[high]].compactMap { value -> Double? in
                switch value {
                case .date(let seconds): return seconds
                // A column of days (`DayAttributes`) has its min and max read as their day.
                case .text(let text) where text.count == 10: return Value.parseISO8601(text).flatMap { Value.dayText($0) == text ? $0 : nil }
                default: return nil
                }
            }
            guard ends.count == 2 else { return row }
            let days = ends.allSatisfy { Value.dayText($0) != nil }
            let seconds = ends.allSatisfy { $0 == $0.rounded() }
            var row = row
            for i in [low, high] + computed where i < row.count {
                guard case .date(let value) = row[i] else { continue }
                if days {
                    row[i] = .text(String(Value.iso8601(value).prefix(10)))
                } else if seconds {
                    row[i] = .date(value.rounded())
                }
            }
            return row
        }
    }
}
