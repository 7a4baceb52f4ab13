import QuarryModel

/// `x == nil` (also written `x = NULL`, or with nil given for `%@`) matches objects whose
/// `x` is nil, as NSPredicate's does; SQL's `x = NULL` is never true. The predicate runs
/// as Foundation reads it; whoever runs it may say the difference once (the REPL does).
extension Predicate {
    /// Whether an `==` or `!=` of this predicate (outside a SUBQUERY) has nil on one side.
    public var comparesWithNil: Bool {
        switch self {
        case .constant: return false
        case .not(let inner): return inner.comparesWithNil
        case .and(let terms), .or(let terms): return terms.contains { $0.comparesWithNil }
        case .comparison(let comparison):
            guard comparison.op == .equal || comparison.op == .notEqual else { return false }
            return [comparison.lhs, comparison.rhs].contains { side in
                if case .constant(.null, _) = side { return true }
                return false
            }
        }
    }
}
