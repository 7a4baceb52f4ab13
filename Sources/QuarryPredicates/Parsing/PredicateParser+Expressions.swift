import Foundation
import QuarryModel
import QuarryStore

/// Expressions: arithmetic with Apple's precedence, unary minus, index expressions,
/// function calls, and the operands they combine.
extension PredicateParser {
    /// An expression: operands joined by `+ - * / **`.
    mutating func parseExpression() throws -> Expression { try parseBinary(minimum: 1) }

    /// Precedence climbing: `**` above `* /` above `+ -`. `**` groups to the right, as in
    /// mathematics; the others to the left.
    private mutating func parseBinary(minimum: Int) throws -> Expression {
        var lhs = try parsePostfix()
        // A chain `a + b + c ...` nests to the left: each operator is a level, so that
        // formatting and binding, which recurse, stay within the same bound.
        var levels = 0
        defer { depth -= levels }
        while case .symbol(let symbol) = current.kind, let op = ArithmeticOperator(rawValue: symbol), op.precedence >= minimum {
            let column = current.column
            advance()
            try enter()
            levels += 1
            let rhs = try parseBinary(minimum: op == .power ? op.precedence : op.precedence + 1)
            lhs = .arithmetic(op, lhs, rhs, column: column)
        }
        return lhs
    }

    /// One more level of nesting, bounded so hostile input cannot exhaust the stack.
    mutating func enter() throws {
        depth += 1
        if depth > Self.maximumDepth {
            depth -= 1
            throw Self.nestingError(column: current.column)
        }
    }

    /// An operand followed by any number of `[SIZE]`, `[FIRST]`, `[LAST]` or `[n]`.
    mutating func parsePostfix() throws -> Expression {
        var expression = try parseOperand()
        while isSymbol("[") {
            let column = current.column
            advance()
            let index: CollectionIndex
            switch current.kind {
            case .identifier(let word) where ["SIZE", "FIRST", "LAST"].contains(word.uppercased()):
                index = word.uppercased() == "SIZE" ? .size : (word.uppercased() == "FIRST" ? .first : .last)
            case .integer(let n): index = .position(n)
            default:
                throw PredicateError(.syntax, "expected SIZE, FIRST, LAST or a number inside [ ], found \(describe(current))", column: current.column)
            }
            advance()
            try expect("]", "expected ']' to close the index at column \(column)")
            expression = .index(expression, index, column: column)
        }
        return expression
    }

    /// True when the `(` at the current token opens an expression (`(a + b) * 2 > c`)
    /// rather than a predicate: what follows its `)` continues an expression.
    func parenthesisOpensExpression() -> Bool {
        var level = 0
        var i = position
        while i < tokens.count {
            switch tokens[i].kind {
            case .symbol("("): level += 1
            case .symbol(")"):
                level -= 1
                if level == 0 {
                    guard i + 1 < tokens.count else { return false }
                    switch tokens[i + 1].kind {
                    case .symbol(let s): return ComparisonOperator(rawValue: s) != nil || ArithmeticOperator(rawValue: s) != nil || s == "["
                    case .identifier(let word): return Self.wordOperators[word.uppercased()] != nil
                    default: return false
                    }
                }
            case .end: return false
            default: break
            }
            i += 1
        }
        return false
    }

    /// `abs(x)`, `lowercase:(name)`, `now()`, `add:to:(a, b)`.
    private mutating func parseFunction(_ name: String) throws -> Expression {
        let column = current.column
        advance()
        try expect("(", "expected '(' after the function name '\(name)'")
        let arguments = try parseArgumentList(closing: "the call of '\(name)' at column \(column)")
        if let op = BuiltinFunction.arithmeticSelectors[name] {
            guard arguments.count == 2 else { throw PredicateError(.syntax, "'\(name)' takes two arguments, got \(arguments.count)", column: column) }
            return .arithmetic(op, arguments[0], arguments[1], column: column)
        }
        guard let function = BuiltinFunction.named(name) else {
            // SQL's and DuckDB's `month(order_date)`: a date's part is a key here.
            if let part = DatePart(rawValue: name.lowercased()), arguments.count == 1, case .keyPath(let date) = arguments[0] {
                throw PredicateError(
                    .syntax,
                    "a date's \(part.rawValue) is written \(date.string).\(part.rawValue), not \(name)(\(date.string)): "
                        + "a date's parts are keys (year, month, day, hour, weekday, date)", column: column)
            }
            throw PredicateError(
                .unknownFunction(name: name), "unknown function '\(name)'; Quarry evaluates \(BuiltinFunction.supportedNames)", column: column)
        }
        guard arguments.count == function.arity else {
            throw PredicateError(
                .syntax, "'\(function.selector)' takes \(function.arity) argument\(function.arity == 1 ? "" : "s"), got \(arguments.count)",
                column: column)
        }
        return .function(function, arguments, column: column)
    }

    /// `FUNCTION(receiver, 'selector', arguments...)`: only the selectors of strings and
    /// numbers that Quarry knows; a method of the app's own classes cannot run here.
    private mutating func parseFunctionCall() throws -> Expression {
        let column = current.column
        advance()
        try expect("(", "expected '(' after FUNCTION")
        let arguments = try parseArgumentList(closing: "FUNCTION at column \(column)")
        guard arguments.count >= 2, case .constant(.text(let selector), let selectorColumn) = arguments[1] else {
            throw PredicateError(.syntax, "FUNCTION takes a receiver and a selector string, as FUNCTION(name, 'uppercaseString')", column: column)
        }
        let rest = [arguments[0]] + arguments.dropFirst(2)
        if let op = BuiltinFunction.arithmeticSelectors[selector], rest.count == 2 {
            return .arithmetic(op, rest[0], rest[1], column: column)
        }
        guard let function = BuiltinFunction.named(selector), function.arity == rest.count else {
            throw PredicateError(
                .unsupported,
                "FUNCTION: '\(selector)' is not a function Quarry can evaluate (a method of the app's classes runs only in the app); it evaluates \(BuiltinFunction.supportedNames)",
                column: selectorColumn)
        }
        return .function(function, rest, column: column)
    }

    /// Comma-separated expressions up to `)`, which it consumes.
    private mutating func parseArgumentList(closing what: String) throws -> [Expression] {
        var arguments: [Expression] = []
        if isSymbol(")") {
            advance()
            return arguments
        }
        while true {
            arguments.append(try parseExpression())
            if isSymbol(",") {
                advance()
                continue
            }
            try expect(")", "expected ',' or ')' in \(what), found \(describe(current))")
            return arguments
        }
    }

    /// A value, key path, list, SUBQUERY, CAST or function call, without arithmetic.
    mutating func parseOperand() throws -> Expression {
        let token = current
        switch token.kind {
        case .string(let s):
            advance()
            return .constant(.text(s), column: token.column)
        case .integer(let i):
            advance()
            return .constant(.integer(i), column: token.column)
        case .real(let d):
            advance()
            return .constant(.real(d), column: token.column)
        case .integerMagnitudeOverflow:
            advance()
            return .constant(.real(9223372036854775808.0), column: token.column)
        case .substitution(let kind):
            advance()
            let substituted = try substitute(kind, at: token.column)
            // `%K.@count`, `%K.name`: the key path goes on after the one substituted, as in
            // Apple's grammar, so a key no predicate can spell still reaches its keys.
            if kind == "K", case .keyPath(let path) = substituted, isSymbol(".") {
                advance()
                return .keyPath(KeyPath(path.components + (try parseKeyPath()).components, column: path.column))
            }
            return substituted
        case .variable(let name) where subqueryVariables.contains(name):
            try checkInnermost(name, column: token.column)
            advance()
            guard isSymbol(".") else {
                throw PredicateError(.syntax, "$\(name) alone is the member itself; compare one of its keys, as $\(name).name", column: token.column)
            }
            advance()
            return .keyPath(try parseKeyPath())
        case .identifier(let name) where name.uppercased() == "SUBQUERY" && tokens[position + 1].kind == .symbol("("):
            return try parseSubquery()
        case .variable(let name):
            advance()
            guard let value = arguments.variables[name] else {
                throw PredicateError(.argument, "no value for $\(name) (pass it in vars)", column: token.column)
            }
            return Self.expression(value, column: token.column)
        case .symbol("{"):
            advance()
            var elements: [Expression] = []
            if !isSymbol("}") {
                while true {
                    elements.append(try parseExpression())
                    if isSymbol(",") {
                        advance()
                        continue
                    }
                    break
                }
            }
            guard isSymbol("}") else {
                throw PredicateError(
                    .syntax, "expected ',' or '}' in the list opened at column \(token.column), found \(describe(current))", column: current.column)
            }
            advance()
            return .aggregate(elements, column: token.column)
        case .identifier(let name) where name.uppercased() == "CAST" && tokens[position + 1].kind == .symbol("("):
            return try parseCast()
        case .identifier(let name) where name.uppercased() == "FUNCTION" && tokens[position + 1].kind == .symbol("("):
            return try parseFunctionCall()
        case .identifier(let name) where name.uppercased() == "TERNARY" && tokens[position + 1].kind == .symbol("("):
            return try parseTernary()
        case .identifier(let name) where tokens[position + 1].kind == .symbol("(") || name.hasSuffix(":"):
            return try parseFunction(name)
        case .symbol("("):
            let open = position
            advance()
            try enter()
            defer { depth -= 1 }
            let inner = try parseExpression()
            guard isSymbol(")") else {
                // SQL's list `IN ('Gold', 'Silver')`: NSPredicate writes it in braces.
                let list = isSymbol(",") ? "; a list is written in braces, as IN \(bracedList(from: open))" : ""
                throw PredicateError(
                    .syntax, "expected ')' to close the '(' at column \(token.column), found \(describe(current))\(list)",
                    column: current.column)
            }
            advance()
            return inner
        case .identifier(let name):
            switch name.uppercased() {
            case "NULL", "NIL":
                advance()
                return .constant(.null, column: token.column)
            case "TRUE", "YES":
                advance()
                return .constant(.bool(true), column: token.column)
            case "FALSE", "NO":
                advance()
                return .constant(.bool(false), column: token.column)
            default: return .keyPath(try parseKeyPath())
            }
        case .symbol("-"):
            advance()
            switch current.kind {
            case .integer(let i):
                advance()
                return .constant(.integer(-i), column: token.column)
            case .real(let d):
                advance()
                return .constant(.real(-d), column: token.column)
            case .integerMagnitudeOverflow:
                advance()
                return .constant(.integer(Int64.min), column: token.column)
            case .string, .symbol("{"), .end:
                throw PredicateError(.syntax, "expected a number after '-'", column: current.column)
            case .symbol("("):
                // `-(x)`: the parenthesis counts the level, so the text formatting writes
                // for `--x` (`-(-x)`) nests no deeper than it (found by fuzzing).
                return .negate(try parsePostfix(), column: token.column)
            default:
                try enter()
                defer { depth -= 1 }
                return .negate(try parsePostfix(), column: token.column)
            }
        default:
            throw PredicateError(.syntax, "expected a key path or a value, found \(describe(token))", column: token.column)
        }
    }

    /// `TERNARY(predicate, then, otherwise)`, and a key path after it
    /// (`TERNARY(j != nil, j, '').length`), which is each branch's: a key path's keys go on,
    /// nil stays nil, and a string constant's `length` is its UTF-16 count, as NSString's.
    mutating func parseTernary() throws -> Expression {
        let start = current.column
        advance()
        try expect("(", "expected '(' after TERNARY")
        try enter()
        defer { depth -= 1 }
        let test = try parseOr()
        try expect(",", "expected ',' after TERNARY's predicate (TERNARY(predicate, then, else)), found \(describe(current))")
        let then = try parseExpression()
        try expect(",", "expected ',' after TERNARY's second argument (TERNARY(predicate, then, else)), found \(describe(current))")
        let otherwise = try parseExpression()
        try expect(")", "expected ')' to close the TERNARY at column \(start), found \(describe(current))")
        guard isSymbol("."), position + 1 < tokens.count, case .identifier = tokens[position + 1].kind else {
            return .conditional(test, then, otherwise, column: start)
        }
        advance()
        return try Expression.conditional(test, then, otherwise, column: start).keyed(try parseKeyPath())
    }

    /// `SUBQUERY(tags, $t, $t.name BEGINSWITH 'a').@count`.
    mutating func parseSubquery() throws -> Expression {
        let start = current.column
        advance()
        try expect("(", "expected '(' after SUBQUERY")
        // Inside another SUBQUERY, its member's to-many: `SUBQUERY($b.cs, $c, ...)`, which
        // is `cs` read from the member, as a bare key path there is.
        if case .variable(let name) = current.kind, subqueryVariables.contains(name), position + 1 < tokens.count,
            tokens[position + 1].kind == .symbol(".")
        {
            try checkInnermost(name, column: current.column)
            advance()
            advance()
        }
        guard case .identifier = current.kind else {
            throw PredicateError(.syntax, "SUBQUERY needs a to-many key path first", column: current.column)
        }
        let collection = try parseKeyPath()
        try expect(",", "expected ',' after the SUBQUERY's key path")
        guard case .variable(let variable) = current.kind else {
            throw PredicateError(.syntax, "SUBQUERY needs a variable such as $t second", column: current.column)
        }
        advance()
        try expect(",", "expected ',' after the SUBQUERY's variable")
        subqueryVariables.append(variable)
        let predicate = try parseOr()
        subqueryVariables.removeLast()
        try expect(")", "expected ')' to close the SUBQUERY at column \(start)")
        if isSymbol("["), position + 2 < tokens.count, case .identifier(let word) = tokens[position + 1].kind, word.uppercased() == "SIZE",
            tokens[position + 2].kind == .symbol("]")
        {
            // SUBQUERY(...)[SIZE] is the same number as SUBQUERY(...).@count.
            advance()
            advance()
            advance()
        } else if isSymbol("["), position + 1 < tokens.count {
            throw PredicateError(.syntax, "a SUBQUERY's members have no order, so only [SIZE] (or .@count) applies to it", column: current.column)
        } else {
            guard isSymbol("."), position + 1 < tokens.count, case .identifier(let count) = tokens[position + 1].kind, count.lowercased() == "@count"
            else {
                throw PredicateError(.syntax, "a SUBQUERY is used as SUBQUERY(...).@count here", column: current.column)
            }
            advance()
            advance()
        }
        return .subqueryCount(collection: collection, variable: variable, predicate: predicate, column: start)
    }

    /// Inside nested SUBQUERYs a key path reads the innermost member; an outer one's
    /// variable there would be read as that member too, so it is refused, not misread.
    func checkInnermost(_ name: String, column: Int) throws {
        guard let innermost = subqueryVariables.last, innermost != name else { return }
        throw PredicateError(
            .invalidUse,
            "$\(name) is an outer SUBQUERY's member; inside SUBQUERY(..., $\(innermost), ...) only $\(innermost)'s keys can be read",
            column: column)
    }

    /// `CAST(value, "NSDate")` (a number is seconds since 2001-01-01, as Apple's),
    /// `CAST(value, "NSNumber")`, `CAST(value, "NSString")`.
    mutating func parseCast() throws -> Expression {
        let start = current.column
        advance()
        try expect("(", "expected '(' after CAST")
        let valueColumn = current.column
        let expression = try parseExpression()
        try expect(",", "expected ',' in CAST")
        guard case .string(let type) = current.kind else {
            throw PredicateError(.syntax, "CAST needs a type name such as \"NSDate\"", column: current.column)
        }
        advance()
        try expect(")", "expected ')' to close CAST")
        // `CAST(now(), 'NSDate')`: now() is a date already, as Apple's grammar reads it.
        if case .function(.now, _, _) = expression, type == "NSDate" { return expression }
        guard case .constant(let value, _) = expression else {
            throw PredicateError(.syntax, "CAST takes a literal value, an argument, or now() to NSDate", column: valueColumn)
        }
        switch (type, value) {
        case ("NSDate", .integer(let i)): return .constant(.date(Double(i) + referenceDateOffset), column: start)
        case ("NSDate", .real(let d)): return .constant(.date(d + referenceDateOffset), column: start)
        case ("NSDate", .date): return .constant(value, column: start)
        case ("NSDate", .text(let s)):
            guard let seconds = Value.parseISO8601(s) else {
                throw PredicateError(.typeMismatch, "CAST: '\(s)' is not an ISO 8601 date", column: valueColumn)
            }
            return .constant(.date(seconds), column: start)
        case ("NSNumber", .text(let s)):
            if let i = Int64(s) { return .constant(.integer(i), column: start) }
            if let d = Double(s) { return .constant(.real(d), column: start) }
            throw PredicateError(.typeMismatch, "CAST: '\(s)' is not a number", column: valueColumn)
        case ("NSNumber", .integer), ("NSNumber", .real): return .constant(value, column: start)
        case ("NSNumber", .date(let d)): return .constant(.real(d - referenceDateOffset), column: start)
        case ("NSString", _): return .constant(.text(value.displayString), column: start)
        default:
            throw PredicateError(
                .unsupported, "CAST to '\(type)' from \(value.kindName) is not supported (NSDate, NSNumber, NSString are)", column: start)
        }
    }

}

extension PredicateParser {
    /// The parenthesized list whose `(` is token `open`, written in braces as the grammar
    /// reads a list (`{'Gold', 'Silver'}`); `{...}` when its items are not plain values.
    func bracedList(from open: Int) -> String {
        var items: [String] = []
        var index = open + 1
        while index < tokens.count {
            switch tokens[index].kind {
            case .string(let text): items.append("'" + text.replacingOccurrences(of: "'", with: "\\'") + "'")
            case .integer(let n): items.append(String(n))
            case .real(let d): items.append(String(d))
            case .identifier(let name): items.append(name)
            default: return "{...}"
            }
            index += 1
            guard index < tokens.count else { return "{...}" }
            if tokens[index].kind == .symbol(")") { return "{" + items.joined(separator: ", ") + "}" }
            guard tokens[index].kind == .symbol(",") else { return "{...}" }
            index += 1
        }
        return "{...}"
    }
}
