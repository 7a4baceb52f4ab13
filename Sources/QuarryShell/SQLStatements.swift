import Foundation

/// SQL text cut into its statements at each `;` that ends one, as sqlite3 reads a line
/// holding several (`select 1; select 2;`): not inside a quoted string or name (`'a;b'`,
/// `"x;y"`, `[z;]`, `` `w;` ``) or a comment (`-- ;`, `/* ; */`). Each statement keeps
/// its text without the `;`; empty ones (`;;`) are left out; the last may be unfinished.
enum SQLStatements {
    static func split(_ text: String) -> [String] {
        var statements: [String] = []
        var current: [Character] = []
        var closing: Character?
        var inLineComment = false
        var inBlockComment = false
        var previous: Character?
        // The `*` that opened a comment does not close it too (`/*/`).
        var opened = false
        func finish() {
            let statement = String(current).trimmingCharacters(in: .whitespacesAndNewlines)
            if !statement.isEmpty { statements.append(statement) }
            current = []
        }
        for c in text {
            defer { previous = c }
            if inLineComment {
                if c == "\n" { inLineComment = false }
                current.append(c)
                continue
            }
            if inBlockComment {
                if previous == "*" && c == "/" && !opened { inBlockComment = false }
                opened = false
                current.append(c)
                continue
            }
            if let end = closing {
                if c == end { closing = nil }
                current.append(c)
                continue
            }
            switch c {
            case "'", "\"", "`": closing = c
            case "[": closing = "]"
            case "-" where previous == "-": inLineComment = true
            case "*" where previous == "/":
                inBlockComment = true
                opened = true
            case ";":
                finish()
                continue
            default: break
            }
            current.append(c)
        }
        finish()
        return statements
    }

    /// The statements of the file at `path`, each without the comments before it, when it
    /// holds SQL: named `.sql`, or its first statement reads as one (`SELECT`, `WITH`, ...).
    /// Nil for a Lua script, or a file that cannot be read (the script's run says why).
    static func ofFile(_ path: String) -> [String]? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let statements = split(text).map(withoutComments).filter { !$0.isEmpty }
        guard let first = statements.first else { return path.lowercased().hasSuffix(".sql") ? [] : nil }
        guard path.lowercased().hasSuffix(".sql") || SQLAtPrompt.reading(first) != nil else { return nil }
        return statements
    }

    /// `statement` without the comments before its first word.
    private static func withoutComments(_ statement: String) -> String {
        var rest = Substring(statement)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("--") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
                rest = rest[end.upperBound...]
            } else {
                return String(rest)
            }
        }
    }
}
