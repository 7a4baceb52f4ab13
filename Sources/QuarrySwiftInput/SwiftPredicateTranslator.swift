import CQuarrySignals
import QuarryModel
import QuarryPredicates
import QuarryStore
import SwiftSyntax

/// What a closure variable stands for while its body is read.
enum SwiftClosureScope {
    /// The object the predicate tests: its keys are the predicate's key paths.
    case root
    /// A member of a to-many relationship (`contains(where:)`, `allSatisfy`, `filter`):
    /// a SUBQUERY's variable, whose keys are relative to the member.
    case member(variable: String)
    /// The unwrapped value of `flatMap`: stands for an expression of the outer scope.
    case bound(Expression)
}

/// Maps a folded Swift expression onto Quarry's predicate tree (see `SwiftPredicateReader`).
struct SwiftPredicateTranslator {
    let columns: SourceColumns
    private(set) var captures: [String: PredicateArgument]
    /// Innermost last: each closure's parameter names and what they stand for.
    private(set) var scopes: [(names: Set<String>, scope: SwiftClosureScope)] = []
    private var subqueries = 0
    /// How deep the reading has recursed, bounded as the format grammar's nesting is.
    private(set) var depth = 0
    /// Values and tests read so far, to ask every so many whether to stop (Ctrl-C, --timeout).
    private var steps = 0
    /// The `contains(where:)` and `allSatisfy` closures whose comparison may name their
    /// outer object (read as ANY/ALL): each member's scope, and whether the side being
    /// read named keys of the member and of an outer object.
    var quantifying: [(scope: Int, readsMember: Bool, readsOuter: Bool)] = []
    /// Ranges captured in `let`s before the macro (`let r = 1 ..< 5`), by name.
    var ranges: [String: SwiftRange] = [:]
    /// `ComparisonResult` cases captured in `let`s (`let same = ComparisonResult.orderedSame`).
    var orderings: [String: String] = [:]
    /// `#Predicate`s defined before the one read (`let a = #Predicate<T> { ... }`), by name.
    var definitions: [String: Definition] = [:]
    /// How many of `definitions` the text being read may evaluate: those defined before it.
    var visibleDefinitions = Int.max
    /// How many `evaluate` calls were read in place so far: definitions that each evaluate
    /// the one before twice would grow as 2^n (`evaluation` bounds it).
    var evaluationsRead = 0
    /// Structs captured in `let`s (`let s = S(a: 1)`): their fields, by name.
    var structs: [String: [String: PredicateArgument]] = [:]
    /// The type the `#Predicate` read tests (`#Predicate<T>`), when it names one.
    var rootType: String?
    /// How many times what is being read will stand in the tree: a conditional writes its
    /// test twice (`(c && a) || (!c && b)`), so conditionals nested in conditions double at
    /// each level, and are bounded (`twice`).
    private var copies = 1
    static let maxCopies = 64

    init(columns: SourceColumns, captures: [String: PredicateArgument]) {
        self.columns = columns
        self.captures = captures
    }

    func refuse(_ message: String, _ node: some SyntaxProtocol) -> PredicateError {
        PredicateError(.unsupported, message, column: columns.column(of: node))
    }

    /// `body`, whose result the tree will hold twice (a conditional's test, the other side
    /// of a comparison with a conditional); refused past `maxCopies`, as 35 conditionals
    /// nested in conditions would be 2^35 nodes.
    mutating func twice<T>(_ node: some SyntaxProtocol, _ body: (inout Self) throws -> T) throws -> T {
        guard copies < Self.maxCopies else {
            throw refuse("conditionals (?:) nested in conditions more than 6 deep: each condition is tested twice, so write a simpler test", node)
        }
        copies *= 2
        defer { copies /= 2 }
        return try body(&self)
    }

    /// A `let` before the macro: its value, as a captured value of that name.
    mutating func capture(_ name: String, _ value: PredicateArgument) { captures[name] = value }

    // MARK: Closures

    /// Reads a closure's single expression with its parameter standing for `scope`.
    mutating func closureBody<T>(
        _ closure: ClosureExprSyntax, scope: SwiftClosureScope, parameterCount: Int,
        _ read: (inout SwiftPredicateTranslator, ExprSyntax) throws -> T
    ) throws -> T {
        var names: Set<String> = ["$0"]
        if let clause = closure.signature?.parameterClause {
            switch clause {
            case .simpleInput(let list):
                names = Set(list.map(\.name.text))
            case .parameterClause(let parameters):
                names = Set(parameters.parameters.map { ($0.secondName ?? $0.firstName).text })
            }
            guard names.count == parameterCount else {
                throw refuse("this closure takes \(parameterCount) parameter\(parameterCount == 1 ? "" : "s")", clause)
            }
        }
        guard closure.statements.count == 1, let item = closure.statements.first else {
            throw refuse("a #Predicate closure holds one expression (no statements, no let)", closure)
        }
        let body: ExprSyntax
        switch item.item {
        case .expr(let expression): body = expression
        case .stmt(let statement):
            guard let returned = statement.as(ReturnStmtSyntax.self)?.expression else {
                throw refuse("a #Predicate closure holds one expression, not this statement", statement)
            }
            body = returned
        default:
            throw refuse("a #Predicate closure holds one expression, not a declaration", item)
        }
        scopes.append((names, scope))
        defer { scopes.removeLast() }
        return try read(&self, body)
    }

    // MARK: Predicates

    /// One more level of reading, bounded as `PredicateParser` bounds its nesting; every
    /// 1,024 steps, stops when Ctrl-C or --timeout asks (as SQLite's progress handler does).
    private mutating func enter(_ node: some SyntaxProtocol) throws {
        depth += 1
        if depth > PredicateParser.maximumDepth { throw PredicateParser.nestingError(column: columns.column(of: node)) }
        steps += 1
        if steps % 1024 == 0 { try Self.stopIfAsked(column: columns.column(of: node)) }
    }

    /// Throws when Ctrl-C or --timeout asks running work to stop, saying which, as the Lua
    /// hook and SQLite's progress handler do.
    static func stopIfAsked(column: Int?) throws {
        guard quarry_should_stop() != 0 else { return }
        let interruption = Interruption.now(stopping: .work)
        throw PredicateError(.interrupted(interruption), interruption.said, column: column)
    }

    mutating func predicate(_ node: ExprSyntax) throws -> Predicate { try predicate(term(node)) }

    mutating func predicate(_ term: SwiftTerm) throws -> Predicate {
        try enter(term.node)
        defer { depth -= 1 }
        switch term {
        case .chain(let op, let terms):
            var parts: [Predicate] = []
            for t in terms {
                switch (try predicate(t), op) {
                case (.and(let ps), "&&"), (.or(let ps), "||"): parts += ps
                case (let p, _): parts.append(p)
                }
            }
            return op == "&&" ? .and(parts) : .or(parts)
        case .infix(let op, let node, let lhs, let rhs):
            switch op {
            case "??": return try coalesced(lhs, rhs)
            case "==", "!=", "<", "<=", ">", ">=": return try comparison(lhs, rhs, op, node)
            default: throw refuse("'\(op)' does not give a Bool a #Predicate can test", node)
            }
        case .conditional(let condition, let node, let then, let otherwise):
            // Two-valued, as Swift decides it: the condition holds and so does `then`, or not and `otherwise`.
            let test = try twice(node) { try $0.predicate(condition) }
            return .or([.and([test, try predicate(then)]), .and([.not(test), try predicate(otherwise)])])
        case .operand(let e):
            // A parenthesised sequence (`(a || b) && c`) is folded as it is reached.
            if let inner = Self.parenthesisedSequence(e) { return try predicate(self.term(inner)) }
            return try operandPredicate(unparenthesised(e))
        }
    }

    mutating func operandPredicate(_ e: ExprSyntax) throws -> Predicate {
        if let literal = e.as(BooleanLiteralExprSyntax.self) { return .constant(literal.literal.tokenKind == .keyword(.true)) }
        if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return .not(try predicate(prefix.expression))
        }
        if let call = e.as(FunctionCallExprSyntax.self) { return try method(call) }
        if let member = e.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isEmpty", let base = member.base {
            // `x.filter { ... }.isEmpty`: no member passes, as !contains(where:) reads it.
            if let (receiver, closure) = try filterCall(base) { return .not(try quantifier(receiver, closure, all: false, at: base)) }
            // `(x ?? "").isEmpty`, `(c ? a : b).isEmpty`: its length 0, of each branch.
            if let inner = Self.parenthesisedSequence(base), case let t = try term(inner), t.isConditionalValue {
                let column = columns.column(of: member)
                let length = try value(t).keyed(KeyPath(["length"], column: column))
                return .comparison(Comparison(lhs: length, op: .equal, rhs: .constant(.integer(0), column: column)))
            }
            return .comparison(
                Comparison(lhs: try count(of: base, at: member), op: .equal, rhs: .constant(.integer(0), column: columns.column(of: member))))
        }
        if e.is(MemberAccessExprSyntax.self) || e.is(DeclReferenceExprSyntax.self) || e.is(ForceUnwrapExprSyntax.self) {
            // A Bool key (`$0.isActive`) or a captured Bool.
            let value = try value(e)
            if case .constant(.bool(let b), _) = value { return .constant(b) }
            return .comparison(Comparison(lhs: value, op: .equal, rhs: .constant(.bool(true), column: columns.column(of: e))))
        }
        throw refuse("\(describe(e)) has no #Predicate form Quarry reads", e)
    }

    static let comparisonOperators: [String: ComparisonOperator] = [
        "==": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual
    ]

    mutating func comparison(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: String, _ opNode: ExprSyntax) throws -> Predicate {
        guard let comparisonOperator = Self.comparisonOperators[op] else { throw refuse("unknown comparison '\(op)'", opNode) }
        if let test = try testComparedWithBool(lhs, rhs, comparisonOperator) { return test }
        if let same = objectComparedWithItself(lhs, rhs, comparisonOperator) { return same }
        if let distributed = try conditionalComparison(lhs, rhs, op, opNode) { return distributed }
        if let ordering = try orderingComparison(lhs, rhs, comparisonOperator) { return ordering }
        if let quantified = try filterCountComparison(lhs, rhs, comparisonOperator) { return quantified }
        return .comparison(Comparison(lhs: try value(lhs), op: comparisonOperator, rhs: try value(rhs)))
    }

    /// Calls that give a Bool: string tests, membership, quantifiers.
    private mutating func method(_ call: FunctionCallExprSyntax) throws -> Predicate {
        guard let callee = call.calledExpression.as(MemberAccessExprSyntax.self), let receiver = callee.base else {
            throw refuse("\(Self.oneLine(call.calledExpression.trimmedDescription))(...) is a function call, which #Predicate does not take", call)
        }
        let name = callee.declName.baseName.text
        let labels = call.arguments.map { $0.label?.text }
        let closure = call.trailingClosure ?? (labels == ["where"] ? call.arguments.first?.expression.as(ClosureExprSyntax.self) : nil)
        if name == "evaluate", let nested = try evaluation(receiver, call) { return nested }
        if name == "contains", labels == [nil], let argument = call.arguments.first?.expression,
            let found = try constantContains(receiver, argument)
        {
            return .constant(found)
        }
        switch name {
        case "contains" where closure != nil, "allSatisfy":
            guard let closure else { throw refuse("allSatisfy takes a closure", call) }
            return try quantifier(receiver, closure, all: name == "allSatisfy", at: call)
        case "contains" where labels == [nil], "starts" where labels == ["with"], "localizedStandardContains" where labels == [nil]:
            guard let argument = call.arguments.first?.expression else { throw refuse("\(name) takes one argument", call) }
            if name == "contains", let membership = try membership(receiver, argument) { return membership }
            let op: ComparisonOperator = name == "starts" ? .beginsWith : .contains
            let (lhs, rhs) = (try value(receiver), try value(argument))
            // Foundation finds no empty string (`range(of: "")` is nil): the search field before the user types selects nothing.
            if name == "localizedStandardContains", case .constant(.text(""), _) = rhs { return .constant(false) }
            // Swift's `contains("")` holds for every string, where CONTAINS, as NSString
            // searches, finds no empty string: the string is there, or the pattern is empty.
            if name == "contains" {
                let there = Predicate.comparison(Comparison(lhs: lhs, op: .notEqual, rhs: .constant(.null, column: lhs.column)))
                if case .constant(.text(""), _) = rhs { return there }
                if case .constant = rhs {
                    return .comparison(Comparison(lhs: lhs, op: .contains, rhs: rhs))
                }
                let empty = Predicate.comparison(Comparison(lhs: rhs, op: .equal, rhs: .constant(.text(""), column: rhs.column)))
                return .or([.and([there, empty]), .comparison(Comparison(lhs: lhs, op: .contains, rhs: rhs))])
            }
            return .comparison(
                Comparison(lhs: lhs, op: op, rhs: rhs, options: name == "localizedStandardContains" ? [.caseInsensitive, .diacriticInsensitive] : []))
        default:
            throw refuse(
                "\(name)(...) has no #Predicate form Quarry reads (contains, starts(with:), localizedStandardContains, allSatisfy, filter { }.count)\(Self.instead[name].map { ": " + $0 } ?? "")",
                callee.declName)
        }
    }

    /// The to-many key path a quantifier or filter ranges over, and a fresh variable.
    mutating func subqueryCollection(_ receiver: ExprSyntax) throws -> (KeyPath, String) {
        guard case .keyPath(let path) = try value(receiver) else {
            throw refuse("contains(where:), allSatisfy and filter range over a relationship of the object", receiver)
        }
        subqueries += 1
        return (path, "v\(subqueries)")
    }

    // MARK: Values

    mutating func value(_ node: ExprSyntax) throws -> Expression { try value(term(node)) }

    mutating func value(_ term: SwiftTerm) throws -> Expression {
        try enter(term.node)
        defer { depth -= 1 }
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

    private mutating func operandValue(_ e: ExprSyntax) throws -> Expression {
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
            if member.declName.baseName.text == "count", let base = member.base { return try count(of: base, at: member) }
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
    private mutating func keyOfBound(_ body: ExprSyntax) throws -> Expression {
        var current = unparenthesised(body)
        var depth = 0
        while true {
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
                depth += 1
                current = unparenthesised(base)
            } else if let chain = current.as(OptionalChainingExprSyntax.self) {
                current = unparenthesised(chain.expression)
            } else if let unwrap = current.as(ForceUnwrapExprSyntax.self) {
                current = unparenthesised(unwrap.expression)
            } else {
                break
            }
        }
        let refusal = refuse("flatMap { } on a value is read only as a key of it, as { $0.name }", body)
        guard depth > 0, let root = current.as(DeclReferenceExprSyntax.self), let names = scopes.last?.names,
            names.contains(root.baseName.text) || names.contains(Self.unescaped(root.baseName.text))
        else { throw refusal }
        let key = try value(body)
        guard case .keyPath(let path) = key, path.components.last?.hasPrefix("@") == false else { throw refusal }
        return key
    }

    /// `x.count`: how many members of a relationship (`tags.@count`), or how many match a
    /// filter (`filter { }.count`, a SUBQUERY's count).
    private mutating func count(of base: ExprSyntax, at node: some SyntaxProtocol) throws -> Expression {
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
    private mutating func countOrZero(_ lhs: SwiftTerm, _ rhs: SwiftTerm, _ op: ExprSyntax) throws -> Expression {
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

    /// `$0.owner?.name`, `car.tags`, `$0.owner!.name`: a key path from a closure variable.
    private mutating func keyPath(_ node: ExprSyntax) throws -> Expression {
        var components: [String] = []
        var current = unparenthesised(node)
        while true {
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
                let name = Self.unescaped(member.declName.baseName.text)
                // Swift takes `a$b` and `` `a b` ``; a format string's key, which the
                // predicate is also written as, takes letters, digits and _ only.
                guard let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    throw refuse("'\(name)' is no key a predicate names (letters, digits and _)", member.declName)
                }
                components.insert(name, at: 0)
                current = unparenthesised(base)
            } else if let chain = current.as(OptionalChainingExprSyntax.self) {
                current = unparenthesised(chain.expression)
            } else if let unwrap = current.as(ForceUnwrapExprSyntax.self) {
                current = unparenthesised(unwrap.expression)
            } else {
                break
            }
        }
        let column = columns.column(of: node)
        guard let root = current.as(DeclReferenceExprSyntax.self), let index = scopeIndex(of: root.baseName.text) else {
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
    private mutating func checkReachable(_ index: Int, _ node: some SyntaxProtocol) throws {
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

    func scopeIndex(of name: String) -> Int? {
        scopes.lastIndex { $0.names.contains(name) || $0.names.contains(Self.unescaped(name)) }
    }

    // MARK: Helpers

    /// The operator sequence `node` holds inside parentheses, if it is one.
    static func parenthesisedSequence(_ node: ExprSyntax) -> ExprSyntax? {
        guard let tuple = node.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil else {
            return nil
        }
        return only.expression
    }

    func unparenthesised(_ node: ExprSyntax) -> ExprSyntax {
        var e = node
        while let tuple = e.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            e = only.expression
        }
        return e
    }

    func describe(_ node: some SyntaxProtocol) -> String {
        let text = Self.oneLine(node.trimmedDescription)
        return "'" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "'"
    }

    /// Source text for a one-line refusal: a line break is shown as a space.
    static func oneLine(_ text: String) -> String { String(text.map { $0.isNewline ? " " : $0 }) }

    static func unescaped(_ name: String) -> String {
        name.count >= 2 && name.hasPrefix("`") && name.hasSuffix("`") ? String(name.dropFirst().dropLast()) : name
    }

    static func integer(_ literal: String) -> Int64? {
        var digits = literal.filter { $0 != "_" }
        let sign = digits.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { digits.removeFirst() }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            return Int64(sign + digits.dropFirst(2), radix: radix)
        }
        return Int64(sign + digits)
    }
}
