import QuarryModel
import QuarryPredicates
import QuarryStore
import SwiftSyntax

/// Comparisons whose Swift spelling is not a comparison of two values: a conditional on
/// one side, a `ComparisonResult`, a filter's count against 0, a quotient.
extension SwiftPredicateTranslator {
    /// `(c ? a : b) == x`: `(c && a == x) || (!c && b == x)`, as Swift decides it; nil when
    /// neither side is a conditional.
    mutating func conditionalComparison(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: String, _ opNode: ExprSyntax) throws -> Predicate? {
        func conditional(_ term: SwiftTerm) throws -> (SwiftTerm, ExprSyntax, SwiftTerm, SwiftTerm)? {
            guard case .operand(let e) = term, let inner = Self.parenthesisedSequence(e),
                case .conditional(let c, let node, let then, let otherwise) = try self.term(inner)
            else { return nil }
            return (c, node, then, otherwise)
        }
        if let distributed = try coalescedComparison(lhs, rhs, op, opNode) { return distributed }
        // The test stands twice in what is written, and so does the other side: bounded
        // (`twice`) where that side is a conditional too.
        if let (c, node, then, otherwise) = try conditional(lhs) {
            let test = try twice(node) { try $0.predicate(c) }
            func branches(_ t: inout Self) throws -> Predicate {
                .or([.and([test, try t.comparison(then, rhs, op, opNode)]), .and([.not(test), try t.comparison(otherwise, rhs, op, opNode)])])
            }
            return try conditional(rhs) == nil ? try branches(&self) : try twice(node, branches)
        }
        if let (c, node, then, otherwise) = try conditional(rhs) {
            let test = try twice(node) { try $0.predicate(c) }
            return .or([.and([test, try comparison(lhs, then, op, opNode)]), .and([.not(test), try comparison(lhs, otherwise, op, opNode)])])
        }
        return nil
    }

    /// `($0.f && true) == false`: a test (`&&`, `||`) compared with a Bool literal is the
    /// test or its negation, as Swift compares the Bool it gives; nil for any other.
    mutating func testComparedWithBool(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: ComparisonOperator) throws -> Predicate? {
        guard op == .equal || op == .notEqual else { return nil }
        for (side, other) in [(lhs, rhs), (rhs, lhs)] {
            var test = side
            if case .operand(let e) = side, let inner = Self.parenthesisedSequence(e) { test = try term(inner) }
            guard case .operand(let e) = other, let literal = unparenthesised(e).as(BooleanLiteralExprSyntax.self) else { continue }
            guard case .chain = test else {
                // A test of a value that cannot be nil (`$0.name.isEmpty == false`,
                // `($0.note ?? "").isEmpty`, `$0.title.contains("a") == true`) likewise.
                guard case .operand(let t) = test else { continue }
                if Self.givesBool(unparenthesised(t)) {
                    let predicate = try self.predicate(test)
                    return (literal.literal.tokenKind == .keyword(.true)) == (op == .equal) ? predicate : .not(predicate)
                }
                if let read = try optionalTestComparedWithBool(unparenthesised(t), literal, op) { return read }
                continue
            }
            let predicate = try self.predicate(test)
            return (literal.literal.tokenKind == .keyword(.true)) == (op == .equal) ? predicate : .not(predicate)
        }
        return nil
    }

    /// `$0.folder?.name.contains("a") == true`: a test through `?.` gives an optional Bool,
    /// which Swift compares with the literal as a value: nil is neither `true` nor `false`,
    /// so `== true`/`== false` hold only where the value is there (as `?? false` reads) and
    /// `!=` holds where it is nil too. nil for no test with a `?.` on its receivers.
    private mutating func optionalTestComparedWithBool(
        _ e: ExprSyntax, _ literal: BooleanLiteralExprSyntax, _ op: ComparisonOperator
    ) throws -> Predicate? {
        guard Self.isBoolTest(e), let optional = firstOptionalChain(in: e) else { return nil }
        let base = try value(ExprSyntax(optional.expression))
        let test = try operandPredicate(e)
        let isNil = Predicate.comparison(Comparison(lhs: base, op: .equal, rhs: .constant(.null, column: columns.column(of: e))))
        let positive = literal.literal.tokenKind == .keyword(.true)
        return op == .equal
            ? .and([.not(isNil), positive ? test : .not(test)])
            : .or([isNil, positive ? .not(test) : test])
    }

    /// Whether `e` is a test: `x.isEmpty`, a call (`contains`, `starts(with:)`) or `!x`.
    static func isBoolTest(_ e: ExprSyntax) -> Bool {
        e.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "isEmpty" || e.is(FunctionCallExprSyntax.self)
            || e.as(PrefixOperatorExprSyntax.self)?.operator.text == "!"
    }

    /// Whether `e` is a test that gives a Bool, never nil: `x.isEmpty`, a call (`contains`,
    /// `starts(with:)`) or `!x`, with no `?.` on the way (a nil there is no Bool).
    static func givesBool(_ e: ExprSyntax) -> Bool {
        guard isBoolTest(e) else { return false }
        // A `?` inside parentheses or a closure (`($0.note ?? "").isEmpty`) is settled there.
        var depth = 0
        for token in e.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .leftParen, .leftBrace: depth += 1
            case .rightParen, .rightBrace: depth -= 1
            case .postfixQuestionMark where depth == 0: return false
            default: break
            }
        }
        return true
    }

    /// `(x ?? d) == y`: `(x == nil && d == y) || (x != nil && x == y)`, as Swift decides it
    /// (COALESCE); either side may be the `??`. nil for none, and for a count's `?? 0`,
    /// which is the count itself (`countOrZero`).
    private mutating func coalescedComparison(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: String, _ opNode: ExprSyntax) throws -> Predicate? {
        for (side, other, left) in [(lhs, rhs, true), (rhs, lhs, false)] {
            var term = side
            if case .operand(let e) = side, let inner = Self.parenthesisedSequence(e) { term = try self.term(inner) }
            guard case .infix("??", let node, let optional, let fallback) = term else { continue }
            let value = try self.value(optional)
            switch value {
            case .subqueryCount: continue
            case .keyPath(let path) where path.components.last == "@count": continue
            default: break
            }
            let isNil = Predicate.comparison(Comparison(lhs: value, op: .equal, rhs: .constant(.null, column: columns.column(of: node))))
            let whenNil = try left ? comparison(fallback, other, op, opNode) : comparison(other, fallback, op, opNode)
            let whenThere = try left ? comparison(optional, other, op, opNode) : comparison(other, optional, op, opNode)
            return .or([.and([isNil, whenNil]), .and([.not(isNil), whenThere])])
        }
        return nil
    }

    /// `a.caseInsensitiveCompare(b) == .orderedSame` (or a `let` of it) is `a ==[c] b`; nil
    /// when the left side is no comparing call. Orders other than `.orderedSame`, and
    /// `localizedCompare`/`compare`, are refused by name.
    mutating func orderingComparison(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: ComparisonOperator) throws -> Predicate? {
        guard case .operand(let left) = lhs, let call = left.as(FunctionCallExprSyntax.self),
            let callee = call.calledExpression.as(MemberAccessExprSyntax.self), let receiver = callee.base
        else { return nil }
        let name = callee.declName.baseName.text
        switch name {
        case "caseInsensitiveCompare": break
        case "localizedCompare", "localizedCaseInsensitiveCompare", "localizedStandardCompare", "compare":
            // Even `.orderedSame` is the locale's collation, not equality: Foundation finds
            // "ＡＢＣ" and "ABC", "ア" and "あ", "A\u{AD}BC" and "ABC" the same there.
            if name != "compare", case .operand(let right) = rhs, comparisonResult(right) == "orderedSame" {
                throw refuse(
                    "\(name)(_:) == .orderedSame is the user's locale's collation, which no store repeats (it finds \"ＡＢＣ\" and \"ABC\", \"ア\" and \"あ\" the same): Quarry reads == for equal strings, and caseInsensitiveCompare(_:) == .orderedSame for strings equal but for case",
                    callee.declName)
            }
            throw refuse(
                "\(name)(_:) orders by \(name == "compare" ? "Foundation's order of strings" : "the user's locale"), which no store repeats: Quarry reads caseInsensitiveCompare(_:) == .orderedSame, and == for equal strings",
                callee.declName)
        default: return nil
        }
        guard case .operand(let right) = rhs, let order = comparisonResult(right), op == .equal || op == .notEqual,
            let argument = call.arguments.first, call.arguments.count == 1
        else {
            throw refuse("caseInsensitiveCompare(_:) is read compared with == or != .orderedSame", lhs.node)
        }
        guard order == "orderedSame" else {
            throw refuse(
                "caseInsensitiveCompare(_:) against .\(order) orders by Foundation's case folding, which a store's order does not repeat: Quarry reads it against .orderedSame",
                right)
        }
        return .comparison(Comparison(lhs: try value(receiver), op: op, rhs: try value(argument.expression), options: [.caseInsensitive]))
    }

    /// The `ComparisonResult` case `node` names: `.orderedSame`, `ComparisonResult.orderedSame`
    /// or a `let` of one.
    func comparisonResult(_ node: ExprSyntax) -> String? {
        let e = unparenthesised(node)
        if let member = e.as(MemberAccessExprSyntax.self), member.base == nil || member.base?.trimmedDescription == "ComparisonResult" {
            let name = member.declName.baseName.text
            return ["orderedSame", "orderedAscending", "orderedDescending"].contains(name) ? name : nil
        }
        if let name = e.as(DeclReferenceExprSyntax.self), scopeIndex(of: name.baseName.text) == nil {
            return orderings[Self.unescaped(name.baseName.text)]
        }
        return nil
    }

    /// `x.filter { ... }.count > 0` (or `!= 0`, `>= 1`) is `contains(where:)`, and `== 0`
    /// (`<= 0`, `< 1`) its negation, so the closure may compare a member with its object as
    /// `contains(where:)` may; nil for any other comparison.
    mutating func filterCountComparison(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: ComparisonOperator) throws -> Predicate? {
        guard case .operand(let left) = lhs, let member = unparenthesised(left).as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "count", let base = member.base, case .operand(let right) = rhs,
            let bound = right.as(IntegerLiteralExprSyntax.self).flatMap({ Self.integer($0.literal.text) })
        else { return nil }
        let some: Bool
        switch (op, bound) {
        case (.greater, 0), (.notEqual, 0), (.greaterOrEqual, 1): some = true
        case (.equal, 0), (.lessOrEqual, 0), (.less, 1): some = false
        default: return nil
        }
        guard let (receiver, closure) = try filterCall(base) else { return nil }
        let test = try quantifier(receiver, closure, all: false, at: base)
        return some ? test : .not(test)
    }

    /// The receiver and closure of `x.filter { ... }`, nil for anything else.
    func filterCall(_ node: ExprSyntax) throws -> (ExprSyntax, ClosureExprSyntax)? {
        guard let call = unparenthesised(node).as(FunctionCallExprSyntax.self),
            let callee = call.calledExpression.as(MemberAccessExprSyntax.self), callee.declName.baseName.text == "filter",
            let receiver = callee.base
        else { return nil }
        guard let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self) else {
            throw refuse("filter takes a closure", call)
        }
        return (receiver, closure)
    }

    /// `x.contains(where: closure)` (some member passes) or `x.allSatisfy(closure)`.
    mutating func quantifier(_ receiver: ExprSyntax, _ closure: ClosureExprSyntax, all: Bool, at node: some SyntaxProtocol) throws -> Predicate {
        let (collection, variable) = try subqueryCollection(receiver)
        let read = try closureBody(closure, scope: .member(variable: variable), parameterCount: 1) { t, body in
            try t.quantifiedComparison(body, over: collection, all: all)
        }
        let test: Predicate
        switch read {
        case .quantified(let comparison): return comparison
        case .member(let predicate): test = predicate
        }
        let column = columns.column(of: node)
        let count = Expression.subqueryCount(collection: collection, variable: variable, predicate: all ? .not(test) : test, column: column)
        return .comparison(Comparison(lhs: count, op: all ? .equal : .greater, rhs: .constant(.integer(0), column: column)))
    }

    /// `a / d`: by an integer literal, Swift's `/` of the dividend's type, which the binder
    /// decides once the types are known (`Binder.quotient`: integers' quotient, the fraction
    /// dropped, or reals'); by a nonzero Double constant, reals' division. By a key Swift's
    /// quotient stops the program or is infinite where the key is 0, and Quarry's is nil.
    mutating func quotient(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ node: ExprSyntax) throws -> Expression {
        let divisor = try value(rhs)
        if case .constant(.integer, _) = divisor {
            return .arithmetic(.quotient, try value(lhs), divisor, column: columns.column(of: node))
        }
        guard case .constant(.real(let d), _) = divisor, d != 0, d.isFinite else {
            throw refuse(
                "'/' is read dividing by a nonzero constant (as $0.c / 2.1, $0.a / 2; an integer other than -1): by a key Swift stops the program or gives infinity where a store gives nil",
                node)
        }
        return .arithmetic(.divide, try value(lhs), divisor, column: columns.column(of: node))
    }

    /// What to write instead of a call Quarry does not read, where there is something.
    static let instead: [String: String] = [
        "hasSuffix": "no #Predicate form ends a string test; NSPredicate's ENDSWITH does",
        "hasPrefix": "write starts(with:)",
        "lowercased": "write caseInsensitiveCompare(_:) == .orderedSame or localizedStandardContains",
        "uppercased": "write caseInsensitiveCompare(_:) == .orderedSame or localizedStandardContains",
        "max": "Quarry reads no scalar array; over a to-many relationship compare its members with contains(where:) or allSatisfy",
        "min": "Quarry reads no scalar array; over a to-many relationship compare its members with contains(where:) or allSatisfy",
        "evaluate": "a #Predicate inside another is not read: write its test in this one",
        "firstRange": "Quarry reads no regular expression in a #Predicate; NSPredicate's MATCHES does",
        "wholeMatch": "Quarry reads no regular expression in a #Predicate; NSPredicate's MATCHES does",
        "prefixMatch": "Quarry reads no regular expression in a #Predicate; NSPredicate's MATCHES does"
    ]
}
