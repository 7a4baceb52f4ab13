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
    var subqueries = 0
    /// How deep the reading has recursed, bounded as the format grammar's nesting is.
    private(set) var depth = 0
    /// Values and tests read so far, to ask every so many whether to stop (Ctrl-C, --timeout).
    var steps = 0
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
    var copies = 1
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
            @unknown default:
                // The toolchain's swift-syntax is built for library evolution: a later one may add a form.
                throw refuse("this closure's parameters are written in a form this reader does not know", clause)
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
    mutating func enter(_ node: some SyntaxProtocol) throws {
        depth += 1
        if depth > PredicateParser.maximumDepth { throw PredicateParser.nestingError(column: columns.column(of: node)) }
        steps += 1
        if steps % 1024 == 0 { try Self.stopIfAsked(column: columns.column(of: node)) }
    }

    /// The level `enter` went into, left.
    mutating func leave() { depth -= 1 }

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
            // `searchText.isEmpty`, of a captured String: known as the text is read, as the
            // app's search field makes `searchText.isEmpty || $0.name.localizedStandardContains(searchText)`.
            if let name = unparenthesised(base).as(DeclReferenceExprSyntax.self), scopeIndex(of: name.baseName.text) == nil,
                case .constant(.text(let text), _) = try value(base)
            {
                return .constant(text.isEmpty)
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
    mutating func method(_ call: FunctionCallExprSyntax) throws -> Predicate {
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
