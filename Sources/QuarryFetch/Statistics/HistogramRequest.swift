import QuarryPredicates
import QuarryStore

/// One bucket of a histogram: values from `lower` up to `upper` (the last includes it).
public struct HistogramBucket: Equatable {
    public var lower: Double
    public var upper: Double
    public var count: Int
}

/// `histogram`: counts of the non-nil values of `key` (a number or date attribute) among
/// the objects `base` matches, in `bins` equal-width buckets from the minimum to the
/// maximum, in SQLite: one query for the range, one GROUP BY for the counts. Dates are
/// seconds.
public struct HistogramRequest {
    public var base: FetchRequest
    public var key: String
    public var bins: Int

    public init(_ base: FetchRequest, key: String, bins: Int) {
        self.base = base
        self.key = key
        self.bins = bins
    }

    /// Runs the request: the attribute's type, and the buckets in order.
    public func execute(in context: ObjectContext) throws -> (type: AttributeType, buckets: [HistogramBucket]) {
        guard bins >= 1, bins <= 1000 else { throw OptionError("bins", mustBe: "from 1 to 1000", got: "\(bins)", operation: "histogram") }
        var base = base
        base.sortDescriptors = []; base.limit = nil; base.offset = 0; base.sectionKey = nil
        let compiled = try CompiledRequest(base, context: context)
        guard let attribute = compiled.entity.attribute(named: key) else {
            throw FetchError.unknownKey(option: "histogram", key: key, entity: compiled.entity.name,
                                        suggestion: closestMatch(to: key, in: compiled.entity.attributeNames))
        }
        guard attribute.type.isMeasured else {
            throw FetchError.badOption(option: "histogram", reason: "'\(key)' is \(attribute.type.rawValue); a histogram needs numbers or dates (barchart counts other values)")
        }
        let column = compiled.dialect.statistic(columnSQL(compiled.table, attribute, in: compiled.storage), attribute.type)
        let notNull = (compiled.whereClause.map { " WHERE (" + $0.sql + ") AND " } ?? " WHERE ") + "\(column) IS NOT NULL"
        let arguments = compiled.whereClause?.arguments ?? []
        let range = try context.connection.row("SELECT min(\(column)), max(\(column)) FROM \(compiled.source)\(notNull)", arguments: arguments)
        guard let range, let low = try bound(range[0], attribute, compiled), let high = try bound(range[1], attribute, compiled) else {
            return (attribute.type, [])
        }
        let width = (high - low) / Double(bins)
        let counts: [Int: Int]
        if width > 0 {
            let sql = "SELECT \(compiled.dialect.bucket("(\(column) - \(compiled.dialect.real("?"))) / \(compiled.dialect.real("?"))", last: "?")), count(*) FROM \(compiled.source)\(notNull) GROUP BY 1"
            // Bucket numbers and counts: integers, from CAST and count(*). Grouped by the
            // first column's place: an alias would lose to a column of the same name.
            var bucketCounts: [Int: Int] = [:]
            try context.connection.forEachRow(sql, arguments: [.real(low), .real(width), .integer(Int64(bins - 1))] + arguments) { row in
                bucketCounts[Int(row.int64(at: 0)), default: 0] += Int(row.int64(at: 1))
            }
            counts = bucketCounts
        } else {
            counts = [0: try context.connection.scalar("SELECT count(*) FROM \(compiled.source)\(notNull)", arguments: arguments)?.storedInteger.map { Int($0) } ?? 0]
        }
        let buckets = width > 0 ? bins : 1
        return (attribute.type, (0..<buckets).map { i in
            HistogramBucket(lower: low + Double(i) * width, upper: i == buckets - 1 ? high : low + Double(i + 1) * width, count: counts[i] ?? 0)
        })
    }

    /// The smallest or largest value as a number (nil: no value). A file Quarry did not
    /// create may hold text in a number column, which sorts above every number: that is
    /// an error naming the column, not a range.
    private func bound(_ value: Value, _ attribute: AttributeDescription, _ compiled: CompiledRequest) throws -> Double? {
        if value.isNull { return nil }
        if let number = value.storedReal { return number }
        throw StoreError.unexpectedValue(table: compiled.entity.name, column: attribute.name, found: value.storageDescription, expected: "a number")
    }
}
