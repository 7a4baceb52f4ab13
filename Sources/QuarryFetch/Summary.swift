import Foundation
import GRDB
import QuarryPredicates
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

extension ObjectContext {
    /// Summarises every attribute of the objects `request` matches, in SQLite. Unsaved
    /// changes are not seen: this reads the store. Sort, limit and offset of the request
    /// are ignored. By default one scan computes everything (`summarizeInOneScan`);
    /// `options.exact`, or a table whose schema names a collation (min, max and DISTINCT
    /// would follow it, which the one-scan aggregate does not), takes the exact way.
    /// `progress` hears how far it is, now and then.
    public func summarize(_ request: FetchRequest, options: SummaryOptions = SummaryOptions(),
                          progress: ((SummaryStep) -> Void)? = nil) throws -> [AttributeSummary] {
        var base = request
        base.sortDescriptors = []
        base.limit = nil
        base.offset = 0
        base.sectionKey = nil
        let compiled = try CompiledRequest(base, context: self)
        if !options.exact, try !schemaNamesCollation(compiled.storage) {
            return try summarizeInOneScan(compiled, options: options, progress: progress)
        }
        return try summarizeExactly(compiled, progress: progress)
    }

    /// The exact way: one aggregate scan for counts, extremes and means, one for the
    /// deviations from those means, and a seek per quantile (`ORDER BY ... LIMIT 2 OFFSET`,
    /// linear between the two neighbours, as pandas and numpy's default do).
    private func summarizeExactly(_ compiled: CompiledRequest, progress: ((SummaryStep) -> Void)?) throws -> [AttributeSummary] {
        let entity = compiled.entity
        let attributes = entity.attributes
        guard !attributes.isEmpty else { return [] }
        let whereSQL = compiled.whereClause.map { " WHERE (" + $0.sql + ")" } ?? ""
        let whereArguments = (compiled.whereClause?.arguments ?? []).map(\.databaseValue)
        let columns = attributes.map { columnSQL(compiled.table, $0, in: compiled.storage) }

        // Booleans and blobs have a min and max of their storage; text compares as text.
        // Five aggregates an attribute: a wide table is scanned in groups, so no statement
        // passes SQLite's limit of 2,000 result columns.
        var summaries: [AttributeSummary] = []
        var means: [Double?] = []
        for group in stride(from: 0, to: attributes.count, by: Self.summaryGroup) {
            let indexes = group..<min(attributes.count, group + Self.summaryGroup)
            var selects: [String] = ["count(*)"]
            for i in indexes {
                let column = columns[i]
                selects += ["count(\(column))", "count(DISTINCT \(column))", "min(\(column))", "max(\(column))",
                            attributes[i].type.isMeasured ? "avg(\(column))" : "NULL"]
            }
            let row = try read { db in
                try Row.fetchOne(db, sql: "SELECT \(selects.joined(separator: ", ")) FROM \(compiled.source)\(whereSQL)",
                                 arguments: StatementArguments(whereArguments))
            }
            guard let row else { return [] }
            let total: Int = row[0]
            for (j, i) in indexes.enumerated() {
                let attribute = attributes[i]
                let at = 1 + j * 5
                let count: Int = row[at]
                let mean: Double? = row[at + 4]
                means.append(mean)
                summaries.append(AttributeSummary(
                    column: attribute.name, type: attribute.type, count: count, nulls: total - count, distinct: row[at + 1],
                    min: attribute.type.decode(Value(row[at + 2] as DatabaseValue)),
                    max: attribute.type.decode(Value(row[at + 3] as DatabaseValue)),
                    mean: attribute.type.isMeasured ? measured(mean, attribute.type) : nil))
            }
        }

        // The deviations from the means just read, so the variance is not the difference
        // of two large sums (which loses every digit on dates in seconds).
        // Every measured column with values has quartiles, even one whose mean is no number
        // (both infinities), as the one scan gives them.
        let measuredIndexes = attributes.indices.filter { attributes[$0].type.isMeasured && summaries[$0].count > 0 }
        guard !measuredIndexes.isEmpty else { return summaries }
        var squaredDeviations: [Double?] = []
        for group in stride(from: 0, to: measuredIndexes.count, by: Self.summaryGroup) {
            let indexes = measuredIndexes[group..<min(measuredIndexes.count, group + Self.summaryGroup)]
            var deviations: [String] = []
            var deviationArguments: [DatabaseValue] = []
            for i in indexes {
                deviations.append("sum((\(columns[i]) - ?) * (\(columns[i]) - ?))")
                deviationArguments += [(means[i] ?? 0).databaseValue, (means[i] ?? 0).databaseValue]
            }
            let row = try read { db in
                try Row.fetchOne(db, sql: "SELECT \(deviations.joined(separator: ", ")) FROM \(compiled.source)\(whereSQL)",
                                 arguments: StatementArguments(deviationArguments + whereArguments))
            }
            for j in indexes.indices { squaredDeviations.append(row?[j - indexes.startIndex]) }
        }
        for (j, i) in measuredIndexes.enumerated() {
            let count = summaries[i].count
            let squares = squaredDeviations[j]
            // The spread of values one of which is infinite is no number: nil, as the one
            // scan gives it.
            if count > 1, let squares, let mean = means[i], mean.isFinite {
                let deviation = (squares / Double(count - 1)).squareRoot()
                if deviation.isFinite { summaries[i].stddev = .real(deviation) }
            }
            let quantiles = try [0.25, 0.5, 0.75].map {
                try quantile($0, of: columns[i], count: count, from: compiled.source, whereSQL: whereSQL, arguments: whereArguments)
            }
            summaries[i].q25 = measured(quantiles[0], attributes[i].type)
            summaries[i].q50 = measured(quantiles[1], attributes[i].type)
            summaries[i].q75 = measured(quantiles[2], attributes[i].type)
            progress?(SummaryStep(done: j + 1, total: measuredIndexes.count, unit: "columns sorted"))
        }
        return summaries
    }

    /// Attributes summarised by one statement (five aggregates each).
    static let summaryGroup = 300

    /// The `q` quantile of the `count` non-nil values of `column`: linear between the
    /// values at ranks floor and ceil of q·(count − 1), read with one seek.
    private func quantile(_ q: Double, of column: String, count: Int, from: String, whereSQL: String, arguments: [DatabaseValue]) throws -> Double? {
        guard count > 0 else { return nil }
        let position = q * Double(count - 1)
        let lower = Int(position.rounded(.down))
        let notNull = (whereSQL.isEmpty ? " WHERE " : whereSQL + " AND ") + "\(column) IS NOT NULL"
        let values = try read { db in
            try Double.fetchAll(db, sql: "SELECT \(column) FROM \(from)\(notNull) ORDER BY \(column) LIMIT 2 OFFSET ?",
                                arguments: StatementArguments(arguments + [lower.databaseValue]))
        }
        guard let low = values.first else { return nil }
        let high = values.count > 1 ? values[1] : low
        // A rank that falls on a value is that value (an infinite neighbour would give NaN).
        let fraction = position - Double(lower)
        if fraction == 0 || high == low { return low }
        return low + (high - low) * fraction
    }

    /// A statistic in the attribute's terms: a date for a date, a number otherwise.
    func measured(_ value: Double?, _ type: AttributeType) -> Value {
        guard let value else { return .null }
        return type == .date ? .date(value) : .real(value)
    }
}
