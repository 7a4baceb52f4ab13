import QuarryModel
import QuarryStore

extension Expression {
    /// `keys` read from a conditional's value (`TERNARY(j != nil, j, '').length`, Swift's
    /// `(j ?? "").isEmpty`): from each branch, a key path's keys going on, nil staying nil,
    /// and a string constant's `length` its UTF-16 count, as NSString's.
    public func keyed(_ keys: KeyPath) throws -> Expression {
        switch self {
        case .keyPath(let path): return .keyPath(KeyPath(path.components + keys.components, column: path.column))
        case .constant(.null, _): return self
        case .constant(.text(let s), let column) where keys.components == ["length"]: return .constant(.integer(Int64(s.utf16.count)), column: column)
        case .conditional(let t, let a, let b, let column): return .conditional(t, try a.keyed(keys), try b.keyed(keys), column: column)
        default:
            throw PredicateError(
                .unsupported, "'.\(keys.string)' of a conditional value is read from branches that are key paths (or nil), and one is not",
                column: keys.column)
        }
    }
}

/// `TERNARY(p, a, b)` (Swift's `p ? a : b`) in a comparison: the comparison of `a` where
/// `p` holds, of `b` where it does not, `(p AND a op x) OR (NOT p AND b op x)`, where `p`
/// unknown (an ordering against nil) does not hold, as SQL's `CASE WHEN` and NSPredicate
/// take the second branch then (`Node.holds`). Each branch is then an ordinary comparison,
/// type-checked, compiled to SQL and evaluated in memory as any other, so the two agree
/// as they do everywhere else.
extension Binder {
    /// How many TERNARYs one comparison may hold: each doubles what the rest of the
    /// comparison is bound as (the Swift reader bounds `?:` the same).
    static let maximumConditionals = 6

    /// The comparison with its first TERNARY distributed over its branches, bound; nil when
    /// it holds none.
    func distributingConditionals(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node? {
        let count = Self.conditionals(in: c.lhs) + Self.conditionals(in: c.rhs)
        guard count > 0 else { return nil }
        let column = Self.firstConditionalColumn(c.lhs) ?? Self.firstConditionalColumn(c.rhs) ?? c.lhs.column
        guard c.modifier == .direct else {
            throw PredicateError(
                .unsupported,
                "a conditional value (TERNARY, ?:) in a comparison with \(c.modifier.rawValue) is not read: write the \(c.modifier.rawValue) comparison in each branch",
                column: column)
        }
        guard count <= Self.maximumConditionals else {
            throw PredicateError(
                .tooDeep,
                "one comparison holds \(count) conditional values (TERNARY, ?:, ??); Quarry reads up to \(Self.maximumConditionals) (each doubles what SQL and memory test)",
                column: column)
        }
        for left in [true, false] {
            guard let (test, then, otherwise) = Self.splitFirstConditional(left ? c.lhs : c.rhs) else { continue }
            var whenTrue = c
            var whenFalse = c
            if left {
                whenTrue.lhs = then
                whenFalse.lhs = otherwise
            } else {
                whenTrue.rhs = then
                whenFalse.rhs = otherwise
            }
            let holds = BoundPredicate.Node.holds(try bind(test, entity))
            return .or([.and([holds, try bind(.comparison(whenTrue), entity)]), .and([.not(holds), try bind(.comparison(whenFalse), entity)])])
        }
        return nil
    }

    /// How many TERNARYs `expression` holds, those in their predicates and in SUBQUERYs included.
    static func conditionals(in expression: Expression) -> Int {
        func inPredicate(_ p: Predicate) -> Int {
            switch p {
            case .constant: return 0
            case .not(let inner): return inPredicate(inner)
            case .and(let ps), .or(let ps): return ps.reduce(0) { $0 + inPredicate($1) }
            case .comparison(let c): return conditionals(in: c.lhs) + conditionals(in: c.rhs)
            }
        }
        switch expression {
        case .keyPath, .constant, .object: return 0
        case .aggregate(let es, _), .function(_, let es, _): return es.reduce(0) { $0 + conditionals(in: $1) }
        case .arithmetic(_, let l, let r, _): return conditionals(in: l) + conditionals(in: r)
        case .negate(let e, _), .index(let e, _, _): return conditionals(in: e)
        case .subqueryCount(_, _, let p, _): return inPredicate(p)
        case .conditional(let p, let a, let b, _): return 1 + inPredicate(p) + conditionals(in: a) + conditionals(in: b)
        }
    }

    /// Where the first TERNARY outside SUBQUERY stands, for messages.
    private static func firstConditionalColumn(_ expression: Expression) -> Int? {
        switch expression {
        case .keyPath, .constant, .object, .subqueryCount: return nil
        case .conditional(_, _, _, let column): return column
        case .arithmetic(_, let l, let r, _): return firstConditionalColumn(l) ?? firstConditionalColumn(r)
        case .negate(let e, _), .index(let e, _, _): return firstConditionalColumn(e)
        case .aggregate(let es, _), .function(_, let es, _): return es.lazy.compactMap(firstConditionalColumn).first
        }
    }

    /// The first TERNARY outside SUBQUERY, and `expression` with it replaced by each of its
    /// branches (a SUBQUERY's own comparisons distribute theirs when they are bound).
    static func splitFirstConditional(_ expression: Expression) -> (Predicate, Expression, Expression)? {
        switch expression {
        case .keyPath, .constant, .object, .subqueryCount: return nil
        case .conditional(let p, let a, let b, _): return (p, a, b)
        case .arithmetic(let op, let l, let r, let column):
            if let (p, a, b) = splitFirstConditional(l) { return (p, .arithmetic(op, a, r, column: column), .arithmetic(op, b, r, column: column)) }
            if let (p, a, b) = splitFirstConditional(r) { return (p, .arithmetic(op, l, a, column: column), .arithmetic(op, l, b, column: column)) }
            return nil
        case .negate(let e, let column):
            return splitFirstConditional(e).map { ($0.0, .negate($0.1, column: column), .negate($0.2, column: column)) }
        case .index(let e, let index, let column):
            return splitFirstConditional(e).map { ($0.0, .index($0.1, index, column: column), .index($0.2, index, column: column)) }
        case .aggregate(let es, let column):
            return splitFirst(es).map { ($0.0, .aggregate($0.1, column: column), .aggregate($0.2, column: column)) }
        case .function(let f, let es, let column):
            return splitFirst(es).map { ($0.0, .function(f, $0.1, column: column), .function(f, $0.2, column: column)) }
        }
    }

    private static func splitFirst(_ es: [Expression]) -> (Predicate, [Expression], [Expression])? {
        for (i, e) in es.enumerated() {
            guard let (p, a, b) = splitFirstConditional(e) else { continue }
            var whenTrue = es
            var whenFalse = es
            whenTrue[i] = a
            whenFalse[i] = b
            return (p, whenTrue, whenFalse)
        }
        return nil
    }
}
