import QuarryModel
import QuarryStore

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

/// `summarize`: every attribute of the objects a request matches, summarised in SQLite.
/// Unsaved changes are not seen: this reads the store. A request with a limit or an
/// offset summarises the rows its window holds (`CompiledRequest.statisticsRows`).
public struct SummaryRequest {
    public var base: FetchRequest
    public var options: SummaryOptions

    public init(_ base: FetchRequest, options: SummaryOptions = SummaryOptions()) {
        self.base = base
        self.options = options
    }

    /// Runs the summary. By default one scan computes everything (`oneScan`);
    /// `options.exact`, a table whose schema names a collation (min, max and DISTINCT
    /// would follow it, which the one-scan aggregate does not), or a database without
    /// Quarry's SQL functions (PostgreSQL), takes the exact way.
    /// `progress` hears how far it is, now and then.
    public func execute(in context: ObjectContext, progress: ((SummaryStep) -> Void)? = nil) throws -> [AttributeSummary] {
        let compiled = try CompiledRequest.statisticsRows(of: base, in: context)
        if !options.exact, compiled.dialect.runsQuarryFunctions, let summaries = try oneScan(compiled, in: context, progress: progress) {
            return summaries
        }
        return try exactly(compiled, in: context, progress: progress)
    }

    /// Attributes summarised by one statement (five aggregates each).
    static let summaryGroup = 300

    /// A statistic in the attribute's terms: a date for a date, a number otherwise.
    static func measured(_ value: Double?, _ type: AttributeType) -> Value {
        guard let value else { return .null }
        return type == .date ? .date(value) : .real(value)
    }

    /// A quartile in the attribute's terms. One estimated from a sample of an integer
    /// attribute is the nearest integer, as DuckDB's `approx_quantile` gives one: the
    /// fraction interpolated between two sampled values is precision the estimate does
    /// not have, and `~185.0` read as a value the column cannot hold.
    static func quartile(_ value: Double?, _ type: AttributeType, estimated: Bool) -> Value {
        let integral = type == .int16 || type == .int32 || type == .int64
        if estimated, integral, let value, let whole = Int64(exactly: value.rounded()) { return .integer(whole) }
        return measured(value, type)
    }
}
