/// Keys spelled as the predicate grammar's reserved words (`first`, `last`, `size`), written
/// without the `#` a predicate needs, where the grammar cannot read them as its words: in
/// a property, a group, an aggregate's argument or a sort key, `size / 1048576` is
/// `#size / 1048576`. The text is rewritten, never read another way: a word is escaped
/// only where, left as it is, the grammar would have refused it.
import QuarryPredicates

public enum ReservedKeys {
    /// The grammar's reserved words, its own set.
    public static var words: Set<String> { PredicateParser.reserved }
    /// Words the grammar reads only inside `[ ]` (`tags[SIZE]`): anywhere else a key.
    public static let indexWords: Set<String> = ["FIRST", "LAST", "SIZE"]
    /// Words that are values or constructs where an operand stands (`NULL`, `SUBQUERY(`).
    static let operandWords: Set<String> = ["NULL", "NIL", "TRUE", "FALSE", "YES", "NO", "SELF", "SUBQUERY", "CAST", "FUNCTION"]

    /// The text with `#` before each reserved word that can only be a key where it
    /// stands, and where each `#` went (0-based, in the result), so that a column in a
    /// message about the result can be turned back into one of `text`.
    /// `isKey`: whether a name is a key of the entity, for a word standing alone (after a
    /// `.` it can only be a key). `expression`: `text` is one expression, not a predicate,
    /// so that an operator's word (`in`, `like`) is a key wherever an operand stands
    /// outside a SUBQUERY; in a predicate only the index words are rewritten.
    static func escaped(_ text: String, expression: Bool, isKey: (String) -> Bool) -> (text: String, inserted: [Int]) {
        let chars = Array(text)
        var out: [Character] = []
        var inserted: [Int] = []
        var i = 0
        // What the last token was: a '.', a '[', or anything else.
        enum Previous { case dot, bracket, other }
        var previous = Previous.other
        // For each open '(', whether it opened a SUBQUERY.
        var parentheses: [Bool] = []
        var subqueryNext = false
        func nextNonSpace(_ from: Int) -> Character? {
            var j = from
            while j < chars.count, chars[j].isWhitespace { j += 1 }
            return j < chars.count ? chars[j] : nil
        }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace {
                out.append(c)
                i += 1
                continue
            }
            if c == "\"" || c == "'" {
                var j = i + 1
                while j < chars.count, chars[j] != c { j += chars[j] == "\\" ? 2 : 1 }
                let end = min(j + 1, chars.count)
                out += chars[i..<end]
                i = end
                previous = .other
                continue
            }
            if c.isNumber {
                var j = i + 1
                while j < chars.count,
                    chars[j].isLetter || chars[j].isNumber || chars[j] == "_" || (chars[j] == "." && j + 1 < chars.count && chars[j + 1].isNumber)
                {
                    j += 1
                }
                out += chars[i..<j]
                i = j
                previous = .other
                continue
            }
            if c == "#" || c == "@" || c == "$" || c == "%" {
                // An escaped key, an operator (`@count`), a variable or a substitution.
                var j = i + 1
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                out += chars[i..<j]
                i = j
                previous = .other
                continue
            }
            if c.isLetter || c == "_" {
                var j = i + 1
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" || chars[j] == ":" { j += 1 }
                let name = String(chars[i..<j])
                let word = name.uppercased()
                let next = nextNonSpace(j)
                var escape = false
                if words.contains(word), !name.contains(":"), next != "(" {
                    if previous == .dot {
                        // After '.', a key path goes on: only a key can stand there.
                        escape = word != "SELF"
                    } else if indexWords.contains(word) {
                        escape = !(previous == .bracket && next == "]") && isKey(name)
                    } else if !operandWords.contains(word) {
                        escape = expression && !parentheses.contains(true) && isKey(name)
                    }
                }
                if escape {
                    inserted.append(out.count)
                    out.append("#")
                }
                subqueryNext = word == "SUBQUERY" && next == "("
                out += chars[i..<j]
                i = j
                previous = .other
                continue
            }
            switch c {
            case "(":
                parentheses.append(subqueryNext)
            case ")":
                _ = parentheses.popLast()
            default: break
            }
            subqueryNext = false
            previous = c == "." ? .dot : c == "[" ? .bracket : .other
            out.append(c)
            i += 1
        }
        return (String(out), inserted)
    }

    /// The column in `text` of a column (1-based) in its escaped form.
    static func originalColumn(_ column: Int, inserted: [Int]) -> Int {
        column - inserted.filter { $0 < column - 1 }.count
    }

    /// A name, or a name after `#`: one step of a key path as a sort key writes it.
    static func isEscapableName(_ name: Substring) -> Bool {
        let body = name.hasPrefix("#") ? name.dropFirst() : name
        guard let first = body.first, first.isLetter || first == "_" else { return false }
        return body.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
