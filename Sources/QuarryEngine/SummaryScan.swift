import QuarryModel

/// Several columns summarised in one scan of their rows, which an engine with a one-scan
/// aggregate answers (`StoreEngine.summarize`): count, distinct, min and max of each, and
/// mean, spread and quartiles of the measured ones.
public struct SummaryScan {
    public struct Column {
        public var sql: String
        /// Numbers or dates: the mean, spread and quartiles are asked too.
        public var measured: Bool
        public init(sql: String, measured: Bool) {
            self.sql = sql
            self.measured = measured
        }
    }
    /// What the rows are read from (a table, or a subquery) and the filter on them.
    public var source: String
    public var filter: String?
    public var arguments: [Value]
    public var columns: [Column]
    /// Values kept to estimate quartiles past it, and distinct values counted exactly.
    public var sampleSize: Int
    public var exactDistinctLimit: Int
    /// The schema may name a collation (a file Quarry did not create): min, max and
    /// DISTINCT would follow it, which a one-scan aggregate may not.
    public var schemaMayNameCollation: Bool

    public init(
        source: String, filter: String?, arguments: [Value], columns: [Column], sampleSize: Int,
        exactDistinctLimit: Int, schemaMayNameCollation: Bool
    ) {
        self.source = source
        self.filter = filter
        self.arguments = arguments
        self.columns = columns
        self.sampleSize = sampleSize
        self.exactDistinctLimit = exactDistinctLimit
        self.schemaMayNameCollation = schemaMayNameCollation
    }
}

/// One column's statistics from a one-scan aggregate; `min` and `max` as stored. In a
/// measured column, cells that hold no number (text, bytes) are in `count` and `distinct`,
/// counted in `texts`, and left out of every other statistic.
public struct ColumnStatistics {
    public var count: Int
    public var texts: Int
    public var distinct: Int
    public var min: Value
    public var max: Value
    public var mean: Double?
    public var stddev: Double?
    public var q25: Double?
    public var q50: Double?
    public var q75: Double?
    public var distinctIsEstimate: Bool
    public var quartilesAreEstimates: Bool

    public init(
        count: Int, texts: Int = 0, distinct: Int, min: Value, max: Value, mean: Double?, stddev: Double?, q25: Double?, q50: Double?,
        q75: Double?, distinctIsEstimate: Bool, quartilesAreEstimates: Bool
    ) {
        self.count = count
        self.texts = texts
        self.distinct = distinct
        self.min = min
        self.max = max
        self.mean = mean
        self.stddev = stddev
        self.q25 = q25
        self.q50 = q50
        self.q75 = q75
        self.distinctIsEstimate = distinctIsEstimate
        self.quartilesAreEstimates = quartilesAreEstimates
    }
}

/// A one-scan summary's answer: the rows read, and each column's statistics (nil: the
/// column held no row).
public struct SummaryScanResult {
    public var rows: Int
    public var columns: [ColumnStatistics?]
    public init(rows: Int, columns: [ColumnStatistics?]) {
        self.rows = rows
        self.columns = columns
    }
}
