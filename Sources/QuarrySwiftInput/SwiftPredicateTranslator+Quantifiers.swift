import QuarryPredicates
import SwiftSyntax

/// `dept.employees.contains(where: { e in e.salary > dept.budget })`: a member's key
/// compared with the outer object's, which a SUBQUERY cannot say (its predicate reads only
/// the member) and which Quarry writes for `ANY employees.salary > budget`. Read back as
/// that comparison: ANY for `contains(where:)`, ALL for `allSatisfy`.
extension SwiftPredicateTranslator {
    enum MemberTest {
        /// The closure read only its member: the SUBQUERY's predicate.
        case member(Predicate)
        /// The closure compared the member with its outer object: the whole test.
        case quantified(Predicate)
    }

    /// Reads a `contains(where:)` or `allSatisfy` closure's body, inside its member scope
    /// (the last one), whose collection is `collection` (a key path of the outer object).
    mutating func quantifiedComparison(_ body: ExprSyntax, over collection: KeyPath, all: Bool) throws -> MemberTest {
        guard case .infix(let op, _, let lhs, let rhs) = try term(body), let comparisonOperator = Self.comparisonOperators[op] else {
            return .member(try predicate(body))
        }
        // `caseInsensitiveCompare(_:) == .orderedSame` and the like: as any other test.
        if case .operand(let left) = lhs, left.is(FunctionCallExprSyntax.self) { return .member(try predicate(body)) }
        quantifying.append((scope: scopes.count - 1, readsMember: false, readsOuter: false))
        defer { quantifying.removeLast() }
        func side(_ term: SwiftTerm) throws -> (Expression, member: Bool, outer: Bool) {
            let last = quantifying.count - 1
            quantifying[last].readsMember = false
            quantifying[last].readsOuter = false
            let expression = try value(term)
            return (expression, quantifying[last].readsMember, quantifying[last].readsOuter)
        }
        let left = try side(lhs)
        let right = try side(rhs)
        if !left.outer && !right.outer {
            return .member(.comparison(Comparison(lhs: left.0, op: comparisonOperator, rhs: right.0)))
        }
        let refusal = refuse(
            "inside \(all ? "allSatisfy" : "contains(where:)"), the outer object's keys are read on one side of one comparison, the member's keys on the other (as { m in m.salary > dept.budget })",
            body)
        let member: Expression
        let outer: Expression
        let flipped: Bool
        switch (left.member, left.outer, right.member) {
        case (true, false, false): (member, outer, flipped) = (left.0, right.0, false)
        case (false, _, true) where !right.outer: (member, outer, flipped) = (right.0, left.0, true)
        default: throw refusal
        }
        guard let members = Self.prefixed(member, with: collection) else { throw refusal }
        let swapped: [ComparisonOperator: ComparisonOperator] = [
            .less: .greater, .lessOrEqual: .greaterOrEqual, .greater: .less, .greaterOrEqual: .lessOrEqual
        ]
        let comparison = Comparison(
            lhs: members, op: flipped ? swapped[comparisonOperator] ?? comparisonOperator : comparisonOperator, rhs: outer,
            modifier: all ? .all : .any)
        return .quantified(.comparison(comparison))
    }

    /// The member's side as the outer object reads it: each key path through `collection`
    /// (`salary` → `employees.salary`); nil where a part has no such form (a SUBQUERY).
    private static func prefixed(_ expression: Expression, with collection: KeyPath) -> Expression? {
        switch expression {
        case .keyPath(let path):
            return .keyPath(KeyPath(collection.components + path.components, column: path.column))
        case .constant:
            return expression
        case .arithmetic(let op, let lhs, let rhs, let column):
            guard let l = prefixed(lhs, with: collection), let r = prefixed(rhs, with: collection) else { return nil }
            return .arithmetic(op, l, r, column: column)
        case .negate(let inner, let column):
            return prefixed(inner, with: collection).map { .negate($0, column: column) }
        default:
            return nil
        }
    }
}
