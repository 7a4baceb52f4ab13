import QuarryPredicates
import SwiftSyntax

/// A range a `#Predicate` tests with `contains(_:)`: `lo ..< hi`, `lo ... hi`, and the
/// partial ones `lo...`, `...hi`, `..<hi`, written in the closure or captured in a `let`.
struct SwiftRange {
    var lower: Expression?
    var upper: Expression?
    /// Whether `upper` is in the range (`...`), not only below it (`..<`).
    var closed: Bool
}

extension SwiftPredicateTranslator {
    /// The range `node` spells, nil when it spells none. A name is a captured range when a
    /// `let` before the macro gave it one.
    mutating func range(_ node: ExprSyntax) throws -> SwiftRange? {
        let e = unparenthesised(node)
        if let postfix = e.as(PostfixOperatorExprSyntax.self), postfix.operator.text == "..." {
            return SwiftRange(lower: try value(postfix.expression), upper: nil, closed: true)
        }
        if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "..." || prefix.operator.text == "..<" {
            return SwiftRange(lower: nil, upper: try value(prefix.expression), closed: prefix.operator.text == "...")
        }
        if e.is(SequenceExprSyntax.self), case .infix(let op, _, let lower, let upper) = try term(e), op == "..." || op == "..<" {
            return SwiftRange(lower: try value(lower), upper: try value(upper), closed: op == "...")
        }
        if let name = e.as(DeclReferenceExprSyntax.self), scopeIndex(of: name.baseName.text) == nil {
            return ranges[Self.unescaped(name.baseName.text)]
        }
        return nil
    }

    /// `[1, 5].contains(x)` (IN), a range's `contains(x)`, `values.contains(x)` with a
    /// captured list; nil when the receiver is a key (a string).
    mutating func membership(_ receiver: ExprSyntax, _ argument: ExprSyntax) throws -> Predicate? {
        let r = unparenthesised(receiver)
        if r.is(ArrayExprSyntax.self) {
            return .comparison(Comparison(lhs: try value(argument), op: .in, rhs: try value(r)))
        }
        if let range = try range(r) { return rangeTest(range, try value(argument), column: columns.column(of: r)) }
        if let name = r.as(DeclReferenceExprSyntax.self), scopeIndex(of: name.baseName.text) == nil {
            return .comparison(Comparison(lhs: try value(argument), op: .in, rhs: try value(r)))
        }
        return nil
    }

    /// Whether `tested` is in `range`: BETWEEN for a closed range of two values, else its
    /// bounds compared one by one. Where a bound is a key and the lower one is above the
    /// upper, Swift's `ClosedRange` stops the program and `Range` throws; Quarry's test is
    /// false there. A half-open range of two equal constants is empty, so false.
    private func rangeTest(_ range: SwiftRange, _ tested: Expression, column: Int) -> Predicate {
        // `x ..< x` is empty: false whatever is tested, whatever the bound (even
        // `Date.distantPast`, which no other test reads).
        if !range.closed, case .constant(let lower, _)? = range.lower, case .constant(let upper, _)? = range.upper, lower == upper {
            return .constant(false)
        }
        if range.closed, let lower = range.lower, let upper = range.upper, case .constant = lower, case .constant = upper {
            return .comparison(Comparison(lhs: tested, op: .between, rhs: .aggregate([lower, upper], column: column)))
        }
        var parts: [Predicate] = []
        if let lower = range.lower { parts.append(.comparison(Comparison(lhs: tested, op: .greaterOrEqual, rhs: lower))) }
        if let upper = range.upper {
            parts.append(.comparison(Comparison(lhs: tested, op: range.closed ? .lessOrEqual : .less, rhs: upper)))
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }
}
