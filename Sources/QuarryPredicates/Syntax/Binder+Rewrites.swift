import QuarryModel
import QuarryStore

/// Comparisons that mean another comparison once the entity's types are known, bound as
/// that one so SQL and memory read the same thing.
extension Binder {
    /// `x.@count == 0` or `x.length == 0` where `x` is a string attribute (what Swift's
    /// `x.isEmpty` reads as, and Apple's `length`): `x == ""`. `!= 0` and `> 0` are its
    /// negation, which every store says in plain SQL. Other counts are counts
    /// (`stringCount`).
    /// `x BETWEEN {low, high}` with a key among the bounds: `x >= low AND x <= high`, as
    /// Apple's grammar defines BETWEEN (a list `{ }` of values holds no key).
    func rewritten(_ c: Comparison, _ entity: EntityDescription) throws -> Predicate? {
        if c.op == .between, c.modifier == .direct, case .aggregate(let bounds, _) = c.rhs, bounds.count == 2,
            bounds.contains(where: { if case .constant = $0 { return false } else { return true } })
        {
            return .and([
                .comparison(Comparison(lhs: c.lhs, op: .greaterOrEqual, rhs: bounds[0], options: c.options)),
                .comparison(Comparison(lhs: c.lhs, op: .lessOrEqual, rhs: bounds[1], options: c.options))
            ])
        }
        guard c.modifier == .direct, case .keyPath(let path) = c.lhs, path.components.count >= 2,
            let last = path.components.last, last == "@count" || last == "length"
        else { return nil }
        let text = KeyPath(Array(path.components.dropLast()), column: path.column)
        guard (try? operand(.keyPath(text), entity))?.typeAttribute?.type == .string else { return nil }
        let empty = Predicate.comparison(Comparison(lhs: .keyPath(text), op: .equal, rhs: .constant(.text(""), column: path.column)))
        switch (c.op, c.rhs) {
        case (.equal, .constant(.integer(0), _)), (.lessOrEqual, .constant(.integer(0), _)), (.less, .constant(.integer(1), _)):
            return empty
        case (.notEqual, .constant(.integer(0), _)), (.greater, .constant(.integer(0), _)), (.greaterOrEqual, .constant(.integer(1), _)):
            return .not(empty)
        default:
            // Any other count is a count (`Binder.stringCount`), in its writer's unit.
            return nil
        }
    }
}
