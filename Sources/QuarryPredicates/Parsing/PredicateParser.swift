import QuarryStore

/// What fills a format string's `%@`, `%K`, `%d`, `%f`, `%s` (in order) and `$NAME`s.
public struct PredicateArguments {
    public var positional: [Value]
    public var variables: [String: Value]
    public init(_ positional: [Value] = [], variables: [String: Value] = [:]) {
        self.positional = positional
        self.variables = variables
    }
}

/// Parses NSPredicate format strings, with Apple's precedence (OR < AND < NOT <
/// comparison) and reserved words in any case. Substitutions are resolved here, so the
/// tree holds values, never text to splice into SQL.
public struct PredicateParser {
    private var tokens: [Token] = []
    private var position = 0
    private var arguments: PredicateArguments
    private var nextArgument = 0

    public static func parse(_ format: String, arguments: PredicateArguments = PredicateArguments()) throws -> Predicate {
        var parser = PredicateParser(arguments: arguments)
        var lexer = Lexer(format)
        parser.tokens = try lexer.tokens()
        if parser.tokens.first?.kind == .end { throw PredicateError("the predicate is empty", column: 1) }
        let predicate = try parser.parseOr()
        guard parser.current.kind == .end else {
            throw PredicateError("unexpected \(parser.describe(parser.current)) after a complete predicate", column: parser.current.column)
        }
        return predicate
    }

    private init(arguments: PredicateArguments) { self.arguments = arguments }

    private var current: Token { tokens[position] }
    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func isWord(_ word: String) -> Bool {
        if case .identifier(let name) = current.kind { return name.uppercased() == word }
        return false
    }
    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    private mutating func parseOr() throws -> Predicate {
        var terms = [try parseAnd()]
        while isWord("OR") || isSymbol("||") { advance(); terms.append(try parseAnd()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws -> Predicate {
        var terms = [try parseNot()]
        while isWord("AND") || isSymbol("&&") { advance(); terms.append(try parseNot()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot() throws -> Predicate {
        if isWord("NOT") || isSymbol("!") { advance(); return .not(try parseNot()) }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> Predicate {
        if isSymbol("(") {
            let open = current.column
            advance()
            let inner = try parseOr()
            guard isSymbol(")") else {
                throw PredicateError("expected ')' to close the '(' at column \(open), found \(describe(current))", column: current.column)
            }
            advance()
            return inner
        }
        if isWord("TRUEPREDICATE") { advance(); return .constant(true) }
        if isWord("FALSEPREDICATE") { advance(); return .constant(false) }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> Predicate {
        let lhs = try parseExpression()
        guard case .symbol(let symbol) = current.kind, let op = ComparisonOperator(rawValue: symbol) else {
            throw PredicateError("expected a comparison operator such as ==, <, >, found \(describe(current))", column: current.column)
        }
        advance()
        let options = try parseOptions()
        let rhs = try parseExpression()
        return .comparison(Comparison(lhs: lhs, op: op, rhs: rhs, options: options))
    }

    private mutating func parseOptions() throws -> ComparisonOptions {
        guard isSymbol("[") else { return [] }
        let start = current.column
        advance()
        guard case .identifier(let letters) = current.kind else {
            throw PredicateError("expected c, d or cd inside [ ]", column: current.column)
        }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n", "l": break  // normalized / locale-sensitive: no effect on the answer
            default: throw PredicateError("unknown comparison option '\(letter)' (use c, d or cd)", column: current.column)
            }
        }
        advance()
        guard isSymbol("]") else { throw PredicateError("expected ']' to close the '[' at column \(start)", column: current.column) }
        advance()
        return options
    }

    private mutating func parseExpression() throws -> Expression {
        let token = current
        switch token.kind {
        case .string(let s): advance(); return .constant(.text(s), column: token.column)
        case .integer(let i): advance(); return .constant(.integer(i), column: token.column)
        case .real(let d): advance(); return .constant(.real(d), column: token.column)
        case .substitution(let kind):
            advance()
            return try substitute(kind, at: token.column)
        case .variable(let name):
            advance()
            guard let value = arguments.variables[name] else {
                throw PredicateError("no value for $\(name) (pass it in vars)", column: token.column)
            }
            return .constant(value, column: token.column)
        case .identifier(let name):
            switch name.uppercased() {
            case "NULL", "NIL": advance(); return .constant(.null, column: token.column)
            case "TRUE", "YES": advance(); return .constant(.bool(true), column: token.column)
            case "FALSE", "NO": advance(); return .constant(.bool(false), column: token.column)
            default: return .keyPath(try parseKeyPath())
            }
        case .symbol("-"):
            advance()
            switch current.kind {
            case .integer(let i): advance(); return .constant(.integer(-i), column: token.column)
            case .real(let d): advance(); return .constant(.real(-d), column: token.column)
            default: throw PredicateError("expected a number after '-'", column: current.column)
            }
        default:
            throw PredicateError("expected a key path or a value, found \(describe(token))", column: token.column)
        }
    }

    private static let reserved: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "ANY", "ALL", "NONE", "SOME", "SUBQUERY", "TRUEPREDICATE", "FALSEPREDICATE", "NULL", "NIL",
        "TRUE", "FALSE", "YES", "NO", "SELF", "FIRST", "LAST", "SIZE", "CAST", "FUNCTION",
    ]

    private mutating func parseKeyPath() throws -> KeyPath {
        let start = current.column
        var components: [String] = []
        while true {
            guard case .identifier(var name) = current.kind else {
                throw PredicateError("expected a key after '.', found \(describe(current))", column: current.column)
            }
            if name.hasPrefix("#") { name.removeFirst() }  // '#name' escapes a reserved word
            else if Self.reserved.contains(name.uppercased()) {
                throw PredicateError("'\(name)' is a reserved word and cannot be used as a key here (write #\(name) for a key of that name)", column: current.column)
            }
            components.append(name)
            advance()
            guard isSymbol(".") else { break }
            advance()
        }
        return KeyPath(components, column: start)
    }

    private mutating func substitute(_ kind: Character, at column: Int) throws -> Expression {
        guard nextArgument < arguments.positional.count else {
            throw PredicateError("%\(kind) has no argument (\(arguments.positional.count) given)", column: column)
        }
        let value = arguments.positional[nextArgument]
        nextArgument += 1
        switch kind {
        case "K":
            guard case .text(let path) = value else {
                throw PredicateError("%K takes a key path string, got \(value.kindName)", column: column)
            }
            guard let keyPath = Self.keyPath(path, column: column) else {
                throw PredicateError("%K takes a key path such as 'owner.name', got '\(path)'", column: column)
            }
            return .keyPath(keyPath)
        case "d":
            switch value {
            case .integer: return .constant(value, column: column)
            case .real(let d) where d == d.rounded() && abs(d) < 9e18: return .constant(.integer(Int64(d)), column: column)
            default: throw PredicateError("%d takes an integer, got \(value.kindName)", column: column)
            }
        case "f":
            switch value {
            case .real: return .constant(value, column: column)
            case .integer(let i): return .constant(.real(Double(i)), column: column)
            default: throw PredicateError("%f takes a number, got \(value.kindName)", column: column)
            }
        case "s":
            guard case .text = value else { throw PredicateError("%s takes a string, got \(value.kindName)", column: column) }
            return .constant(value, column: column)
        default:
            return .constant(value, column: column)
        }
    }

    /// A `%K` argument as a key path: dot-separated names, nothing else.
    static func keyPath(_ text: String, column: Int) -> KeyPath? {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let valid = components.allSatisfy { c in
            guard let first = c.first, first.isLetter || first == "_" else { return false }
            return c.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
        return valid ? KeyPath(components, column: column) : nil
    }

    private func describe(_ token: Token) -> String {
        switch token.kind {
        case .identifier(let s): return "'\(s)'"
        case .string(let s): return "string \"\(s)\""
        case .integer(let i): return "number \(i)"
        case .real(let d): return "number \(d)"
        case .symbol(let s): return "'\(s)'"
        case .substitution(let c): return "'%\(c)'"
        case .variable(let v): return "'$\(v)'"
        case .end: return "the end of the predicate"
        }
    }
}
