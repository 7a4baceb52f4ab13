import QuarryModel

/// A key of the entity itself compared with a number (`saturday == 1`, `n IN {1, 2}`,
/// `1 < n`): where the key's column holds numbers written as text and compares them as
/// stored (a SQLite column that declares no type), such a comparison runs as SQLite runs
/// it, and counts without a word what a person did not mean; whoever runs the predicate
/// looks at the column and says so once (`QuarryRuntime.noteNumbersWrittenAsText`).
public struct NumberComparison: Equatable, Sendable {
    /// The key, one component.
    public let key: String
    /// The operator, written with the key on its left (`1 < n` is `n > 1`).
    public let op: ComparisonOperator
    /// The numbers compared with: one, or a list's for IN and BETWEEN.
    public let numbers: [Value]
}

extension Predicate {
    /// Each comparison of a one-component key with a number or a boolean (or a list of
    /// them), in the order written; inside a SUBQUERY keys are a member's, so none is taken.
    public var numberComparisons: [NumberComparison] {
        var found: [NumberComparison] = []
        collectNumberComparisons(into: &found)
        return found
    }

    private func collectNumberComparisons(into found: inout [NumberComparison]) {
        switch self {
        case .constant: return
        case .not(let inner): inner.collectNumberComparisons(into: &found)
        case .and(let terms), .or(let terms): for term in terms { term.collectNumberComparisons(into: &found) }
        case .comparison(let c):
            guard c.modifier == .direct, !c.op.isStringOperator else { return }
            if case .keyPath(let path) = c.lhs, path.components.count == 1, let numbers = Self.numbers(c.rhs) {
                found.append(NumberComparison(key: path.components[0], op: c.op, numbers: numbers))
            } else if case .keyPath(let path) = c.rhs, path.components.count == 1, c.op != .in, c.op != .between,
                let numbers = Self.numbers(c.lhs)
            {
                found.append(NumberComparison(key: path.components[0], op: c.op.swapped, numbers: numbers))
            }
        }
    }

    /// The numbers of a number constant, or of a list of them; nil for anything else.
    private static func numbers(_ expression: Expression) -> [Value]? {
        switch expression {
        case .constant(let value, _): return value.isNumberOrBool ? [value] : nil
        case .aggregate(let items, _):
            var values: [Value] = []
            for case .constant(let value, _) in items where value.isNumberOrBool { values.append(value) }
            return values.count == items.count && !values.isEmpty ? values : nil
        default: return nil
        }
    }
}

extension Value {
    fileprivate var isNumberOrBool: Bool {
        switch self {
        case .integer, .real, .decimal, .bool: return true
        default: return false
        }
    }
}
