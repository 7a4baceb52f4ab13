/// Whether a predicate holds for every row by its form alone (`TRUEPREDICATE`, `1 == 1`,
/// `NOT FALSEPREDICATE`): a batch change with one changes every row, as one without a
/// predicate does, and is asked about alike. Decided from the parsed predicate, never
/// its text; a comparison that reads any key is never constant.
extension Predicate {
    public var isAlwaysTrue: Bool { constantValue == true }

    /// The predicate's value when its form decides it; nil when a row's values do.
    var constantValue: Bool? {
        switch self {
        case .constant(let value): return value
        case .not(let inner): return inner.constantValue.map { !$0 }
        case .and(let parts):
            let values = parts.map(\.constantValue)
            if values.contains(false) { return false }
            return values.allSatisfy { $0 == true } ? true : nil
        case .or(let parts):
            let values = parts.map(\.constantValue)
            if values.contains(true) { return true }
            return values.allSatisfy { $0 == false } ? false : nil
        case .comparison(let c):
            // Two literals, equal or not: `1 == 1`, `'a' != 'b'`.
            guard c.modifier == .direct, c.options.isEmpty, case .constant(let l, _) = c.lhs, case .constant(let r, _) = c.rhs else {
                return nil
            }
            switch c.op {
            case .equal: return l == r
            case .notEqual: return l != r
            default: return nil
            }
        }
    }
}
