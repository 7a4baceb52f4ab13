/// Splits a predicate format string into tokens, by Apple's lexical rules: both quote
/// kinds with backslash escapes, `0x`/`0o`/`0b` integers, reals with exponents.
struct Lexer {
    private let chars: [Character]
    private var index = 0

    init(_ text: String) { chars = Array(text) }

    mutating func tokens() throws -> [Token] {
        var result: [Token] = []
        while true {
            let token = try next()
            result.append(token)
            if token.kind == .end { return result }
        }
    }

    private var column: Int { index + 1 }
    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    private mutating func next() throws -> Token {
        while let c = peek(), c.isWhitespace { index += 1 }
        let start = column
        guard let c = peek() else { return Token(kind: .end, column: start) }

        // A quote followed by a combining mark is one Character: the string starts with
        // the mark.
        if let first = c.unicodeScalars.first, first == "\"" || first == "'" {
            return Token(kind: .string(try quoted(Character(first), opening: c)), column: start)
        }
        if c.isNumber { return Token(kind: try number(), column: start) }
        if c == "#", !(peek(1).map { $0.isLetter || $0 == "_" } ?? false) {
            // A lone '#' (or '#1') would be a key that formats as nothing (found by fuzzing).
            throw PredicateError(.syntax, "'#' must be followed by a key name, as #size", column: start)
        }
        if Self.startsName(c) || c == "#" || (c == "@" && peek(1)?.isLetter == true) {
            index += 1
            var name = String(c)
            // A colon continues a name: NSExpression's function names are selectors (`add:to:`).
            while let d = peek(), d.isLetter || d.isNumber || d == "_" || (d == ":" && c != "#") {
                name.append(d)
                index += 1
            }
            return Token(kind: .identifier(name), column: start)
        }
        if c == "$" {
            index += 1
            var name = ""
            while let d = peek(), d.isLetter || d.isNumber || d == "_" {
                name.append(d)
                index += 1
            }
            guard !name.isEmpty else { throw PredicateError(.syntax, "'$' must be followed by a variable name", column: start) }
            return Token(kind: .variable(name), column: start)
        }
        if c == "%" {
            index += 1
            // %ld, %lld, %lu and %hd are printf's long/short forms of %d.
            while let d = peek(), d == "l" || d == "h" || d == "q" { index += 1 }
            guard let d = peek(), "@KdifsuxgDUX".contains(d) else {
                // `quantity % 7`: a remainder as SQL and Lua write it, which NSPredicate's
                // grammar writes as a function.
                if peek().map({ $0 == " " || $0.isNumber || $0 == "(" }) ?? true {
                    throw PredicateError(
                        .syntax, "'%' is no operator here (it starts an argument such as %@); a remainder is modulus:by:(x, 7)", column: start)
                }
                throw PredicateError(.syntax, "'%' must be followed by @, K, d, i, f or s", column: start)
            }
            index += 1
            let kind: Character = "dDiuUxX".contains(d) ? "d" : (d == "g" ? "f" : d)
            return Token(kind: .substitution(kind), column: start)
        }
        let two = peek(1).map { String([c, $0]) } ?? ""
        if ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**"].contains(two) {
            index += 2
            let normal = ["<>": "!=", "=<": "<=", "=>": ">="][two] ?? two
            return Token(kind: .symbol(normal), column: start)
        }
        if "=<>!(){}[],.-+*/".contains(c) {
            index += 1
            return Token(kind: .symbol(c == "=" ? "==" : String(c)), column: start)
        }
        throw PredicateError(.syntax, "unexpected character '\(c)'", column: start)
    }

    /// A letter (or `_`) that can begin a key. A combining mark cannot, though Swift
    /// counts some as letters: written after a space it joins the space's character and
    /// the key vanishes (found by fuzzing: `ALL \u{06D6} IN %@` formatted as text that
    /// lost its key).
    static func startsName(_ c: Character) -> Bool {
        if c == "_" { return true }
        guard c.isLetter, let first = c.unicodeScalars.first else { return false }
        switch first.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    private mutating func quoted(_ quote: Character, opening: Character) throws -> String {
        let start = column
        index += 1
        var text = String(String.UnicodeScalarView(opening.unicodeScalars.dropFirst()))
        while let c = peek() {
            index += 1
            if c == quote { return text }
            if c == "\\" {
                guard let e = peek() else { break }
                index += 1
                switch e {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "0": text.append("\0")
                case "u":
                    // \uXXXX, or \u{X…} for a scalar beyond the BMP (formatting writes it
                    // for a mark that would otherwise join the quote).
                    let braced = peek() == "{"
                    let start = braced ? index + 1 : index
                    var end = start
                    while end < chars.count, end - start < (braced ? 6 : 4), chars[end].isHexDigit { end += 1 }
                    let hex = String(chars[start..<end])
                    let closed = !braced || (end < chars.count && chars[end] == "}")
                    guard closed, braced ? !hex.isEmpty : hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw PredicateError(.syntax, "bad \\u escape in string", column: column - 2)
                    }
                    index = braced ? end + 1 : end
                    text.unicodeScalars.append(scalar)
                default: text.append(e)
                }
                continue
            }
            text.append(c)
        }
        // A quote glued to the word before it is most often one inside the text, which
        // closed the string early (`city == 'MCCURDY'S'`, `name == 'O'Neil'`): the quote
        // said to be unterminated is the last one written, and the message alone did not
        // say why (trial 21).
        if start >= 2, chars[start - 2].isLetter || chars[start - 2].isNumber {
            throw PredicateError(
                .syntax, "unterminated string; a quote inside a string ends it: write it \\\(quote), or pass the text as an argument (== %@)",
                column: start)
        }
        throw PredicateError(.syntax, "unterminated string", column: start)
    }

    private mutating func number() throws -> Token.Kind {
        let start = column
        if peek() == "0", let p = peek(1), "xXoObB".contains(p) {
            index += 2
            let radix = "xX".contains(p) ? 16 : ("oO".contains(p) ? 8 : 2)
            var digits = ""
            while let d = peek(), d.isHexDigit || d == "_" {
                digits.append(d)
                index += 1
            }
            guard let value = Int64(digits, radix: radix) else {
                throw PredicateError(.syntax, "bad number '0\(p)\(digits)'", column: start)
            }
            return .integer(value)
        }
        var text = ""
        var isReal = false
        while let d = peek(), d.isNumber {
            text.append(d)
            index += 1
        }
        if peek() == ".", let d = peek(1), d.isNumber {
            isReal = true
            text.append(".")
            index += 1
            while let d = peek(), d.isNumber {
                text.append(d)
                index += 1
            }
        }
        if let e = peek(), e == "e" || e == "E" {
            var exponent = "e"
            var look = 1
            if let s = peek(1), s == "+" || s == "-" {
                exponent.append(s)
                look = 2
            }
            if let d = peek(look), d.isNumber {
                index += look
                while let d = peek(), d.isNumber {
                    exponent.append(d)
                    index += 1
                }
                text += exponent
                isReal = true
            }
        }
        if !isReal, let value = Int64(text) { return .integer(value) }
        if !isReal, UInt64(text) == UInt64(Int64.max) + 1 { return .integerMagnitudeOverflow }
        guard let value = Double(text), value.isFinite else {
            throw PredicateError(.syntax, "number '\(text)' is out of range", column: start)
        }
        return .real(value)
    }
}
