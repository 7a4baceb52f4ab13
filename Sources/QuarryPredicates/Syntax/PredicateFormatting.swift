import QuarryModel
import QuarryStore

extension Predicate: CustomStringConvertible {
    /// The normalized format string: upper-case reserved words, `==`, explicit parentheses
    /// only where precedence needs them, values written as literals.
    public var description: String { format(self, parent: 0, apple: false) }

    /// The format string as Apple's parser takes it: dates as `CAST(seconds since 2001,
    /// "NSDate")` rather than the exact ISO 8601 text `description` uses.
    public var appleFormat: String { format(self, parent: 0, apple: true) }

    /// `appleFormat` with the constants `placeholder` names written as it says (`%@` for a
    /// value the Swift passes as an argument), in the order they appear; a stored object is
    /// one too (`object`), since its text `<Owner/1>` is Quarry's, not Apple's syntax.
    public func appleFormat(placeholder: @escaping (Value) -> String?, object: @escaping (ObjectReference) -> String) -> String {
        format(self, parent: 0, apple: true, placeholder: FormatPlaceholders(value: placeholder, object: object))
    }
}

extension Predicate {
    /// `description` with each string that needs no escape in single quotes, as people
    /// write them, for a message suggesting a predicate to write.
    var suggestionText: String {
        let plain = FormatPlaceholders(
            value: { value in
                guard case .text(let s) = value,
                    !s.contains(where: {
                        $0 == "'" || $0 == "\\" || $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control }
                    })
                else { return nil }
                return "'\(s)'"
            },
            object: { "<\($0.object.objectID)>" })
        return format(self, parent: 0, apple: false, placeholder: plain)
    }
}

/// What `appleFormat(placeholder:object:)` writes in place of constants.
private struct FormatPlaceholders {
    let value: (Value) -> String?
    let object: (ObjectReference) -> String
}

private func format(_ p: Predicate, parent: Int, apple: Bool, variable: String? = nil, placeholder: FormatPlaceholders? = nil) -> String {
    // A nested AND in an AND (or OR in an OR) keeps its parentheses, so the text parses
    // back to the same tree.
    func wrap(_ s: String, _ level: Int) -> String { parent > 0 && level <= parent ? "(\(s))" : s }
    func format(_ p: Predicate, parent: Int) -> String {
        QuarryPredicates.format(p, parent: parent, apple: apple, variable: variable, placeholder: placeholder)
    }
    func format(_ e: Expression) -> String {
        // Inside SUBQUERY, key paths are the member's: written after its variable.
        QuarryPredicates.format(e, apple: apple, variable: variable, placeholder: placeholder)
    }
    switch p {
    case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
    case .or(let ps): return wrap(ps.map { format($0, parent: 1) }.joined(separator: " OR "), 1)
    case .and(let ps): return wrap(ps.map { format($0, parent: 2) }.joined(separator: " AND "), 2)
    case .not(let inner): return "NOT " + format(inner, parent: 3)
    case .comparison(let c):
        var options = ""
        if !c.options.isEmpty {
            options = "[" + (c.options.contains(.caseInsensitive) ? "c" : "") + (c.options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        let prefix = c.modifier == .direct ? "" : c.modifier.rawValue + " "
        return "\(prefix)\(format(c.lhs)) \(c.op.rawValue)\(options) \(format(c.rhs))"
    }
}

private func format(_ e: Expression, apple: Bool, variable: String? = nil, placeholder: FormatPlaceholders? = nil) -> String {
    func format(_ e: Expression) -> String { QuarryPredicates.format(e, apple: apple, variable: variable, placeholder: placeholder) }
    /// An operand of `op`, in parentheses where precedence would otherwise regroup it.
    func operand(_ e: Expression, of op: ArithmeticOperator, right: Bool) -> String {
        guard case .arithmetic(let inner, _, _, _) = e else { return format(e) }
        let tighter = inner.precedence > op.precedence
        let same = inner.precedence == op.precedence && (op == .power ? right : !right)
        return tighter || same ? format(e) : "(" + format(e) + ")"
    }
    switch e {
    case .keyPath(let k):
        // Inside SUBQUERY, key paths are the member's: written after its variable.
        // SELF alone is the object itself, which Apple's parser reads only bare (`#SELF`
        // is a key named SELF there); Quarry reads both as the object.
        let path =
            k.components == ["SELF"]
            ? "SELF"
            : k.components.map { PredicateParser.reserved.contains($0.uppercased()) ? "#" + $0 : $0 }.joined(separator: ".")
        return variable.map { "$\($0)." + path } ?? path
    case .arithmetic(.modulus, let lhs, let rhs, _), .arithmetic(.quotient, let lhs, let rhs, _):
        // Apple's grammar has no infix remainder, only the function (and no integer division).
        guard case .arithmetic(let op, _, _, _) = e else { return "" }
        return "\(op.rawValue)(\(format(lhs)), \(format(rhs)))"
    case .arithmetic(let op, let lhs, let rhs, _):
        return "\(operand(lhs, of: op, right: false)) \(op.rawValue) \(operand(rhs, of: op, right: true))"
    case .negate(let inner, _):
        // Only a key path follows `-` bare. Before a number literal `-` is part of the
        // number (found by fuzzing: `- -0` read back as `-0`, one negation fewer), and
        // before a list from `$L` it would not parse (found by fuzzing: `-{"red"}`).
        if case .keyPath = inner { return "-" + format(inner) }
        return "-(" + format(inner) + ")"
    case .index(let collection, let index, _):
        if case .arithmetic = collection { return "(" + format(collection) + ")[\(index.text)]" }
        return format(collection) + "[\(index.text)]"
    case .function(let function, let arguments, _):
        return function.selector + "(" + arguments.map(format).joined(separator: ", ") + ")"
    case .aggregate(let elements, _): return "{" + elements.map(format).joined(separator: ", ") + "}"
    case .conditional(let test, let then, let otherwise, _):
        let condition = QuarryPredicates.format(test, parent: 0, apple: apple, variable: variable, placeholder: placeholder)
        return "TERNARY(\(condition), \(format(then)), \(format(otherwise)))"
    case .object(let reference, _): return placeholder?.object(reference) ?? "<\(reference.object.objectID)>"
    case .subqueryCount(let collection, let own, let predicate, _):
        let inner = QuarryPredicates.format(predicate, parent: 0, apple: apple, variable: own, placeholder: placeholder)
        // Nested, the collection is the enclosing member's, written after that member's
        // variable as every key path inside it is (`SUBQUERY($b.cs, $c, ...)`).
        return "SUBQUERY(\(format(.keyPath(collection))), $\(own), \(inner)).@count"
    case .constant(let v, _):
        if let text = placeholder?.value(v) { return text }
        switch v {
        case .null: return "nil"
        case .text(let s): return quotedString(s)
        case .bool(let b): return b ? "YES" : "NO"
        case .date(let d):
            return apple ? "CAST(\(d - referenceDateOffset), \"NSDate\")" : "CAST(\"\(Value.exactISO8601(d))\", \"NSDate\")"
        case .real(let d) where !d.isFinite:
            return "CAST(\"\(d.isNaN ? "nan" : (d < 0 ? "-inf" : "inf"))\", \"NSNumber\")"
        case .real(let d): return "\(d)"
        default: return v.displayString
        }
    }
}

/// `s` as a double-quoted literal. The lexer reads characters, so a scalar that would
/// join the syntax around it into one character is written as a `\u` escape: a mark
/// after the opening quote or an escape, a prepended mark before a quote or backslash
/// (found by fuzzing: `"\u{0899}…"` lost its opening quote, `"؂\""` closed early).
func quotedString(_ s: String) -> String {
    func joins(_ a: String, _ b: String) -> Bool { (a + b).count == 1 }
    func escaped(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return scalar.value <= 0xFFFF ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex : "\\u{" + hex + "}"
    }
    var out = "\""
    var syntax: String? = "\"" // the last character written when it is syntax, not text
    for scalar in s.unicodeScalars {
        let text = String(scalar)
        if syntax.map({ joins($0, text) }) == true || joins(text, "\"") || joins(text, "\\") {
            let escape = escaped(scalar)
            out += escape
            syntax = String(escape.last ?? "0")
            continue
        }
        syntax = nil
        switch scalar {
        case "\\":
            out += "\\\\"
            syntax = "\\"
        case "\"":
            out += "\\\""
            syntax = "\""
        default: out += text
        }
    }
    return out + "\""
}
