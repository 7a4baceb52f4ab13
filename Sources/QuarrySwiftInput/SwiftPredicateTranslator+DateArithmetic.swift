import QuarryModel
import QuarryPredicates
import SwiftSyntax

/// Dates an app computes from the time it runs, in the `let`s before a `#Predicate`
/// (whose closure takes no such call): `Date.now.addingTimeInterval(-86400 * 365)` on any
/// date a captured value reads, and `Date(timeIntervalSinceNow: -3600)`. Each is read
/// once, as the app's `let` is evaluated once, when the `#Predicate` is read.
extension SwiftPredicateTranslator {
    /// The date `call` computes, nil where it is no such call.
    mutating func computedDate(_ call: FunctionCallExprSyntax) throws -> Value? {
        let labels = call.arguments.map { $0.label?.text }
        guard let argument = call.arguments.first?.expression, labels.count == 1 else { return nil }
        if call.calledExpression.trimmedDescription == "Date", labels == ["timeIntervalSinceNow"] {
            guard case .date(let now) = Self.currentTime else { return nil }
            return .date(now + (try timeInterval(argument)))
        }
        guard let callee = call.calledExpression.as(MemberAccessExprSyntax.self), callee.declName.baseName.text == "addingTimeInterval",
            let base = callee.base, labels == [nil]
        else { return nil }
        guard case .value(.date(let start)) = try constant(base) else {
            throw refuse("addingTimeInterval(_:) is read on a date: Date.now, Date(), Date(timeIntervalSinceReferenceDate:) or a captured one", base)
        }
        return .date(start + (try timeInterval(argument)))
    }

    /// Seconds written as number literals with `+`, `-`, `*`, `/` and parentheses, or
    /// captured numbers: computed as the `TimeInterval` (a Double) Swift infers for them,
    /// so `1 / 2` is 0.5.
    private mutating func timeInterval(_ node: ExprSyntax) throws -> Double {
        let refusal = refuse("a time interval is read as numbers with + - * / (-86400 * 365), not \(describe(node))", node)
        func seconds(_ term: SwiftTerm) throws -> Double {
            switch term {
            case .operand(let e):
                if let literal = e.as(IntegerLiteralExprSyntax.self), let n = Self.integer(literal.literal.text) { return Double(n) }
                if let literal = e.as(FloatLiteralExprSyntax.self), let d = Double(literal.literal.text.filter({ $0 != "_" })) { return d }
                if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" || prefix.operator.text == "+" {
                    let value = try seconds(try self.term(prefix.expression))
                    return prefix.operator.text == "-" ? -value : value
                }
                if let name = e.as(DeclReferenceExprSyntax.self)?.baseName.text, case .value(let v)? = captures[Self.unescaped(name)] {
                    switch v {
                    case .integer(let n): return Double(n)
                    case .real(let d): return d
                    default: break
                    }
                }
                throw refusal
            case .infix(let op, _, let lhs, let rhs):
                let (a, b) = (try seconds(lhs), try seconds(rhs))
                switch op {
                case "+": return a + b
                case "-": return a - b
                case "*": return a * b
                case "/": return a / b
                default: throw refusal
                }
            case .chain, .conditional: throw refusal
            }
        }
        let result = try seconds(try term(node))
        guard result.isFinite else { throw refuse("the time interval \(describe(node)) is no finite number of seconds", node) }
        return result
    }
}
