import QuarryPredicates
import SwiftSyntax

/// Tests of optional values: `?? true/false` after `flatMap { }` or `?.method(...)`.
extension SwiftPredicateTranslator {
    /// `optional.flatMap { test } ?? d` and `optional?.method(...) ?? d`: the test where
    /// the value is there, `d` where it is nil, as Swift decides it (two-valued).
    mutating func coalesced(_ lhs: SwiftTerm, _ rhs: SwiftTerm) throws -> Predicate {
        // `?? false`, or a captured Bool (`?? no`), as Quarry writes a larger #Predicate.
        let whenNil: Bool
        if case .operand(let right) = rhs, let fallback = right.as(BooleanLiteralExprSyntax.self) {
            whenNil = fallback.literal.tokenKind == .keyword(.true)
        } else if case .operand(let right) = rhs, right.is(DeclReferenceExprSyntax.self),
            case .constant(.bool(let b), _) = try value(right)
        {
            whenNil = b
        } else {
            throw refuse("?? in a test takes true or false on its right", rhs.node)
        }
        guard case .operand(let left) = lhs else {
            throw refuse("?? true/false follows an optional test: value.flatMap { ... } or value?.method(...)", lhs.node)
        }
        let base: Expression
        let test: Predicate
        if let call = left.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(MemberAccessExprSyntax.self),
            callee.declName.baseName.text == "flatMap", let receiver = callee.base
        {
            guard let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self) else {
                throw refuse("flatMap takes a closure", call)
            }
            base = try value(receiver)
            test = try closureBody(closure, scope: .bound(base), parameterCount: 1) { translator, body in try translator.predicate(body) }
        } else if let optional = firstOptionalChain(in: left) {
            base = try value(ExprSyntax(optional.expression))
            test = try operandPredicate(left)
        } else {
            throw refuse("?? true/false follows an optional test: value.flatMap { ... } or value?.method(...)", left)
        }
        let column = columns.column(of: left)
        let isNil = Predicate.comparison(Comparison(lhs: base, op: .equal, rhs: .constant(.null, column: column)))
        return whenNil ? .or([isNil, test]) : .and([.not(isNil), test])
    }

    /// The first `x?` from the object on the receiver spine of `node`: in
    /// `$0.owner?.name.contains("a")`, `$0.owner?`, whose nil makes the whole test nil.
    func firstOptionalChain(in node: ExprSyntax) -> OptionalChainingExprSyntax? {
        var current: ExprSyntax? = node
        var found: OptionalChainingExprSyntax?
        while let e = current.map(unparenthesised) {
            if let chain = e.as(OptionalChainingExprSyntax.self) {
                found = chain
                current = chain.expression
                continue
            }
            if let call = e.as(FunctionCallExprSyntax.self) {
                current = call.calledExpression
                continue
            }
            if let member = e.as(MemberAccessExprSyntax.self) {
                current = member.base
                continue
            }
            if let unwrap = e.as(ForceUnwrapExprSyntax.self) {
                current = unwrap.expression
                continue
            }
            break
        }
        return found
    }
}
