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
        [.text(column), .text(type.rawValue), .integer(Int64(count)), .integer(Int64(nulls)), .integer(Int64(distinct)),
         min, max, mean ?? .null, stddev ?? .null, q25 ?? .null, q50 ?? .null, q75 ?? .null]
    }
}

/// How far `summarize` is: rows read by the one scan (`total` when known without a scan),
/// or, the exact way, columns whose quartiles were sorted for.
public struct SummaryStep {
    public var done: Int
    public var total: Int?
    /// "rows" or "columns sorted".
    public var unit: String
}

/// How `summarize` works. By default the table is read once, and `distinct` and the
/// quartiles are exact up to a size and estimated past it, as DuckDB's SUMMARIZE estimates
/// them; every other statistic is exact either way.
public struct SummaryOptions: Equatable {
    /// Count distinct values and read quartiles from every value: a sort per quartile.
    public var exact = false
    /// Values a column's quartiles are read from: every one up to this many, then a
    /// uniform sample of this many (quartiles within a fraction of a percent of rank).
    public var sampleSize = 65_536
    /// Distinct values counted exactly; past this many, estimated (about 0.8% standard error).
    public var exactDistinctLimit = 16_384

    public init(exact: Bool = false, sampleSize: Int = 65_536, exactDistinctLimit: Int = 16_384) {
        self.exact = exact
        self.sampleSize = sampleSize
        self.exactDistinctLimit = exactDistinctLimit
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
