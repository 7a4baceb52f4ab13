import CQuarrySignals
import QuarryModel
import QuarryPredicates
import QuarryStore
import SwiftSyntax

/// Values a `#Predicate` compares: literals, captured values, key paths from the closure's
/// object (through `?.`, `!`, `flatMap`), counts, and `??` of a count.
extension SwiftPredicateTranslator {
    mutating func value(_ node: ExprSyntax) throws -> Expression { try value(term(node)) }

    mutating func value(_ term: SwiftTerm) throws -> Expression {
        try enter(term.node)
        defer { leave() }
        switch term {
        case .chain(let op, _):
            throw refuse("'\(op)' gives a Bool, which a #Predicate compares with nothing here", term.node)
        case .conditional(let c, let node, let then, let otherwise):
            // Apple's TERNARY: a comparison it stands in is read of each branch (`Binder`).
            let test = try twice(node) { try $0.predicate(c) }
            return .conditional(test, try value(then), try value(otherwise), column: columns.column(of: node))
        case .infix(let op, let node, let lhs, let rhs):
            let arithmetic: [String: ArithmeticOperator] = ["+": .add, "-": .subtract, "*": .multiply, "%": .modulus]
            if op == "/" { return try quotient(lhs, rhs, node) }
            if op == "??" { return try countOrZero(lhs, rhs, node) }
            guard let a = arithmetic[op] else { throw refuse("'\(op)' gives no value a #Predicate compares", node) }
            return .arithmetic(a, try value(lhs), try value(rhs), column: columns.column(of: node))
        case .operand(let e):
            if let inner = Self.parenthesisedSequence(e) { return try value(self.term(inner)) }
            return try operandValue(unparenthesised(e))
        }
    }

    mutating func operandValue(_ e: ExprSyntax) throws -> Expression {
        let column = columns.column(of: e)
        if e.is(SubscriptCallExprSyntax.self) {
            throw refuse(
                "a subscript (\(describe(e))): Quarry reads no scalar array or dictionary, and a to-many relationship is an unordered set (compare its members with contains(where:), or its .count)",
                e)
        }
        if e.is(RegexLiteralExprSyntax.self) {
            throw refuse(
                "a regular expression (\(describe(e))): Swift's Regex matches characters, which no store's regular expressions repeat; a format string's MATCHES is read, as ICU matches it",
                e)
        }
        if let integer = e.as(IntegerLiteralExprSyntax.self) {
            guard let n = Self.integer(integer.literal.text) else { throw refuse("\(integer.literal.text) is no 64-bit integer", e) }
            return .constant(.integer(n), column: column)
        }
        if let float = e.as(FloatLiteralExprSyntax.self) {
            guard let d = Double(float.literal.text.filter { $0 != "_" }) else { throw refuse("\(float.literal.text) is no number Quarry reads", e) }
            return .constant(.real(d), column: column)
        }
        if let string = e.as(StringLiteralExprSyntax.self) {
            guard let text = string.representedLiteralValue else { throw refuse("a string with interpolation: capture the value instead", e) }
            guard SwiftComposedText.isComposed(text) else { throw refuse(SwiftComposedText.refusal, e) }
            return .constant(.text(text), column: column)
        }
        if let boolean = e.as(BooleanLiteralExprSyntax.self) { return .constant(.bool(boolean.literal.tokenKind == .keyword(.true)), column: column) }
        if e.is(NilLiteralExprSyntax.self) { return .constant(.null, column: column) }
        if let array = e.as(ArrayExprSyntax.self) {
            return .aggregate(try array.elements.map { try value($0.expression) }, column: column)
        }
        if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            // As Swift reads `-9223372036854775808`: one negative literal, Int64.min included.
            if let integer = prefix.expression.as(IntegerLiteralExprSyntax.self) {
                guard let n = Self.integer("-" + integer.literal.text) else { throw refuse("-\(integer.literal.text) is no 64-bit integer", e) }
                return .constant(.integer(n), column: column)
            }
            let inner = try value(prefix.expression)
            switch inner {
            case .constant(.integer(let n), let c) where n != Int64.min: return .constant(.integer(-n), column: c)
            case .constant(.real(let d), let c): return .constant(.real(-d), column: c)
            default: return .negate(inner, column: column)
            }
        }
        if let member = e.as(MemberAccessExprSyntax.self) {
            if let date = try dateConstant(member) { return .constant(date, column: column) }
            if let value = try field(e) { return value }
            // `$0.count` of a closure's object is its attribute named count (a SwiftData
            // model's `var count: Int`, which `p:swift()` writes so): an object has no
            // count of its own, so only a relationship's or a string's `.count` counts.
            if member.declName.baseName.text == "count", let base = member.base, !namesClosureObject(base) {
                return try count(of: base, at: member)
            }
            return try keyPath(e)
        }
        if let name = e.as(DeclReferenceExprSyntax.self) {
            let text = Self.unescaped(name.baseName.text)
            if let index = scopeIndex(of: name.baseName.text) {
                if case .bound(let expression) = scopes[index].scope {
                    try checkReachable(index, e)
                    return expression
                }
                if case .member = scopes[index].scope {
                    throw refuse(
                        "'\(text)' alone is the member itself: Quarry reads a to-many relationship's members by their keys (as \(text).name), and no scalar array ([Int], [String])",
                        e)
                }
                throw refuse("'\(text)' alone is the object itself; compare one of its keys, as \(text).name", e)
            }
            guard let captured = captures[text] else {
                throw refuse("no value for '\(text)' (give it as a captured value, by name)", e)
            }
            return PredicateParser.expression(captured, column: column)
        }
        // `(item.owner.flatMap { $0.name })?.starts(with: "a")`: the chained value is the
        // flatMap's, nil where it is nil.
        if let chain = e.as(OptionalChainingExprSyntax.self), unparenthesised(chain.expression).is(FunctionCallExprSyntax.self) {
            return try value(chain.expression)
        }
        if e.is(OptionalChainingExprSyntax.self) || e.is(ForceUnwrapExprSyntax.self) { return try keyPath(e) }
        if let call = e.as(FunctionCallExprSyntax.self) {
            // `s.values.contains([1, 2])` of constants: the Bool it gives.
            if let callee = call.calledExpression.as(MemberAccessExprSyntax.self), callee.declName.baseName.text == "contains",
                let receiver = callee.base, call.arguments.count == 1, call.arguments.first?.label == nil,
                let argument = call.arguments.first?.expression, let found = try constantContains(receiver, argument)
            {
                return .constant(.bool(found), column: column)
            }
            // `item.owner.flatMap { $0.year }`: a required key past an optional to-one.
            if let callee = call.calledExpression.as(MemberAccessExprSyntax.self), callee.declName.baseName.text == "flatMap",
                let receiver = callee.base, let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self)
            {
                let base = try value(receiver)
                return try closureBody(closure, scope: .bound(base), parameterCount: 1) { translator, body in try translator.keyOfBound(body) }
            }
            if let callee = call.calledExpression.as(MemberAccessExprSyntax.self), let instead = Self.instead[callee.declName.baseName.text] {
                throw refuse("\(callee.declName.baseName.text)(...) has no #Predicate form Quarry reads: \(instead)", callee.declName)
            }
            throw refuse(
                "\(Self.oneLine(call.calledExpression.trimmedDescription))(...) is a call the macro does not take inside the closure: capture its value in a let before it",
                call)
        }
        throw refuse("\(describe(e)) has no #Predicate form Quarry reads", e)
    }

    /// The body of a value's `flatMap`: a key of the unwrapped value (`$0.year`), nil where
    /// the value is nil, as Quarry's key path through a nil to-one is. Anything else
    /// (`$0.items.count`, `{ _ in 5 }`) has a value where Swift's flatMap gives nil.
    mutating func keyOfBound(_ body: ExprSyntax) throws -> Expression {
        let (members, current) = memberChain(body)
        let refusal = refuse("flatMap { } on a value is read only as a key of it, as { $0.name }", body)
        guard !members.isEmpty, let root = current.as(DeclReferenceExprSyntax.self), let names = scopes.last?.names,
            names.contains(root.baseName.text) || names.contains(Self.unescaped(root.baseName.text))
        else { throw refusal }
        let key = try value(body)
        guard case .keyPath(let path) = key, path.components.last?.hasPrefix("@") == false else { throw refusal }
        return key
    }

    /// `x.count`: how many members of a relationship (`tags.@count`), or how many match a
    /// filter (`filter { }.count`, a SUBQUERY's count).
    mutating func count(of base: ExprSyntax, at node: some SyntaxProtocol) throws -> Expression {
        let b = unparenthesised(base)
        if let call = b.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(MemberAccessExprSyntax.self),
            callee.declName.baseName.text == "filter", let receiver = callee.base
        {
            guard let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self) else {
                throw refuse("filter takes a closure", call)
            }
            let (collection, variable) = try subqueryCollection(receiver)
            let test = try closureBody(closure, scope: .member(variable: variable), parameterCount: 1) { t, body in try t.predicate(body) }
            return .subqueryCount(collection: collection, variable: variable, predicate: test, column: columns.column(of: call))
        }
        guard case .keyPath(var path) = try value(base) else { throw refuse(".count of something that is not a relationship", node) }
        path.components.append("@count")
        return .keyPath(path)
    }

    /// `(x?.items.count ?? 0)`: through a nil to-one the count is 0, as Quarry counts it;
    /// `(x?.count ?? 0)`, which may be a string's, 0 where `x` is nil.
    mutating func countOrZero(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: ExprSyntax) throws -> Expression {
        let left = try value(lhs)
        let fallback = try value(rhs)
        guard case .constant(.integer(0), _) = fallback else {
            // `x ?? d`: COALESCE, Apple's TERNARY(x != nil, x, d).
            let column = columns.column(of: op)
            return .conditional(
                .comparison(Comparison(lhs: left, op: .notEqual, rhs: .constant(.null, column: column))), left, fallback, column: column)
        }
        switch left {
        // Through a to-one (`owner?.items.count`); `x?.count` alone may count a string,
        // which is nil where `x` is, so it takes the conditional below.
        case .keyPath(let path) where path.components.last == "@count" && path.components.count > 2: return left
        case .keyPath(let path) where path.components.last == "@count":
            let column = columns.column(of: op)
            return .conditional(
                .comparison(Comparison(lhs: left, op: .notEqual, rhs: .constant(.null, column: column))), left, fallback, column: column)
        case .subqueryCount: return left
        default: throw refuse("?? 0 is read after a count only", op)
        }
    }

    /// The member accesses of `node` from the last (`name` of `$0.owner?.name`) to the
    /// first, through `?`, `!` and parentheses, and what they start from (`$0`).
    func memberChain(_ node: ExprSyntax) -> (members: [MemberAccessExprSyntax], root: ExprSyntax) {
        var members: [MemberAccessExprSyntax] = []
        var current = unparenthesised(node)
        while true {
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
                members.append(member)
                current = unparenthesised(base)
            } else if let chain = current.as(OptionalChainingExprSyntax.self) {
                current = unparenthesised(chain.expression)
            } else if let unwrap = current.as(ForceUnwrapExprSyntax.self) {
                current = unparenthesised(unwrap.expression)
            } else {
                return (members, current)
            }
        }
    }

    /// `$0.owner?.name`, `car.tags`, `$0.owner!.name`: a key path from a closure variable.
    mutating func keyPath(_ node: ExprSyntax) throws -> Expression {
        var components: [String] = []
        let (members, current) = memberChain(node)
        for member in members {
            let name = Self.unescaped(member.declName.baseName.text)
            // Swift takes `a$b` and `` `a b` ``; a format string's key, which the
            // predicate is also written as, takes letters, digits and _ only.
            guard let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw refuse("'\(name)' is no key a predicate names (letters, digits and _)", member.declName)
            }
            components.insert(name, at: 0)
        }
        let column = columns.column(of: node)
        guard let root = current.as(DeclReferenceExprSyntax.self), let index = scopeIndex(of: root.baseName.text) else {
            // `CodingLanguage.swift`, `Priority.high.rawValue`: a case or static of the
            // app's own type, whose stored value only the app's source says.
            if let type = current.as(DeclReferenceExprSyntax.self)?.baseName.text, type.first?.isUppercase == true, let first = members.last {
                throw refuse(
                    "\(Self.oneLine(first.trimmedDescription)) is a value of the app's type \(type), which Quarry has not: give the value the store keeps (an enum's raw value) by name, as a captured value, or write it",
                    current)
            }
            throw refuse("a key path starts from the closure's object ($0 or its name), not \(describe(current))", current)
        }
        try checkReachable(index, current)
        switch scopes[index].scope {
        case .root, .member:
            guard !components.isEmpty else { throw refuse("the object itself cannot be compared here", node) }
            return .keyPath(KeyPath(components, column: column))
        case .bound(let expression):
            if components.isEmpty { return expression }
            guard case .keyPath(let base) = expression else { throw refuse("a key of a value that is not an object", node) }
            return .keyPath(KeyPath(base.components + components, column: column))
        }
    }

    /// Key paths inside a member's closure are relative to that member: a key of an outer
    /// object there has no SUBQUERY form, but for one side of the comparison a
    /// `contains(where:)` or `allSatisfy` reads as ANY/ALL (`quantifying`).
    mutating func checkReachable(_ index: Int, _ node: some SyntaxProtocol) throws {
        for i in quantifying.indices where quantifying[i].scope == index { quantifying[i].readsMember = true }
        let members = scopes.indices.dropFirst(index + 1).filter { if case .member = scopes[$0].scope { return true } else { return false } }
        guard !members.isEmpty else { return }
        guard members.count == 1, let last = quantifying.indices.last, quantifying[last].scope == members[0] else {
            throw refuse(
                "a key of an outer object inside contains(where:), allSatisfy or filter: NSPredicate's SUBQUERY reads only its member's keys, and ANY/ALL one comparison of a member's key with the object's (as { m in m.salary > dept.budget })",
                node)
        }
        quantifying[last].readsOuter = true
    }

    /// Whether `e` is a closure's parameter itself (`$0`, `item`), not a key of it.
    func namesClosureObject(_ e: ExprSyntax) -> Bool {
        guard let name = unparenthesised(e).as(DeclReferenceExprSyntax.self) else { return false }
        return scopeIndex(of: name.baseName.text) != nil
    }

    func scopeIndex(of name: String) -> Int? {
        scopes.lastIndex { $0.names.contains(name) || $0.names.contains(Self.unescaped(name)) }
    }
}
