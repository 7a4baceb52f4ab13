import QuarryModel
import QuarryStore

/// One attribute of `summarize`: pandas' `describe` and DuckDB's `SUMMARIZE`, per column.
public struct AttributeSummary {
    public var column: String
    public var type: AttributeType
    /// Non-nil values.
    public var count: Int
    public var nulls: Int
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

    /// The values under `columns`, nil where the statistic does not apply.
    public var values: [Value] {
        [
            .text(column), .text(type.rawValue), .integer(Int64(count)), .integer(Int64(nulls)), .integer(Int64(distinct)),
            min, max, mean ?? .null, stddev ?? .null, q25 ?? .null, q50 ?? .null, q75 ?? .null
        ]
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
