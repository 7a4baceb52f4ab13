import QuarryStore

/// One argument for a substitution: a value, or a list (for `IN %@`).
public enum PredicateArgument: Equatable, Sendable {
    case value(Value)
    case list([Value])
    /// An object (`owner == %@`, `SELF == %@`), or a list of them (`SELF IN %@`).
    case object(ObjectReference)
    case objects([ObjectReference])

    var kindName: String {
        switch self {
        case .value(let v): return v.kindName
        case .list: return "list"
        case .object: return "object"
        case .objects: return "list of objects"
        }
    }
}

/// What fills a format string's `%@`, `%K`, `%d`, `%f`, `%s` (in order) and `$NAME`s.
public struct PredicateArguments {
    public var positional: [PredicateArgument]
    public var variables: [String: PredicateArgument]

    public init(_ positional: [Value] = [], variables: [String: Value] = [:]) {
        self.positional = positional.map(PredicateArgument.value)
        self.variables = variables.mapValues(PredicateArgument.value)
    }

    public init(arguments: [PredicateArgument], variables: [String: PredicateArgument]) {
        self.positional = arguments
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
    /// Variables of the SUBQUERYs being parsed: `$t.name` is a key path of the member.
    private var subqueryVariables: [String] = []
    /// Nesting of parentheses and NOTs, bounded so hostile input cannot exhaust the stack.
    private var depth = 0
    static let maximumDepth = 256

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

    /// Consumes `symbol`, or fails with `message` at the current column.
    private mutating func expect(_ symbol: String, _ message: String) throws {
        guard isSymbol(symbol) else { throw PredicateError(message, column: current.column) }
        advance()
    }

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
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw PredicateError("the predicate nests more than \(Self.maximumDepth) levels deep", column: current.column)
        }
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

    private static let wordOperators: [String: ComparisonOperator] = [
        "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "CONTAINS": .contains, "LIKE": .like,
        "MATCHES": .matches, "IN": .in, "BETWEEN": .between,
    ]

    private mutating func parseComparison() throws -> Predicate {
        var modifier = Quantifier.direct
        for word in ["ANY", "SOME", "ALL", "NONE"] where isWord(word) {
            modifier = Quantifier(rawValue: word)!
            advance()
            break
        }
        let lhs = try parseExpression()
        let opColumn = current.column
        let op: ComparisonOperator
        switch current.kind {
        case .symbol(let symbol) where ComparisonOperator(rawValue: symbol) != nil:
            op = ComparisonOperator(rawValue: symbol)!
        case .identifier(let word) where Self.wordOperators[word.uppercased()] != nil:
            op = Self.wordOperators[word.uppercased()]!
        default:
            throw PredicateError("expected a comparison operator such as ==, <, BEGINSWITH or IN, found \(describe(current))", column: current.column)
        }
        advance()
        let options = try parseOptions()
        let rhs = try parseExpression()
        if op == .between {
            guard case .aggregate(let bounds, _) = rhs, bounds.count == 2 else {
                throw PredicateError("BETWEEN needs two bounds, as BETWEEN {1, 10}", column: opColumn)
            }
        }
        return .comparison(Comparison(lhs: lhs, op: op, rhs: rhs, options: options, modifier: modifier))
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
        case .integerMagnitudeOverflow: advance(); return .constant(.real(9223372036854775808.0), column: token.column)
        case .substitution(let kind):
            advance()
            return try substitute(kind, at: token.column)
        case .variable(let name) where subqueryVariables.contains(name):
            advance()
            guard isSymbol(".") else {
                throw PredicateError("$\(name) alone is the member itself; compare one of its keys, as $\(name).name", column: token.column)
            }
            advance()
            return .keyPath(try parseKeyPath())
        case .identifier(let name) where name.uppercased() == "SUBQUERY":
            return try parseSubquery()
        case .variable(let name):
            advance()
            guard let value = arguments.variables[name] else {
                throw PredicateError("no value for $\(name) (pass it in vars)", column: token.column)
            }
            return Self.expression(value, column: token.column)
        case .symbol("{"):
            advance()
            var elements: [Expression] = []
            if !isSymbol("}") {
                while true {
                    elements.append(try parseExpression())
                    if isSymbol(",") { advance(); continue }
                    break
                }
            }
            guard isSymbol("}") else {
                throw PredicateError("expected ',' or '}' in the list opened at column \(token.column), found \(describe(current))", column: current.column)
            }
            advance()
            return .aggregate(elements, column: token.column)
        case .identifier(let name) where name.uppercased() == "CAST":
            return try parseCast()
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
            case .integerMagnitudeOverflow: advance(); return .constant(.integer(Int64.min), column: token.column)
            default: throw PredicateError("expected a number after '-'", column: current.column)
            }
        default:
            throw PredicateError("expected a key path or a value, found \(describe(token))", column: token.column)
        }
    }

    static let reserved: Set<String> = [
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
            else if name.uppercased() == "SELF", components.isEmpty {
                advance()
                return KeyPath(["SELF"], column: start)
            }
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
        let argument = arguments.positional[nextArgument]
        nextArgument += 1
        guard case .value(let value) = argument else {
            if kind == "@" { return Self.expression(argument, column: column) }
            throw PredicateError("%\(kind) takes a single value, got \(argument.kindName)", column: column)
        }
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

    private static func expression(_ argument: PredicateArgument, column: Int) -> Expression {
        switch argument {
        case .value(let v): return .constant(v, column: column)
        case .list(let vs): return .aggregate(vs.map { .constant($0, column: column) }, column: column)
        case .object(let o): return .object(o, column: column)
        case .objects(let os): return .aggregate(os.map { .object($0, column: column) }, column: column)
        }
    }

    /// `SUBQUERY(tags, $t, $t.name BEGINSWITH 'a').@count`.
    private mutating func parseSubquery() throws -> Expression {
        let start = current.column
        advance()
        try expect("(", "expected '(' after SUBQUERY")
        guard case .identifier = current.kind else { throw PredicateError("SUBQUERY needs a to-many key path first", column: current.column) }
        let collection = try parseKeyPath()
        try expect(",", "expected ',' after the SUBQUERY's key path")
        guard case .variable(let variable) = current.kind else {
            throw PredicateError("SUBQUERY needs a variable such as $t second", column: current.column)
        }
        advance()
        try expect(",", "expected ',' after the SUBQUERY's variable")
        subqueryVariables.append(variable)
        let predicate = try parseOr()
        subqueryVariables.removeLast()
        try expect(")", "expected ')' to close the SUBQUERY at column \(start)")
        guard isSymbol("."), position + 1 < tokens.count, case .identifier(let count) = tokens[position + 1].kind, count.lowercased() == "@count" else {
            throw PredicateError("a SUBQUERY is used as SUBQUERY(...).@count here", column: current.column)
        }
        advance(); advance()
        return .subqueryCount(collection: collection, variable: variable, predicate: predicate, column: start)
    }

    /// `CAST(value, "NSDate")` (a number is seconds since 2001-01-01, as Apple's),
    /// `CAST(value, "NSNumber")`, `CAST(value, "NSString")`.
    private mutating func parseCast() throws -> Expression {
        let start = current.column
        advance()
        try expect("(", "expected '(' after CAST")
        let valueColumn = current.column
        guard case .constant(let value, _) = try parseExpression() else {
            throw PredicateError("CAST takes a literal value or an argument", column: valueColumn)
        }
        try expect(",", "expected ',' in CAST")
        guard case .string(let type) = current.kind else {
            throw PredicateError("CAST needs a type name such as \"NSDate\"", column: current.column)
        }
        advance()
        try expect(")", "expected ')' to close CAST")
        switch (type, value) {
        case ("NSDate", .integer(let i)): return .constant(.date(Double(i) + referenceDateOffset), column: start)
        case ("NSDate", .real(let d)): return .constant(.date(d + referenceDateOffset), column: start)
        case ("NSDate", .date): return .constant(value, column: start)
        case ("NSDate", .text(let s)):
            guard let seconds = Value.parseISO8601(s) else {
                throw PredicateError("CAST: '\(s)' is not an ISO 8601 date", column: valueColumn)
            }
            return .constant(.date(seconds), column: start)
        case ("NSNumber", .text(let s)):
            if let i = Int64(s) { return .constant(.integer(i), column: start) }
            if let d = Double(s) { return .constant(.real(d), column: start) }
            throw PredicateError("CAST: '\(s)' is not a number", column: valueColumn)
        case ("NSNumber", .integer), ("NSNumber", .real): return .constant(value, column: start)
        case ("NSNumber", .date(let d)): return .constant(.real(d - referenceDateOffset), column: start)
        case ("NSString", _): return .constant(.text(value.displayString), column: start)
        default:
            throw PredicateError("CAST to '\(type)' from \(value.kindName) is not supported (NSDate, NSNumber, NSString are)", column: start)
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
        case .integerMagnitudeOverflow: return "number 9223372036854775808"
        case .symbol(let s): return "'\(s)'"
        case .substitution(let c): return "'%\(c)'"
        case .variable(let v): return "'$\(v)'"
        case .end: return "the end of the predicate"
        }
    }
}
