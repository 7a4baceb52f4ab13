import QuarryModel

/// A statement typed over several lines, as psql and sqlite3 users type one: the first
/// line of `SELECT payee, count(*) AS n` ⏎ `FROM transactions …` is a whole statement
/// to SQLite, which runs it and fails on the column, and the next line is no Lua. A first
/// line that names columns before any FROM, and fails for that, is taken as unfinished and
/// waits for the rest up to `;`; a line that reads as the rest of a statement says how to
/// type one over several lines.
extension SQLAtPrompt {
    /// Words a line continuing a SELECT starts with (`from transactions t`, `group by payee`).
    static let continuingWords: Set<String> = [
        "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET", "JOIN", "LEFT", "INNER", "CROSS", "UNION", "EXCEPT",
        "INTERSECT", "WINDOW"
    ]

    /// How a statement is typed over several lines here.
    static let severalLines = "one over several lines ends with ';' (or type it on one line)"

    /// Whether the first line of a query, which ran and failed with `message`, is the
    /// start of a longer statement: it does not end with `;`, it has no FROM of its own,
    /// and what failed is a column (SQLite's `no such column`, PostgreSQL's `column "x"
    /// does not exist`) or a `*` with nothing to select from (`select *`: both engines say
    /// "no tables specified"), which only a FROM still to come would give.
    static func awaitsTheRest(_ query: String, failure message: String) -> Bool {
        let text = query.trimmingCharacters(in: .whitespaces)
        guard !text.hasSuffix(";"), !topLevelWords(text).contains("FROM") else { return false }
        let lowered = message.lowercased()
        return lowered.contains("no such column") || lowered.contains("column \"") && lowered.contains("does not exist")
            || lowered.contains("no tables specified")
    }

    /// Aggregates whose call with no FROM is a whole statement to SQLite that answers
    /// nothing a person asks (`select count(*)` is 1): the first line of a longer one.
    static let aggregateWords: Set<String> = ["COUNT", "SUM", "AVG", "TOTAL", "GROUP_CONCAT", "STRING_AGG"]

    /// Whether a first line waits for the rest before it runs: a SELECT of an aggregate
    /// with no FROM and no closing `;` (`select count(*)` ⏎ `from director;`), as psql
    /// and sqlite3 wait for a `;`. A blank line runs what was typed.
    static func awaitsFrom(_ query: String) -> Bool {
        let text = query.trimmingCharacters(in: .whitespaces)
        guard !text.hasSuffix(";") else { return false }
        let words = topLevelWords(text)
        return words.first == "SELECT" && !words.contains("FROM") && words.contains(where: aggregateWords.contains)
            && mistypedFrom(text) == nil
    }

    /// A word after a query's first that reads as FROM mistyped (`select count(*) form
    /// film`): that line is whole, so it runs, and its syntax error names the word.
    static func mistypedFrom(_ query: String) -> String? {
        topLevelWords(query).dropFirst().first { $0 != "FROM" && $0.count >= 3 && editDistance($0, "FROM") == 1 }
    }

    /// The answer to a line Lua refused that reads as the rest of a SQL statement whose
    /// start already ran (`from transactions t`), or nil.
    static func restOfStatement(_ line: String) -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        let word = String(text.prefix { $0.isLetter }).uppercased()
        guard continuingWords.contains(word), text.dropFirst(word.count).first.map({ $0 == " " || $0 == "\t" }) ?? false else { return nil }
        return "'\(word.lowercased()) …' continues a SQL statement: \(severalLines)"
    }

    /// The words of `text` outside strings, quoted names and parentheses, uppercased.
    static func topLevelWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var depth = 0
        var closing: Character?
        for c in text {
            if let end = closing {
                if c == end { closing = nil }
                continue
            }
            if c.isLetter || c == "_" || c.isNumber && !word.isEmpty {
                word.append(c)
                continue
            }
            if depth == 0, !word.isEmpty { words.append(word.uppercased()) }
            word = ""
            switch c {
            case "'", "\"", "`": closing = c
            case "[": closing = "]"
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            default: break
            }
        }
        if depth == 0, !word.isEmpty { words.append(word.uppercased()) }
        return words
    }
}
