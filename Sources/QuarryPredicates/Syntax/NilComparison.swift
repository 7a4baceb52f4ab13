import QuarryModel

/// `x == nil` (also written `x = NULL`, or with nil given for `%@`) matches objects whose
/// `x` is nil, and `x != nil` those whose `x` is not, as NSPredicate's do; SQL's `x = NULL`
/// and `x <> NULL` are never true. The predicate runs as Foundation reads it; whoever runs
/// it may say the difference once (the REPL does).
extension Predicate {
    /// The operator of the first `==` or `!=` of this predicate (outside a SUBQUERY) that
    /// has nil on one side; nil when there is none.
    public var nilComparison: ComparisonOperator? {
        switch self {
        case .constant: return nil
        case .not(let inner): return inner.nilComparison
        case .and(let terms), .or(let terms): return terms.lazy.compactMap(\.nilComparison).first
        case .comparison(let comparison):
            guard comparison.op == .equal || comparison.op == .notEqual else { return nil }
            let withNil = [comparison.lhs, comparison.rhs].contains { side in
                if case .constant(.null, _) = side { return true }
                return false
            }
            return withNil ? comparison.op : nil
        }
    }
}
