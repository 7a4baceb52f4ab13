import QuarryModel
import QuarryStore

/// One argument for a substitution: a value, or a list (for `IN %@`).
public enum PredicateArgument: Equatable, Sendable, Codable {
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
    var tokens: [Token] = []
    var position = 0
    var arguments: PredicateArguments
    var nextArgument = 0
    /// Variables of the SUBQUERYs being parsed: `$t.name` is a key path of the member.
    var subqueryVariables: [String] = []
    /// Nesting of parentheses and NOTs, bounded so hostile input cannot exhaust the stack.
    var depth = 0
    public static let maximumDepth = 256

    /// The refusal of text nesting past `maximumDepth`, for the format grammar and for
    /// Swift input alike.
    public static func nestingError(column: Int?) -> PredicateError {
        PredicateError(.tooDeep, "the predicate nests more than \(maximumDepth) levels deep", column: column)
    }

    /// `exactArguments`: an argument no placeholder takes is refused, as a placeholder
    /// without one is (`count("t", "mag > 7", "extra")` would drop "extra" unseen).
    public static func parse(
        _ format: String, arguments: PredicateArguments = PredicateArguments(), exactArguments: Bool = false
    ) throws -> Predicate {
        var parser = PredicateParser(arguments: arguments)
        var lexer = Lexer(format)
        parser.tokens = try lexer.tokens()
        if parser.tokens.first?.kind == .end { throw PredicateError(.syntax, "the predicate is empty", column: 1) }
        let predicate = try parser.parseOr()
        guard parser.current.kind == .end else {
            let remedy = parser.sqlClauseRemedy(parser.current).map { "; " + $0 } ?? ""
            throw PredicateError(
                .syntax, "unexpected \(parser.describe(parser.current)) after a complete predicate\(remedy)", column: parser.current.column)
        }
        let given = arguments.positional.count
        if exactArguments, parser.nextArgument < given {
            let used = parser.nextArgument
            throw PredicateError(
                .argument,
                "\(given) argument\(given == 1 ? "" : "s") given for the predicate, which has "
                    + (used == 0 ? "no placeholder" : "only \(used) placeholder\(used == 1 ? "" : "s")")
                    + " (%@, %K, %d, %f) for \(given == 1 ? "it" : "them"); remove the extra or add a placeholder",
                column: nil)
        }
        return predicate
    }

    /// One expression (`UnitPrice * Quantity`, `airline.name`, `abs(delay)`), as it stands
    /// on either side of a comparison: what a dictionary request's column computes.
    public static func parseExpression(_ text: String, arguments: PredicateArguments = PredicateArguments()) throws -> Expression {
        var parser = PredicateParser(arguments: arguments)
        var lexer = Lexer(text)
        parser.tokens = try lexer.tokens()
        if parser.tokens.first?.kind == .end { throw PredicateError(.syntax, "the expression is empty", column: 1) }
        let expression = try parser.parseExpression()
        guard parser.current.kind == .end else {
            throw PredicateError(.syntax, "unexpected \(parser.describe(parser.current)) after a complete expression", column: parser.current.column)
        }
        return expression
    }

    private init(arguments: PredicateArguments) { self.arguments = arguments }

    var current: Token { tokens[position] }
    mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    func isWord(_ word: String) -> Bool {
        if case .identifier(let name) = current.kind { return name.uppercased() == word }
        return false
    }
    func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    /// Consumes `symbol`, or fails with `message` at the current column.
    mutating func expect(_ symbol: String, _ message: String) throws {
        guard isSymbol(symbol) else { throw PredicateError(.syntax, message, column: current.column) }
        advance()
    }

    mutating func parseOr() throws -> Predicate {
        var terms = [try parseAnd()]
        while isWord("OR") || isSymbol("||") {
            advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws -> Predicate {
        var terms = [try parseNot()]
        while isWord("AND") || isSymbol("&&") {
            advance()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot() throws -> Predicate {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw Self.nestingError(column: current.column)
        }
        if isWord("NOT") || isSymbol("!") {
            advance()
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> Predicate {
        if isSymbol("("), !parenthesisOpensExpression() {
            let open = current.column
            advance()
            let inner = try parseOr()
            guard isSymbol(")") else {
                throw PredicateError(.syntax, "expected ')' to close the '(' at column \(open), found \(describe(current))", column: current.column)
            }
            advance()
            return inner
        }
        if isWord("TRUEPREDICATE") {
            advance()
            return .constant(true)
        }
        if isWord("FALSEPREDICATE") {
            advance()
            return .constant(false)
        }
        return try parseComparison()
    }

    static let wordOperators: [String: ComparisonOperator] = [
        "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "CONTAINS": .contains, "LIKE": .like,
        "MATCHES": .matches, "IN": .in, "BETWEEN": .between
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
        // SQL's `x IS NULL` is the commonest guess from a SQL shell: the form that is read.
        case .identifier(let word) where word.uppercased() == "IS":
            throw PredicateError(
                .syntax, "IS is SQL's: write 'key == nil' for IS NULL, 'key != nil' for IS NOT NULL, as NSPredicate does", column: current.column)
        // SQL's `medal NOT IN {...}` and `name ILIKE 'x%'`: the forms NSPredicate reads.
        case .identifier(let word) where word.uppercased() == "NOT" && lhs.isKeyPath:
            let key = lhs.keyPathText
            let next = tokens[position + 1].kind
            let op = if case .identifier(let o) = next { o.uppercased() } else { "IN" }
            throw PredicateError(
                .syntax, "NOT goes before the comparison, as NSPredicate writes it: NOT (\(key) \(op) ...)", column: current.column)
        case .identifier(let word) where word.uppercased() == "ILIKE":
            throw PredicateError(
                .syntax, "ILIKE is SQL's: write LIKE[c], which ignores case (its wildcards are * and ?), as 'name LIKE[c] \"x*\"'",
                column: current.column)
        default:
            // `Original Hire > 3`: two names in a row are likely one key with a space,
            // which the grammar reads only as %K with the name among the arguments.
            var spaced = ""
            if case .keyPath(let key) = lhs, case .identifier = current.kind {
                // Every word up to the operator (`Rank by Total <= 3`), and that operator.
                var words = [key.string]
                var next = position
                let operators = ["AND", "OR", "NOT", "IN", "LIKE", "BEGINSWITH", "ENDSWITH", "CONTAINS", "MATCHES", "BETWEEN"]
                while next < tokens.count, case .identifier(let word) = tokens[next].kind, !operators.contains(word.uppercased()) {
                    words.append(word)
                    next += 1
                }
                var op = "=="
                if next < tokens.count, case .symbol(let symbol) = tokens[next].kind, ["==", "=", "!=", "<>", "<", "<=", ">", ">="].contains(symbol) {
                    op = symbol
                }
                let name = words.joined(separator: " ")
                spaced = #"; a key with a space is written %K with its name among the arguments, as "%K \#(op) %@", "\#(name)", value"#
            }
            // `is_paid` alone, as SQL and #Predicate test a boolean: NSPredicate compares it.
            let ends: Bool
            switch current.kind {
            case .end: ends = true
            case .identifier(let word): ends = ["AND", "OR", "&&", "||"].contains(word.uppercased())
            case .symbol(let symbol): ends = [")", "&&", "||"].contains(symbol)
            default: ends = false
            }
            if lhs.isKeyPath, ends {
                spaced = "; a key that holds true or false is compared: \(lhs.keyPathText) == YES (or == NO)"
            }
            throw PredicateError(
                .syntax, "expected a comparison operator such as ==, <, BEGINSWITH or IN, found \(describe(current))" + spaced,
                column: current.column)
        }
        advance()
        let options = try parseOptions()
        let rhs = try parseExpression()
        if op == .between {
            guard case .aggregate(let bounds, _) = rhs, bounds.count == 2 else {
                throw PredicateError(.syntax, "BETWEEN needs two bounds, as BETWEEN {1, 10}", column: opColumn)
            }
        }
        return .comparison(Comparison(lhs: lhs, op: op, rhs: rhs, options: options, modifier: modifier))
    }

    private mutating func parseOptions() throws -> ComparisonOptions {
        guard isSymbol("[") else { return [] }
        let start = current.column
        advance()
        guard case .identifier(let letters) = current.kind else {
            throw PredicateError(.syntax, "expected c, d or cd inside [ ]", column: current.column)
        }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n", "l": break // normalized / locale-sensitive: no effect on the answer
            default: throw PredicateError(.syntax, "unknown comparison option '\(letter)' (use c, d or cd)", column: current.column)
            }
        }
        advance()
        guard isSymbol("]") else { throw PredicateError(.syntax, "expected ']' to close the '[' at column \(start)", column: current.column) }
        advance()
        return options
    }

    /// The grammar's reserved words, in upper case (`#word` escapes one as a key).
    package static let reserved: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "ANY", "ALL", "NONE", "SOME", "SUBQUERY", "TRUEPREDICATE", "FALSEPREDICATE", "NULL", "NIL",
        "TRUE", "FALSE", "YES", "NO", "SELF", "FIRST", "LAST", "SIZE", "CAST", "FUNCTION"
    ]

    /// Words the grammar reads only inside `[ ]` (`tags[SIZE]`), and ones it reads only
    /// before `(` (`CAST(`): elsewhere a key, as `size > 3` on a table with a column `size`.
    static let indexWords: Set<String> = ["FIRST", "LAST", "SIZE"]
    static let callWords: Set<String> = ["CAST", "FUNCTION", "SUBQUERY"]

    /// Whether the reserved word `name`, the current token, can only be a key where it
    /// stands: after a `.` (a key path goes on), an index word, or a call word not before
    /// `(`. Written with `#` it is a key anywhere.
    func isKeyWhereItStands(_ name: String, after components: [String]) -> Bool {
        let word = name.uppercased()
        if !components.isEmpty { return word != "SELF" }
        if Self.indexWords.contains(word) { return true }
        return Self.callWords.contains(word) && !(position + 1 < tokens.count && tokens[position + 1].kind == .symbol("("))
    }

    mutating func parseKeyPath() throws -> KeyPath {
        let start = current.column
        var components: [String] = []
        while true {
            guard case .identifier(var name) = current.kind else {
                throw PredicateError(.syntax, "expected a key after '.', found \(describe(current))", column: current.column)
            }
            if name.hasPrefix("#") {
                name.removeFirst()
            } // '#name' escapes a reserved word
            else if name.uppercased() == "SELF", components.isEmpty {
                // `SELF.SELF`: Apple's grammar reads a key SELF of the object (a key of
                // that name, which no object has), not the object twice.
                if position > 0, tokens[position - 1].kind == .symbol(".") {
                    throw PredicateError(
                        .unsupported, "'SELF.SELF': SELF stands once, at the start of a key path (SELF, SELF.name)", column: current.column)
                }
                advance()
                // `SELF.name` is `name`, as in Apple's grammar.
                guard isSymbol("."), position + 1 < tokens.count, case .identifier = tokens[position + 1].kind else {
                    return KeyPath(["SELF"], column: start)
                }
                advance()
                continue
            } else if name.contains(":") {
                throw PredicateError(.syntax, "'\(name)' is a function name; call it as \(name)(...)", column: current.column)
            } else if Self.reserved.contains(name.uppercased()), !isKeyWhereItStands(name, after: components) {
                throw PredicateError(
                    .syntax, "'\(name)' is a reserved word and cannot be used as a key here (write #\(name) for a key of that name)",
                    column: current.column)
            }
            components.append(name)
            advance()
            guard isSymbol(".") else { break }
            advance()
        }
        return KeyPath(components, column: start)
    }

    mutating func substitute(_ kind: Character, at column: Int) throws -> Expression {
        guard nextArgument < arguments.positional.count else {
            throw PredicateError(.argument, "%\(kind) has no argument (\(arguments.positional.count) given)", column: column)
        }
        let argument = arguments.positional[nextArgument]
        nextArgument += 1
        guard case .value(let value) = argument else {
            if kind == "@" { return Self.expression(argument, column: column) }
            throw PredicateError(.argument, "%\(kind) takes a single value, got \(argument.kindName)", column: column)
        }
        switch kind {
        case "K":
            guard case .text(let path) = value else {
                throw PredicateError(.argument, "%K takes a key path string, got \(value.kindName)", column: column)
            }
            guard let keyPath = Self.keyPath(path, column: column) else {
                throw PredicateError(.argument, "%K takes a key path such as 'owner.name', got '\(path)'", column: column)
            }
            return .keyPath(keyPath)
        case "d":
            switch value {
            case .integer: return .constant(value, column: column)
            case .real(let d) where d == d.rounded() && abs(d) < 9e18: return .constant(.integer(Int64(d)), column: column)
            default: throw PredicateError(.argument, "%d takes an integer, got \(value.kindName)", column: column)
            }
        case "f":
            switch value {
            case .real: return .constant(value, column: column)
            case .integer(let i): return .constant(.real(Double(i)), column: column)
            default: throw PredicateError(.argument, "%f takes a number, got \(value.kindName)", column: column)
            }
        case "s":
            guard case .text = value else { throw PredicateError(.argument, "%s takes a string, got \(value.kindName)", column: column) }
            return .constant(value, column: column)
        default:
            return .constant(value, column: column)
        }
    }

    public static func expression(_ argument: PredicateArgument, column: Int) -> Expression {
        switch argument {
        case .value(let v): return .constant(v, column: column)
        case .list(let vs): return .aggregate(vs.map { .constant($0, column: column) }, column: column)
        case .object(let o): return .object(o, column: column)
        case .objects(let os): return .aggregate(os.map { .object($0, column: column) }, column: column)
        }
    }

    /// A `%K` argument as a key path: dot-separated keys, nothing else. A key is any name
    /// an entity may have, as Apple's `%K` takes any key: `order Details`, `Unit Price`,
    /// `2019` (names a format string cannot spell); a key holds no control character, and
    /// `@count` and the other operators are written as in a format string.
    static func keyPath(_ text: String, column: Int) -> KeyPath? {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let valid = components.allSatisfy { c in
            guard let first = c.first else { return false }
            if first == "@" { return c.dropFirst().allSatisfy { $0.isLetter } && c.count > 1 }
            return !c.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        return valid ? KeyPath(components, column: column) : nil
    }

    func describe(_ token: Token) -> String {
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

extension Expression {
    fileprivate var isKeyPath: Bool {
        if case .keyPath = self { return true }
        return false
    }

    fileprivate var keyPathText: String {
        if case .keyPath(let key) = self { return key.string }
        return "key"
    }
}
