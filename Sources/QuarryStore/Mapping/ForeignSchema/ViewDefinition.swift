import QuarryEngine

/// What a view's definition says of its rows, read without running it: whether they are
/// some of one table's rows, each once, and which of the table's columns a view column
/// shows as it is. A view keyed so needs no reading of its rows to know its key
/// (`ForeignSchema+Views`); one this cannot read (a join, a grouping, a compound, a
/// CTE, DISTINCT, a subquery in FROM) is keyed by its rows' places, which is always right.
/// The text is SQLite's `CREATE VIEW` or PostgreSQL's `pg_get_viewdef`; a word it does
/// not expect makes it say nothing, never guess.
package struct ViewDefinition: Equatable {
    /// The table the view reads (`schema` when the definition names one), and whether it
    /// reads it `ONLY` (PostgreSQL: without the tables that inherit it).
    package let schema: String?
    package let table: String
    package let only: Bool
    /// The table's column each view column shows bare (`id`, `t.id`, `a.id AS key`), by
    /// the view column's place; nil for one that computes its value.
    package let columns: [String?]
    /// The view selects `*` and nothing else: each view column is the table's of its name.
    package let star: Bool

    /// The table's column the view's column at `index` (named `name`) shows as it is.
    package func column(at index: Int, named name: String) -> String? {
        if star { return name }
        return index < columns.count ? columns[index] : nil
    }

    /// Words after the table that end what the view may say and keep its rows the table's.
    private static let tails: Set<String> = ["where", "order", "limit", "offset", "fetch"]
    /// Words anywhere outside parentheses after the table that make rows of several.
    private static let combining: Set<String> = [
        "group", "having", "union", "intersect", "except", "window", "join", "natural", "cross", "left", "right", "full",
        "inner", "outer", "lateral", "using", "on", "indexed", "tablesample", "values"
    ]
    /// Words that cannot be a table's alias.
    private static let keywords = tails.union(combining).union(["as", "select", "from", "only"])

    /// The view `definition` as one table's rows, or nil.
    package init?(_ definition: String) {
        var tokens = Token.read(definition)[...]
        // SQLite: CREATE [TEMP] VIEW [IF NOT EXISTS] name [(columns)] AS SELECT ...;
        // renamed columns keep their places, which is all `columns` says.
        if tokens.first?.isWord("create") == true {
            guard let body = tokens.firstIndex(where: { $0.depth == 0 && $0.isWord("as") }) else { return nil }
            tokens = tokens[(body + 1)...]
        }
        if tokens.last?.isMark(";") == true && tokens.last?.depth == 0 { tokens = tokens.dropLast() }
        guard tokens.popFirst()?.isWord("select") == true else { return nil }
        if tokens.first?.isWord("all") == true { tokens = tokens.dropFirst() }
        guard let from = tokens.firstIndex(where: { $0.depth == 0 && $0.isWord("from") }) else { return nil }
        var items: [[Token]] = [[]]
        for token in tokens[..<from] {
            if token.depth == 0 && token.isMark(",") { items.append([]) } else { items[items.count - 1].append(token) }
        }
        // DISTINCT (or PostgreSQL's DISTINCT ON) may merge rows: said of the first item.
        if items.first?.first?.isWord("distinct") == true { return nil }
        let stars = items.filter { Self.isStar($0) }
        guard stars.isEmpty || items.count == 1 else { return nil }
        var rest = tokens[(from + 1)...]
        let only = rest.first?.isWord("only") == true
        if only { rest = rest.dropFirst() }
        guard let first = rest.popFirst(), first.isName else { return nil }
        var schema: String?
        var table = first.text
        if rest.first?.isMark(".") == true {
            rest = rest.dropFirst()
            guard let name = rest.popFirst(), name.isName else { return nil }
            schema = table
            table = name.text
        }
        if rest.first?.isWord("as") == true { rest = rest.dropFirst() }
        if let alias = rest.first, alias.isName, alias.quoted || !Self.keywords.contains(alias.text.lowercased()) { rest = rest.dropFirst() }
        if let next = rest.first, !(next.depth == 0 && !next.quoted && Self.tails.contains(next.text.lowercased())) { return nil }
        // Past the table only its filter, order and limit remain, commas among them.
        guard !rest.contains(where: { $0.depth == 0 && Self.combining.contains($0.word ?? "") }) else { return nil }
        self.schema = schema
        self.table = table
        self.only = only
        self.star = !stars.isEmpty
        self.columns = stars.isEmpty ? items.map(Self.bareColumn) : []
    }

    private static func isStar(_ item: [Token]) -> Bool {
        item.last?.isMark("*") == true && (item.count == 1 || item.count == 3 && item[1].isMark("."))
    }

    /// The column an item names bare (`c`, `t.c`, `s.t.c`, any followed by `[AS] alias`).
    private static func bareColumn(_ item: [Token]) -> String? {
        var parts = item[...]
        // The alias, which names the view's column, not the table's.
        if parts.count >= 2, let last = parts.last, last.isName, parts[parts.endIndex - 2].isWord("as") {
            parts = parts.dropLast(2)
        } else if parts.count == 2 || parts.count == 4 || parts.count == 6, let last = parts.last, last.isName {
            parts = parts.dropLast()
        }
        // PostgreSQL writes a column it shows as it is so: `t.id`.
        let names = parts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let dots = parts.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        guard (1...3).contains(names.count), names.allSatisfy(\.isName), dots.allSatisfy({ $0.isMark(".") }),
            let column = names.last, column.quoted || !keywords.contains(column.text.lowercased()),
            column.quoted || !["null", "true", "false", "current_date", "current_time", "current_timestamp"].contains(column.text.lowercased())
        else { return nil }
        return column.text
    }

    /// One word, name, literal or mark of the definition, at its depth of parentheses.
    struct Token: Equatable {
        var text: String
        /// A quoted name (`"x"`, `` `x` ``, `[x]`): never a keyword.
        var quoted = false
        /// A string or number: never a name.
        var literal = false
        var depth: Int

        var isName: Bool { !literal && (quoted || text.first.map { $0.isLetter || $0 == "_" } == true) }
        var word: String? { quoted || literal ? nil : text.lowercased() }
        func isWord(_ word: String) -> Bool { self.word == word }
        /// Punctuation, not a quoted name or string that holds it.
        func isMark(_ mark: String) -> Bool { !quoted && !literal && text == mark }

        /// The tokens of `sql`; comments and spaces are left out.
        static func read(_ sql: String) -> [Token] {
            let chars = Array(sql.unicodeScalars)
            var tokens: [Token] = []
            var depth = 0
            var at = 0
            // A doubled quote is one (not for `]`): `SQLQuotedText`.
            func quoted(until close: Unicode.Scalar, from start: Int) -> (String, Int) {
                let read = SQLQuotedText.read(chars, from: start, closing: close, doubles: close != "]")
                return (String(String.UnicodeScalarView(read.body)), read.next)
            }
            while at < chars.count {
                let c = chars[at]
                if c.properties.isWhitespace {
                    at += 1
                } else if c == "-", at + 1 < chars.count, chars[at + 1] == "-" {
                    while at < chars.count, chars[at] != "\n" { at += 1 }
                } else if c == "/", at + 1 < chars.count, chars[at + 1] == "*" {
                    at += 2
                    while at + 1 < chars.count, !(chars[at] == "*" && chars[at + 1] == "/") { at += 1 }
                    at += 2
                } else if c == "\"" || c == "`" || c == "[" {
                    let (text, next) = quoted(until: c == "[" ? "]" : c, from: at + 1)
                    tokens.append(Token(text: text, quoted: true, depth: depth))
                    at = next
                } else if c == "'" {
                    let (text, next) = quoted(until: "'", from: at + 1)
                    tokens.append(Token(text: text, literal: true, depth: depth))
                    at = next
                } else if c.properties.isAlphabetic || c == "_" || c.value >= 0x80 {
                    var end = at
                    while end < chars.count,
                        chars[end].properties.isAlphabetic || chars[end].properties.numericType != nil || chars[end] == "_"
                            || chars[end] == "$" || chars[end].value >= 0x80
                    {
                        end += 1
                    }
                    tokens.append(Token(text: String(String.UnicodeScalarView(chars[at..<end])), depth: depth))
                    at = end
                } else if c.properties.numericType != nil {
                    var end = at
                    while end < chars.count, chars[end].properties.numericType != nil || chars[end] == "." || chars[end].properties.isAlphabetic {
                        end += 1
                    }
                    tokens.append(Token(text: String(String.UnicodeScalarView(chars[at..<end])), literal: true, depth: depth))
                    at = end
                } else {
                    if c == ")" { depth = max(0, depth - 1) }
                    tokens.append(Token(text: String(c), depth: depth))
                    if c == "(" { depth += 1 }
                    at += 1
                }
            }
            return tokens
        }
    }
}
