import QuarryModel
import QuarryPredicates
import SwiftSyntax

/// The dates Foundation names: `Date.distantFuture`, `Date.now`, and `Date.distantPast`,
/// which is read only where its answer needs no stored date.
extension SwiftPredicateTranslator {
    /// `Date.distantPast` (0000-12-30) in Quarry's seconds from 1970.
    static let distantPast: Double = -63_114_076_800 + referenceDateOffset

    /// `Date.distantFuture` as Foundation defines it (the start of year 4001), in Quarry's
    /// seconds from 1970; `Date.now`, the time it is read; `Date.distantPast`, whose uses
    /// `checkDistantPast` checks once the whole test is read.
    func dateConstant(_ member: MemberAccessExprSyntax) throws -> Value? {
        guard member.base?.trimmedDescription == "Date" else { return nil }
        switch member.declName.baseName.text {
        case "distantFuture": return .date(63_113_904_000 + referenceDateOffset)
        // The time it is read, as the app's `let now = Date.now` is the time it runs.
        case "now": return Self.currentTime
        case "distantPast": return .date(Self.distantPast)
        default: return nil
        }
    }

    /// Refuses `predicate` where it still compares with `Date.distantPast`. An empty range
    /// of it (`(date ..< date).contains($0.h)`) was read as false, as Swift's is for every
    /// date; any other test's answer depends on stored dates at or below it (PostgreSQL's
    /// `-infinity`, a Core Data date an app set to `distantPast`), which no layout of
    /// Quarry's compares with a date before the year 0001.
    func checkDistantPast(_ predicate: Predicate) throws {
        guard let column = Self.distantPastColumn(in: predicate) else { return }
        throw PredicateError(
            .unsupported,
            "Date.distantPast (0000-12-30) is read only as an empty range's bounds (date ..< date): a store may hold dates at or below it (PostgreSQL's -infinity, an app's distantPast) that Quarry does not compare with it, so leave the test out or compare with a date of year 1",
            column: column)
    }

    /// Where `predicate` first names `Date.distantPast`, nil where it does not.
    private static func distantPastColumn(in predicate: Predicate) -> Int? {
        switch predicate {
        case .constant: return nil
        case .comparison(let c): return distantPastColumn(in: c.lhs) ?? distantPastColumn(in: c.rhs)
        case .not(let p): return distantPastColumn(in: p)
        case .and(let ps), .or(let ps): return ps.lazy.compactMap { distantPastColumn(in: $0) }.first
        }
    }

    private static func distantPastColumn(in expression: Expression) -> Int? {
        switch expression {
        case .constant(.date(let seconds), let column): return seconds == distantPast ? column : nil
        case .keyPath, .constant, .object: return nil
        case .aggregate(let items, _), .function(_, let items, _): return items.lazy.compactMap { distantPastColumn(in: $0) }.first
        case .subqueryCount(_, _, let p, _): return distantPastColumn(in: p)
        case .arithmetic(_, let a, let b, _): return distantPastColumn(in: a) ?? distantPastColumn(in: b)
        case .negate(let e, _), .index(let e, _, _): return distantPastColumn(in: e)
        case .conditional(let p, let a, let b, _): return distantPastColumn(in: p) ?? distantPastColumn(in: a) ?? distantPastColumn(in: b)
        }
    }
}
