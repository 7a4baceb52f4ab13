import QuarryStore

/// A MATCHES pattern (ICU syntax, matched against the whole text) said as a POSIX extended
/// regular expression that matches the same texts, for a database whose regular
/// expressions are POSIX's (PostgreSQL's `~`); nil unless the pattern keeps to the part
/// of the syntax both read alike:
/// - literal characters: letters, digits, space, plain punctuation, and any other
///   character but a line terminator; `\` before one of `.*+?()[]{}|\^$`;
/// - `.`, which in ICU matches anything but a line terminator, said as the class of
///   everything else;
/// - `*`, `+`, `?` after an atom once, and `{n}`, `{n,}`, `{n,m}` (at most 255) after a
///   single character; none after a group that can match the empty string;
/// - groups `( )` that are not empty and do not start with `?`, and `|` between
///   non-empty alternatives;
/// - brackets of literal characters and ranges, optionally negated.
/// `\d`, `\w`, `\s` and their negations outside brackets are said as explicit classes
/// of what ICU matches (`RegexClasses`: Unicode digits in ICU, the locale's in POSIX).
/// `^`, and `$` ending an alternative of the whole pattern, anchor alike. Other anchors,
/// those escapes inside brackets, ICU's set operations inside brackets, possessive and lazy quantifiers, flags and
/// backreferences are left to Quarry's own function. A whole match's existence is the
/// same question in both (ICU backtracks, POSIX takes the longest), so `^(...)$` asks it.
public enum PortableRegex {
    public static func posix(_ pattern: String) -> String? {
        var reader = Reader(Array(pattern.unicodeScalars))
        guard let body = reader.alternatives(depth: 0), reader.isAtEnd else { return nil }
        return "^(" + body.text + ")$"
    }

    /// What `.` matches in ICU: anything but a line terminator (vertical tab and form
    /// feed are ones too).
    static let anyButLineTerminator = "[^\n\u{0B}\u{0C}\r\u{85}\u{2028}\u{2029}]"
    static let lineTerminators: Set<Unicode.Scalar> = ["\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
    /// ASCII punctuation that is a literal in both syntaxes, outside brackets.
    static let plainPunctuation = Set("-_,:;@#%&=<>'\"/~!` ".unicodeScalars)
    /// What `\` may make literal.
    static let escapable = Set(".*+?()[]{}|\\^$".unicodeScalars)

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var at = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var isAtEnd: Bool { at == scalars.count }
        var next: Unicode.Scalar? { at < scalars.count ? scalars[at] : nil }

        /// A piece of the translation, and whether it can match the empty string.
        typealias Piece = (text: String, canBeEmpty: Bool)

        /// `a|b|c`, each alternative non-empty.
        mutating func alternatives(depth: Int) -> Piece? {
            guard depth < 32 else { return nil }
            var parts: [Piece] = []
            while true {
                guard let part = sequence(depth: depth), !part.text.isEmpty else { return nil }
                parts.append(part)
                guard next == "|" else { return (parts.map(\.text).joined(separator: "|"), parts.contains { $0.canBeEmpty }) }
                at += 1
            }
        }

        /// Atoms, each with at most one quantifier. A bound (`{n,m}`) only on a single
        /// character: nested bounds make PostgreSQL refuse the expression as too complex.
        /// No quantifier on a group that can match the empty string: ICU answers such
        /// loops wrongly (`((.?){20})+x|.*` does not match "abcde" there), and ICU is
        /// what MATCHES means.
        mutating func sequence(depth: Int) -> Piece? {
            var out = ""
            var canBeEmpty = true
            while let c = next, c != "|", c != ")" {
                // `^` is the text's start in both (no multiline flag); `$` only where it ends
                // an alternative of the whole pattern: elsewhere ICU's may stand before a
                // last line terminator, which something after it could still match.
                if c == "^" || c == "$" {
                    at += 1
                    if c == "$", depth > 0 || !(next == nil || next == "|") { return nil }
                    if let q = next, "*+?{".unicodeScalars.contains(q) { return nil }
                    out += String(c)
                    continue
                }
                let isGroup = c == "("
                guard let atom = atom(depth: depth) else { return nil }
                var piece = atom
                if let q = quantifier() {
                    guard !(isGroup && (atom.canBeEmpty || q.hasPrefix("{"))) else { return nil }
                    piece = (atom.text + q, atom.canBeEmpty || q == "*" || q == "?" || q.hasPrefix("{0"))
                }
                // A quantifier left (a second one: possessive `*+`, lazy `*?`; or a `{`
                // that is no bound) means something else in ICU, or nothing in POSIX.
                if let c = next, "*+?{".unicodeScalars.contains(c) { return nil }
                out += piece.text
                canBeEmpty = canBeEmpty && piece.canBeEmpty
            }
            return (out, canBeEmpty)
        }

        mutating func atom(depth: Int) -> Piece? {
            guard let c = next else { return nil }
            switch c {
            case "(":
                at += 1
                guard next != "?", next != ")", let inner = alternatives(depth: depth + 1), next == ")" else { return nil }
                at += 1
                return ("(" + inner.text + ")", inner.canBeEmpty)
            case "[":
                return bracket().map { ($0, false) }
            case ".":
                at += 1
                return (PortableRegex.anyButLineTerminator, false)
            case "\\":
                at += 1
                guard let e = next else { return nil }
                // \d, \w, \s and their negations as the classes ICU means (`RegexClasses`).
                let negated = ["D": "d", "W": "w", "S": "s"] as [Unicode.Scalar: Unicode.Scalar]
                if let inside = RegexClasses.inside(negated[e] ?? e) {
                    at += 1
                    return ((negated[e] == nil ? "[" : "[^") + inside + "]", false)
                }
                guard PortableRegex.escapable.contains(e) else { return nil }
                at += 1
                return ("\\" + String(e), false)
            default:
                guard Self.isLiteral(c) else { return nil }
                at += 1
                return (String(c), false)
            }
        }

        /// A letter, a digit, plain punctuation, or any other character but a line
        /// terminator or ASCII that either syntax gives a meaning.
        static func isLiteral(_ c: Unicode.Scalar) -> Bool {
            if c.isASCII {
                return ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || PortableRegex.plainPunctuation.contains(c)
            }
            return !PortableRegex.lineTerminators.contains(c)
        }

        mutating func quantifier() -> String? {
            guard let c = next else { return nil }
            switch c {
            case "*", "+", "?":
                at += 1
                return String(c)
            case "{":
                var text = ""
                var i = at + 1
                while i < scalars.count, scalars[i] != "}" {
                    text.unicodeScalars.append(scalars[i])
                    i += 1
                }
                guard i < scalars.count else { return nil }
                // Digits only: Int("+2") reads, where ICU refuses `a{+2}` and POSIX takes it literally.
                func digits(_ part: Substring) -> Bool { !part.isEmpty && part.allSatisfy { ("0"..."9").contains($0) } }
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count), digits(parts[0]), let low = Int(parts[0]), low <= 255 else { return nil }
                if parts.count == 2, !parts[1].isEmpty {
                    guard digits(parts[1]), let high = Int(parts[1]), high <= 255, low <= high else { return nil }
                }
                at = i + 1
                return "{" + text + "}"
            default:
                return nil
            }
        }

        /// `[abc]`, `[^a-z0-9]`: literal characters and ranges of them, nothing else.
        mutating func bracket() -> String? {
            at += 1
            var out = "["
            if next == "^" {
                out += "^"
                at += 1
            }
            var items = 0
            while let c = next, c != "]" {
                guard Self.isBracketLiteral(c) else { return nil }
                at += 1
                if next == "-", at + 1 < scalars.count, scalars[at + 1] != "]" {
                    let high = scalars[at + 1]
                    guard Self.isBracketLiteral(high), c.value <= high.value else { return nil }
                    at += 2
                    out += String(c) + "-" + String(high)
                } else {
                    out += String(c)
                }
                items += 1
            }
            guard next == "]", items > 0 else { return nil }
            at += 1
            return out + "]"
        }

        /// Inside brackets: letters, digits, space and non-ASCII characters but line
        /// terminators (ICU gives `&`, `-`, `[`, `\` and `^` meanings there, POSIX others).
        static func isBracketLiteral(_ c: Unicode.Scalar) -> Bool {
            if c.isASCII { return ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == " " }
            return !PortableRegex.lineTerminators.contains(c)
        }
    }
}
