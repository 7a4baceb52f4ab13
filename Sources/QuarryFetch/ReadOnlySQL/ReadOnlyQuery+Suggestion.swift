import QuarryModel
import QuarryStore

extension ReadOnlyQuery {
    /// The name meant where the engine refused the statement over a name it does not have
    /// (`select * from directors`: SQLite's "no such table: directors", PostgreSQL's
    /// `relation "directors" does not exist`). Neither engine's words are read: a name of
    /// the statement that the store has no table (after FROM or JOIN) or column of, and that
    /// the engine's message names, gets the nearest table entities are read from
    /// (`EntityStorage.nameInSQL`), or the nearest column of the tables the statement names
    /// (of every entity when it names none), its qualifier kept (`c.Nmae` → `c.Name`).
    /// Nil when no name is both named in the message and near one the store has.
    func suggestion(forFailure message: String, in context: ObjectContext) -> String? {
        let tables = context.entities.map { ($0, context.mapped($0).nameInSQL) }
        let tableNames = Set(tables.map { $0.1.lowercased() })
        let words = Self.sqlWords(sql)
        let named = tables.filter { table in words.contains { $0.text.lowercased() == table.1.lowercased() } }.map(\.0)
        var columns: [String] = []
        for entity in named.isEmpty ? tables.map(\.0) : named {
            for attribute in entity.attributeNames where !columns.contains(attribute) { columns.append(attribute) }
        }
        let columnNames = Set(columns.map { $0.lowercased() })
        for (i, word) in words.enumerated() where !word.callsFunction && Self.mentions(message, word.text) {
            let before = i > 0 ? words[i - 1].text.lowercased() : ""
            let dot = word.text.lastIndex(of: ".")
            let qualifier = dot.map { String(word.text[...$0]) } ?? ""
            let name = dot.map { String(word.text[word.text.index(after: $0)...]) } ?? word.text
            let lowered = name.lowercased()
            // A name of one or two letters is an alias or a name of its own, not a typo
            // (a materialized view `m` the store does not read is no mistyped `t`).
            guard name.count >= 3 else { continue }
            if before == "from" || before == "join" {
                guard !tableNames.contains(lowered), let meant = closestMatch(to: name, in: tables.map(\.1)) else { continue }
                return qualifier + meant
            }
            guard before != "as", !Self.sqlKeywords.contains(lowered), !tableNames.contains(lowered), !columnNames.contains(lowered),
                let meant = closestMatch(to: name, in: columns)
            else { continue }
            return qualifier + meant
        }
        return nil
    }

    /// Whether `message` holds `word` whole (not inside a longer name).
    static func mentions(_ message: String, _ word: String) -> Bool {
        var searched = message[...]
        while let range = searched.range(of: word) {
            let before = range.lowerBound > message.startIndex ? message[message.index(before: range.lowerBound)] : " "
            let after = range.upperBound < message.endIndex ? message[range.upperBound] : " "
            if !isNameCharacter(before), !isNameCharacter(after) { return true }
            searched = message[range.upperBound...]
        }
        return false
    }

    private static func isNameCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "." }

    /// The names a statement is written with, outside its string literals, as written
    /// (`c.Nmae` one name; a quoted name without its quotes), each with whether a `(`
    /// follows it (a function's name).
    package static func sqlWords(_ text: String) -> [(text: String, callsFunction: Bool)] {
        var words: [(text: String, callsFunction: Bool)] = []
        let characters = Array(text)
        var i = 0
        var word = ""
        func finish(at index: Int) {
            guard !word.isEmpty else { return }
            var j = index
            while j < characters.count, characters[j] == " " { j += 1 }
            words.append((word, j < characters.count && characters[j] == "("))
            word = ""
        }
        while i < characters.count {
            let c = characters[i]
            if c == "'" {
                finish(at: i)
                i += 1
                while i < characters.count, characters[i] != "'" { i += 1 }
            } else if c == "\"" || c == "`" {
                // A quoted name: its text, joined to a qualifier before it (`c."Name"`).
                i += 1
                while i < characters.count, characters[i] != c {
                    word.append(characters[i])
                    i += 1
                }
            } else if c.isLetter || c.isNumber || c == "_" || (c == "." && !word.isEmpty) {
                word.append(c)
            } else {
                finish(at: i)
            }
            i += 1
        }
        finish(at: i)
        return words.filter { $0.text.first.map { !$0.isNumber } ?? false }
    }

    /// Words of SQL itself, never a column's name to suggest for.
    static let sqlKeywords: Set<String> = [
        "select", "from", "where", "and", "or", "not", "as", "on", "join", "left", "right", "inner", "outer", "cross", "full", "group",
        "by", "order", "having", "limit", "offset", "distinct", "all", "case", "when", "then", "else", "end", "null", "is", "in", "like",
        "glob", "between", "asc", "desc", "union", "except", "intersect", "with", "values", "exists", "using", "natural", "true",
        "false", "collate", "nocase", "escape", "filter", "over", "partition", "window", "recursive", "explain", "query", "plan",
        "pragma", "cast", "integer", "real", "text", "blob", "numeric"
    ]
}
