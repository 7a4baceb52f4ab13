import QuarryModel
import QuarryStore

/// One attribute of `summarize`: pandas' `describe` and DuckDB's `SUMMARIZE`, per column.
public struct AttributeSummary {
    public var column: String
    public var type: AttributeType
    /// Non-nil values.
    public var count: Int
    public var nulls: Int
    /// Of `count`, cells of a number or date column that hold no number (text, bytes: a
    /// SQLite file's INTEGER column may hold '' or 'n/a'): left out of min, max, mean,
    /// stddev and the quartiles, where SQLite's avg() reads them as 0. Nil for other types.
    public var text: Int?
    public var distinct: Int
    public var min: Value
    public var max: Value
    /// For numbers and dates (dates as dates): nil for other types.
    public var mean: Value?
    /// The sample standard deviation (n − 1), as pandas gives it; seconds for dates.
    public var stddev: Value?
    public var q25: Value?
    public var q50: Value?
    public var q75: Value?
    /// `distinct` was estimated (HyperLogLog), not counted: see `SummaryOptions`.
    public var distinctIsEstimate = false
    /// The quartiles were read from a sample of the values, not from all of them.
    public var quartilesAreEstimates = false

    /// The summary's columns, in the order they print.
    public static let columns = ["column", "type", "count", "nulls", "distinct", "min", "max", "mean", "stddev", "q25", "q50", "q75"]

    /// The columns of `summaries`: `columns`, with `text` after `nulls` when a number or
    /// date column holds text, so a table shows it only where it says something.
    public static func columns(of summaries: [AttributeSummary]) -> [String] {
        guard summaries.contains(where: { ($0.text ?? 0) > 0 }) else { return columns }
        var columns = columns
        columns.insert("text", at: 4)
        return columns
    }

    /// The values under `columns`, nil where the statistic does not apply.
    public var values: [Value] {
        [
            .text(column), .text(type.rawValue), .integer(Int64(count)), .integer(Int64(nulls)), .integer(Int64(distinct)),
            min, max, mean ?? .null, stddev ?? .null, q25 ?? .null, q50 ?? .null, q75 ?? .null
        ]
    }

    /// The values under `columns(of:)` for summaries `withText` or not.
    public func values(withText: Bool) -> [Value] {
        guard withText else { return values }
        var values = values
        values.insert(text.map { .integer(Int64($0)) } ?? .null, at: 4)
        return values
    }
}

extension AttributeType {
    /// Types with a mean and quantiles: numbers, and dates (as seconds).
    var isMeasured: Bool {
        switch self {
        case .int16, .int32, .int64, .double, .decimal, .date: return true
        default: return false
        }
    }
}
