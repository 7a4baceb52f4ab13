/// A line of statements that ends in an expression (`c = city:first(); c`), as a person
/// used to sqlite3 or psql types several things on one line: Lua reads the expression
/// alone as an unfinished statement and waits for more, so the line is run as the
/// statements, then `return` the expression, which prints it. A line Lua takes as it is
/// whose last statement is a call (`x = 1; count("t")`) prints the call's values too, as
/// the call alone would (`QuarryRuntime.evaluateLine`).
enum TrailingExpression {
    /// `head; return tail` for `head; tail`, split at the last `;` outside strings,
    /// comments and brackets; nil when there is none or nothing follows it.
    static func rewritten(_ line: String) -> String? {
        guard !line.contains("\n"), let split = lastStatementBreak(line) else { return nil }
        let tail = line[line.index(after: split)...].trimmingCharacters(in: .whitespaces)
        guard !tail.isEmpty, !tail.hasPrefix("--") else { return nil }
        return String(line[..<split]) + "; return " + tail
    }

    /// The last `;` at the top level of `line`, skipping quoted and long strings and
    /// stopping at a comment.
    private static func lastStatementBreak(_ line: String) -> String.Index? {
        var found: String.Index?
        var depth = 0
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            switch c {
            case "\"", "'":
                // A quoted string, its escapes included.
                var j = line.index(after: i)
                while j < line.endIndex, line[j] != c {
                    if line[j] == "\\" { j = line.index(after: j) }
                    if j < line.endIndex { j = line.index(after: j) }
                }
                guard j < line.endIndex else { return found }
                i = j
            case "[" where longBracketLevel(line, at: i) != nil:
                // `[[...]]` or `[==[...]==]`: skip to its close.
                let level = longBracketLevel(line, at: i) ?? 0
                let close = "]" + String(repeating: "=", count: level) + "]"
                guard let end = line.range(of: close, range: line.index(i, offsetBy: level + 2)..<line.endIndex) else { return found }
                i = line.index(before: end.upperBound)
            case "-" where line[i...].hasPrefix("--"):
                return found
            case "(", "{", "[": depth += 1
            case ")", "}", "]": depth -= 1
            case ";" where depth == 0: found = i
            default: break
            }
            i = line.index(after: i)
        }
        return found
    }

    /// The level of a long bracket opening at `i` (`[[` is 0, `[==[` is 2), or nil.
    private static func longBracketLevel(_ line: String, at i: String.Index) -> Int? {
        var j = line.index(after: i)
        var level = 0
        while j < line.endIndex, line[j] == "=" {
            level += 1
            j = line.index(after: j)
        }
        return j < line.endIndex && line[j] == "[" ? level : nil
    }
}
