import QuarryEngine
import QuarryModel
import QuarryStore

/// An integer attribute compared with a real constant (`n < 2.5`, `n == 1e19`, `n IN {1, 1.5}`,
/// `n BETWEEN {0.5, 3}`), said again with integer constants, for a database that does not
/// compare an integer column with a real exactly as SQLite and Quarry's evaluation do
/// (`SQLDialect.comparesIntegersWithRealsExactly`). PostgreSQL types the parameter from the
/// column, so a real against a `bigint` is an error, and a cast makes the comparison one of
/// floats, wrong past 2^53. An integer is below 2.5 exactly when it is below 3, and so on:
/// the bound moves to the integer on the same side, and a bound past the integers' range
/// becomes a test that holds (or fails) for every non-nil value and is nil for nil, as
/// the comparison was. Only for columns of integer type, which a typed database keeps.
enum IntegerBounds {
    typealias Node = BoundPredicate.Node
    typealias Operand = BoundPredicate.Operand

    /// The comparison with integer constants only, or nil when it has no real constant
    /// against an integer attribute (or a NaN, left as it is).
    static func exact(_ lhs: Operand, _ op: ComparisonOperator, _ rhs: Operand, _ options: ComparisonOptions) -> Node? {
        if case .value = lhs, isInteger(rhs), op != .in, op != .between { return exact(rhs, op.swapped, lhs, options) }
        guard isInteger(lhs) else { return nil }
        switch (op, rhs) {
        case (.between, .list(let bounds)) where bounds.count == 2 && bounds.contains(where: isReal):
            // BETWEEN is >= and <=, nil included.
            let sides: [(ComparisonOperator, Value)] = [(.greaterOrEqual, bounds[0]), (.lessOrEqual, bounds[1])]
            return .and(
                sides.map { op, bound in
                    exact(lhs, op, .value(bound), options) ?? .comparison(lhs: lhs, op: op, rhs: .value(bound), options: options)
                })
        case (.in, .list(let values)) where values.contains(where: isReal):
            // A real no integer equals drops out of the list.
            let kept = values.compactMap { value -> Value? in
                guard case .real(let d) = value else { return value }
                guard d == d.rounded(), let n = integer(d) else { return nil }
                return .integer(n)
            }
            return kept.isEmpty ? never(lhs) : .comparison(lhs: lhs, op: .in, rhs: .list(kept), options: options)
        case (_, .value(.real(let d))) where !d.isNaN:
            switch op {
            case .equal, .notEqual:
                // Equality as SQL's IS: true or false for nil too.
                guard d == d.rounded(), let n = integer(d) else { return .constant(op == .notEqual) }
                return .comparison(lhs: lhs, op: op, rhs: .value(.integer(n)), options: options)
            case .less, .greaterOrEqual:
                return bounded(lhs, op, d.rounded(.up), options)
            case .lessOrEqual, .greater:
                return bounded(lhs, op, d.rounded(.down), options)
            default:
                return nil
            }
        default:
            return nil
        }
    }

    /// `lhs op bound` for an integral `bound`: an integer constant, or past the range of
    /// integers, a test that every non-nil value passes or fails.
    private static func bounded(_ lhs: Operand, _ op: ComparisonOperator, _ bound: Double, _ options: ComparisonOptions) -> Node {
        if let n = integer(bound) { return .comparison(lhs: lhs, op: op, rhs: .value(.integer(n)), options: options) }
        let above = bound > 0
        switch op {
        case .less, .lessOrEqual: return above ? always(lhs) : never(lhs)
        default: return above ? never(lhs) : always(lhs)
        }
    }

    /// True for every non-nil value, nil for nil: `x <= x`.
    private static func always(_ x: Operand) -> Node { .comparison(lhs: x, op: .lessOrEqual, rhs: x, options: []) }
    /// False for every non-nil value, nil for nil: `x < x`.
    private static func never(_ x: Operand) -> Node { .comparison(lhs: x, op: .less, rhs: x, options: []) }

    /// `d` as an Int64 when it is an integer in Int64's range (2^63 is a double; 2^63 - 1 is not).
    private static func integer(_ d: Double) -> Int64? {
        guard d == d.rounded(), d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 else { return nil }
        return Int64(d)
    }

    private static func isReal(_ value: Value) -> Bool {
        if case .real = value { return true }
        return false
    }

    private static func isInteger(_ operand: Operand) -> Bool { operand.numberKind == .integer }
}

extension BoundPredicate.Operand {
    /// `decimal`: exact (PostgreSQL's numeric), with decimals and integers.
    enum NumberKind { case integer, real, decimal }

    /// Whether the operand is an integer or a real number (nil: anything else): an
    /// attribute, or an aggregate of members (`@count`; `@sum`, `@min` and `@max` of its
    /// attribute's kind; `@avg` a real).
    var numberKind: NumberKind? {
        func kind(_ type: AttributeType) -> NumberKind? {
            switch type {
            case .int16, .int32, .int64: return .integer
            case .double: return .real
            case .decimal: return .decimal
            default: return nil
            }
        }
        switch self {
        case .attribute(let a), .path(_, let a): return kind(a.type)
        case .collection(.count, _, _, _): return .integer
        case .collection(.avg, _, let a, _): return a.flatMap { kind($0.type) }.map { _ in .real }
        case .collection(_, _, let a, _): return a.flatMap { kind($0.type) }
        // Arithmetic said in the dialect's SQL: integers while both operands are (a dialect
        // that says it stops where they would leave Int64).
        // Seconds between two dates (`SQLDialect.function`, `seconds`).
        case .arithmetic(.subtract, let l, let r) where l.isDate && r.isDate: return .real
        case .arithmetic(let op, let l, let r):
            guard let lk = l.arithmeticKind, let rk = r.arithmeticKind else { return nil }
            guard op != .divide, op != .power else { return .real }
            if lk == .integer && rk == .integer { return .integer }
            if op == .modulus || op == .quotient { return .real }
            // Exact while no real takes part, as `ExpressionValues.arithmetic` computes.
            return [lk, rk].contains(.decimal) && !(lk == .real || rk == .real) ? .decimal : .real
        case .function(let f, let a):
            switch f {
            // Of a decimal, a real: computed in doubles, here and in SQL.
            case .abs, .floor, .ceiling, .trunc: return a.arithmeticKind.map { $0 == .decimal ? .real : $0 }
            case .sqrt, .ln, .log, .exp: return a.arithmeticKind.map { _ in .real }
            case .length, .characters: return .integer
            default: return nil
            }
        case .outer(let o): return o.numberKind
        case .datePart(let part, _): return part == .date ? nil : .integer
        default: return nil
        }
    }

    /// The kind arithmetic reads an operand as: a number's, or a constant's (nil as an
    /// integer: the answer is nil either way); nil for anything else (text, dates,
    /// booleans), which the store's own function computes.
    var arithmeticKind: NumberKind? {
        switch self {
        case .value(.integer), .value(.null): return .integer
        case .value(.real): return .real
        case .value(.decimal): return .decimal
        default: return numberKind
        }
    }
}
