import QuarryModel

/// `date.year == 1977` has no `#Predicate` form (a date's parts are not in the macro's
/// grammar), but the years are ranges of the date itself, read in UTC as Quarry reads
/// `.year`: `date >= 1977-01-01T00:00:00Z && date < 1978-01-01T00:00:00Z`, each bound a
/// captured `Date` with its ISO text beside it, right for any year 1-9999 (before 1970
/// and after 2038 too).
extension SwiftPredicateWriter {
    /// The comparison of a year with an integer as the date against its bounds; nil where
    /// it is not one (another part, another operator, a year outside 1-9999).
    func yearRange(_ lhs: BoundPredicate.Operand, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand, _ scope: Scope) throws
        -> String?
    {
        guard case .datePart(.year, let date) = lhs, case .value(.integer(let year)) = rhs, (1...9998).contains(year) else { return nil }
        func start(_ year: Int64) -> BoundPredicate.Operand { .value(.date(Double(Self.days(year: year)) * 86_400)) }
        func compare(_ op: ComparisonOperator, _ year: Int64) throws -> String { try comparison(date, op, start(year), [], scope) }
        switch op {
        case .equal:
            return fold([try compare(.greaterOrEqual, year), try compare(.less, year + 1)], absorbing: "false", neutral: "true", joiner: " && ")
        case .less: return try compare(.less, year)
        case .lessOrEqual: return try compare(.less, year + 1)
        case .greater: return try compare(.greaterOrEqual, year + 1)
        case .greaterOrEqual: return try compare(.greaterOrEqual, year)
        default: return nil
        }
    }

    /// Days from 1970-01-01 to the first of January of `year` (Howard Hinnant's
    /// `days_from_civil`, the inverse of `CivilDate.fromDays`).
    static func days(year: Int64) -> Int64 {
        let y = year - 1 // January counts in the year before, from March
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy: Int64 = 306 // March 1 to January 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
