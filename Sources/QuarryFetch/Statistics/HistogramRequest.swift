import QuarryModel
import QuarryPredicates
import QuarryStore

/// One bucket of a histogram: values from `lower` up to `upper` (the last includes it).
/// On an integer attribute both are integers and both included: `10 – 17`, `18 – 25`.
public struct HistogramBucket: Equatable {
    public var lower: Double
    public var upper: Double
    public var count: Int
    /// Both ends integers and both included: an integer attribute's bucket.
    public var isIntegral = false
}

/// What a histogram counted: the attribute's type, the buckets in order, the infinite
/// and NaN values, the cells that hold text, no number, and the nil ones; the last three
/// in no bucket.
public struct HistogramCounts {
    public var type: AttributeType
    public var buckets: [HistogramBucket]
    public var nonFinite: Int
    public var texts: Int
    public var nils = 0
}

/// `histogram`: counts of the non-nil values of `key` (a number or date attribute) among
/// the objects `base` matches (those of its window, where it has a limit or an offset), in `bins` equal-width buckets from the smallest finite
/// value to the largest, in the database: one query for the range, one GROUP BY for the
/// counts. Dates are seconds.
public struct HistogramRequest {
    public var base: FetchRequest
    public var key: String
    public var bins: Int

    public init(_ base: FetchRequest, key: String, bins: Int) {
        self.base = base
        self.key = key
        self.bins = bins
    }

    /// Runs the request: the attribute's type, the buckets in order, how many values are
    /// infinite or NaN (a REAL column may hold them), and how many cells hold text (or
    /// bytes), no number (a SQLite file's INTEGER column may hold '' or 'n/a'): both
    /// counted apart, in no bucket, so that the buckets span the finite numbers.
    public func execute(in context: ObjectContext) throws -> HistogramCounts {
        guard bins >= 1, bins <= 1000 else { throw OptionError("bins", mustBe: "from 1 to 1000", got: "\(bins)", operation: "histogram") }
        let compiled = try CompiledRequest.statisticsRows(of: base, in: context)
        guard let attribute = compiled.entity.attribute(named: key) else {
            throw FetchError.unknownKey(
                option: "histogram", key: key, entity: compiled.entity.name,
                suggestion: closestMatch(to: key, in: compiled.entity.attributeNames))
        }
        guard attribute.type.isMeasured else {
            // Another program's text of ISO times (`'2025-06-12'`) is a date once format()
            // says so: that way first, as comparing the column with a date names it.
            if attribute.type == .string, let hint = context.isoTextHint(compiled.entity, key) {
                throw FetchError.badOption(option: "histogram", reason: "'\(key)' is string; \(hint), which a histogram bins")
            }
            throw FetchError.badOption(
                option: "histogram",
                reason:
                    "'\(key)' is \(attribute.type.rawValue); a histogram needs numbers or dates (barchart(r, \"\(key)\") counts each value, r being the same results or entity name)"
            )
        }
        let dialect = compiled.dialect
        let stored = dialect.statistic(compiled.storage.nilTestable(compiled.table, attribute), attribute.type)
        // Its numbers only: text is counted apart (below), as summarize counts it.
        let column = dialect.converted(stored, .numbersOnly)
        let filter = compiled.whereClause.map { " WHERE (" + $0.sql + ")" } ?? ""
        let notNull = (filter.isEmpty ? " WHERE " : filter + " AND ") + "\(column) IS NOT NULL"
        let arguments = compiled.whereClause?.arguments ?? []
        // Finite: NaN (PostgreSQL's, which sorts above infinity) and ±inf are not between.
        let finite = "\(column) BETWEEN \(dialect.real("?")) AND \(dialect.real("?"))"
        let finiteArguments: [Value] = [.real(-.greatestFiniteMagnitude), .real(.greatestFiniteMagnitude)]
        // The finite range, the numbers out of it, the cells of text and the nil ones, and
        // a date's values with a fraction of a second, in one scan.
        let fractions =
            attribute.type == .date ? "count(CASE WHEN \(finite) AND \(column) <> CAST(\(column) AS BIGINT) THEN 1 END)" : "0"
        let range = try context.connection.row(
            "SELECT min(CASE WHEN \(finite) THEN \(column) END), max(CASE WHEN \(finite) THEN \(column) END), "
                + "count(\(column)) - count(CASE WHEN \(finite) THEN 1 END), count(\(stored)) - count(\(column)), "
                + "count(*) - count(\(stored)), \(fractions) FROM \(compiled.source)\(filter)",
            arguments: finiteArguments + finiteArguments + finiteArguments + (attribute.type == .date ? finiteArguments : []) + arguments)
        // Counts are integers; the extremes numbers, or NULL when there is none.
        let nonFinite = range?[2].storedInteger.map { Int($0) } ?? 0
        let texts = range?[3].storedInteger.map { Int($0) } ?? 0
        let nils = range?[4].storedInteger.map { Int($0) } ?? 0
        guard let range, let low = range[0].storedReal, let high = range[1].storedReal else {
            return HistogramCounts(type: attribute.type, buckets: [], nonFinite: nonFinite, texts: texts, nils: nils)
        }
        // An integer column's buckets are integer wide, so that each edge is an integer and
        // each integer falls in one labelled bucket: `bins` or fewer, none wider than needed.
        // Only where the span is well within a double's integers, so that (x - low) / width
        // below divides exactly; wider spans (near Int64's ends) keep real edges.
        // Days alone (ISO dates with no time, a server's `date`) take whole days alike, so
        // that each day falls in one bucket labelled by its first and last day, inclusive.
        // Dates that are all whole seconds (times kept to the second, as most files keep
        // them) take whole seconds alike where equal widths would not: edges such as
        // `2014-03-07T22:01:03.667Z` named instants in a unit no value had. A date with a
        // fraction keeps equal widths: a bucket labelled to its last whole second would
        // hold values past that second.
        let unit = Self.keepsDays(compiled.entity, attribute, in: context) ? 86_400.0 : 1
        let wholeSeconds = attribute.type == .date && range[5].storedInteger == 0
        let secondWidths = wholeSeconds && ((high - low) / Double(bins)).rounded() != (high - low) / Double(bins)
        let integerWidth =
            unit > 1
            ? Self.integerWidth(.int64, low: low / unit, high: high / unit, bins: bins).map { $0 * unit }
            : Self.integerWidth(secondWidths ? .int64 : attribute.type, low: low, high: high, bins: bins)
        // Halves, so that neither the span (±1.8e308 spans 3.6e308) nor an offset in it
        // overflows: a value's bucket is (x/2 - low/2) / (width/2), at most `bins`. Halving
        // is exact, so buckets and edges are those of (x - low) / width wherever that fits.
        let halfWidth = integerWidth.map { $0 / 2 } ?? (high / 2 - low / 2) / Double(bins)
        let binCount = integerWidth.map { Int(((high - low + unit) / $0).rounded(.up)) } ?? bins
        let finiteRows = notNull + " AND " + finite
        let counts: [Int: Int]
        if halfWidth > 0 {
            // A value a decimal writes on an edge lands a hair below it in binary (8.7 is
            // 4.999999999999997 widths of 0.12 above 8.1): a billionth of a width more puts
            // it in the bucket whose label starts with it, as a person counts (trial 32).
            let offset = "((\(dialect.real(column)) / 2.0 - \(dialect.real("?"))) / \(dialect.real("?")) + 1e-9)"
            let sql = "SELECT \(dialect.bucket(offset, last: "?")), count(*) FROM \(compiled.source)\(finiteRows) GROUP BY 1"
            // Bucket numbers and counts: integers, from CAST and count(*). Grouped by the
            // first column's place: an alias would lose to a column of the same name.
            var bucketCounts: [Int: Int] = [:]
            try context.connection.forEachRow(
                sql, arguments: [.real(low / 2), .real(halfWidth), .integer(Int64(binCount - 1))] + arguments + finiteArguments
            ) { row in
                // Rounding may put the lowest value a hair below 0.
                bucketCounts[min(max(Int(row.int64(at: 0)), 0), binCount - 1), default: 0] += Int(row.int64(at: 1))
            }
            counts = bucketCounts
        } else {
            counts = [
                0: try context.connection.scalar("SELECT count(*) FROM \(compiled.source)\(finiteRows)", arguments: arguments + finiteArguments)?
                    .storedInteger.map { Int($0) } ?? 0
            ]
        }
        let buckets = halfWidth > 0 ? binCount : 1
        if let width = integerWidth {
            // The last bucket ends at the largest value: years 1990 to 2020 in buckets of
            // 4 end `2018 – 2020`, not at 2021, a year no row holds and the column never
            // reached. Its width is what SQL's bucket numbers give it either way.
            return HistogramCounts(
                type: attribute.type,
                buckets: (0..<buckets).map { i in
                    HistogramBucket(
                        lower: low + Double(i) * width, upper: min(high, low + Double(i + 1) * width - unit), count: counts[i] ?? 0,
                        isIntegral: true)
                }, nonFinite: nonFinite, texts: texts, nils: nils)
        }
        func edge(_ i: Int) -> Double { i == 0 ? low : i == buckets ? high : (low / 2 + Double(i) * halfWidth) * 2 }
        return HistogramCounts(
            type: attribute.type, buckets: (0..<buckets).map { i in HistogramBucket(lower: edge(i), upper: edge(i + 1), count: counts[i] ?? 0) },
            nonFinite: nonFinite, texts: texts, nils: nils)
    }

    /// Whether a date attribute keeps days alone: a server's `date`, or a file's text of
    /// ISO dates with no time (`format()`'s `iso-date`, declared or read from its values).
    static func keepsDays(_ entity: EntityDescription, _ attribute: AttributeDescription, in context: ObjectContext) -> Bool {
        guard attribute.type == .date else { return false }
        if context.mapped(entity).dayColumns.contains(attribute.name) { return true }
        guard let name = try? context.columnFormat(entity.name, attribute.name), case .isoText(let layout) = ColumnFormat(name: name)
        else { return false }
        return layout.separator == nil && !layout.basic
    }

    /// An integer attribute's bucket width: the span's integers (both ends counted) shared
    /// among `bins`, rounded up. Nil for other types, for a non-integral extreme (a foreign
    /// file's INTEGER column may hold reals), or for a span past 2^52.
    static func integerWidth(_ type: AttributeType, low: Double, high: Double, bins: Int) -> Double? {
        guard [.int16, .int32, .int64].contains(type), low == low.rounded(), high == high.rounded(),
            high - low < 0x1p52
        else { return nil }
        return ((high - low + 1) / Double(bins)).rounded(.up)
    }
}
