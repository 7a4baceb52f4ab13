import QuarryModel
import QuarryStore

/// A server's number column of times (`NumericDateScale.typed`) compared with a date is
/// compared as the date it reads as; where only truth counts (`positive`), the raw counts
/// that comparison can hold for are said too, so an index on the column serves it. The
/// range is wider than the comparison by a margin (the microsecond the server rounds a
/// read to, and the double's precision at that date), so it never drops a row the
/// comparison keeps: the comparison alone decides, as in memory.
struct NumberTimeRange {
    /// Counts above `low` and below `high`, where given.
    let low: Int64?
    let high: Int64?

    /// The range for `attribute op rhs`, or nil where there is none to add (not a whole
    /// count of a typed time column, not a date constant, a date past the counts).
    init?(_ attribute: AttributeDescription, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand, in storage: EntityStorage) {
        guard attribute.type == .date, let scale = storage.numericDates[attribute.name], scale.typed != nil, scale.wholeCounts,
            case .count(let n, _) = scale.unit
        else { return nil }
        func count(_ value: Value) -> (low: Int64, high: Int64)? {
            guard case .date(let seconds) = value, Value.dateRange.contains(seconds), let c = scale.count(seconds) else { return nil }
            let margin = 2 + n / 1_000_000 + 2 * Int64((seconds.ulp * Double(n)).rounded(.up))
            let (low, o1) = c.subtractingReportingOverflow(margin)
            let (high, o2) = c.addingReportingOverflow(margin)
            return o1 || o2 ? nil : (low, high)
        }
        switch (op, rhs) {
        case (.greater, .value(let v)), (.greaterOrEqual, .value(let v)):
            guard let c = count(v) else { return nil }
            (low, high) = (c.low, nil)
        case (.less, .value(let v)), (.lessOrEqual, .value(let v)):
            guard let c = count(v) else { return nil }
            (low, high) = (nil, c.high)
        case (.equal, .value(let v)):
            guard let c = count(v) else { return nil }
            (low, high) = (c.low, c.high)
        case (.between, .list(let bounds)) where bounds.count == 2:
            guard let a = count(bounds[0]), let b = count(bounds[1]) else { return nil }
            (low, high) = (a.low, b.high)
        default:
            return nil
        }
    }
}
