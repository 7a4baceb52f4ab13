import QuarryEngine

/// The concrete Lua for an `UPDATE` or `DELETE` typed at the prompt (SQL here only
/// reads): `UPDATE Sale SET qty = 3 WHERE price > 2` is answered with
/// `Sale:updateall("price > 2", {}, { qty = 3 })`, built from the statement. `updateall`
/// sets values, so an assignment computed from a column (`price = price * 1.1`) is
/// answered with the loop over the objects that does it, saved by `save()`. Nil when the
/// statement is not one this can read (then the general answer is given).
struct SQLWriteAnswer {
    /// What the statement may name: an entity by its own name or its table's, with its
    /// attributes (a computed assignment reads them as `o.key`).
    struct Entity {
        let name: String
        let table: String
        let attributes: [String]
        /// The attributes that hold text: a sum assigned to one is written as its text
        /// (`tostring(o.timezone + 1)`), as SQLite's TEXT affinity stores it, where the
        /// number itself would be refused (`expects string, got integer`).
        var textAttributes: Set<String> = []
    }

    let entities: [Entity]

    func answer(_ statement: String) -> String? {
        guard var tokens = SQLTokens(statement)?.tokens else { return nil }
        while tokens.last == .symbol(";") { tokens.removeLast() }
        // A parameter (`?`, `?1`) has no value to put in the line.
        guard let first = tokens.first?.word, !tokens.contains(.symbol("?")) else { return nil }
        switch first {
        case "UPDATE": return update(Array(tokens.dropFirst()))
        case "DELETE": return delete(Array(tokens.dropFirst()))
        case "INSERT", "REPLACE": return insert(Array(tokens.dropFirst()))
        case "CREATE" where tokens.dropFirst().prefix(2).contains(where: { $0.word == "INDEX" }):
            // `CREATE [UNIQUE] INDEX`: not a table, which the general answer is about.
            return #"SQL here only reads: an attribute is indexed where it is declared, entity "Name" { key = { "type", indexed = true } }"#
        default: return nil
        }
    }

    /// `UPDATE [OR …] t SET a = v, … [WHERE …]`.
    private func update(_ tokens: [SQLTokens.Token]) -> String? {
        var rest = tokens[...]
        if rest.first?.word == "OR" { rest = rest.dropFirst(2) }
        guard let (entity, afterName) = entityNamed(rest), afterName.first?.word == "SET" else { return nil }
        rest = afterName.dropFirst()
        // The assignments, up to WHERE at the outer level.
        var assignments: [(key: String, value: [SQLTokens.Token])] = []
        var depth = 0
        var current: [SQLTokens.Token] = []
        var key: String?
        func finish() -> Bool {
            guard let name = key, !current.isEmpty else { return false }
            assignments.append((name, current))
            key = nil
            current = []
            return true
        }
        var whereTokens: [SQLTokens.Token]?
        while let token = rest.first {
            rest = rest.dropFirst()
            if key == nil {
                guard let name = token.name, rest.first == .symbol("=") else { return nil }
                key = attribute(name, of: entity) ?? name
                rest = rest.dropFirst()
                continue
            }
            if token == .symbol("(") { depth += 1 }
            if token == .symbol(")") { depth -= 1 }
            if depth == 0, token == .symbol(",") {
                guard finish() else { return nil }
                continue
            }
            if depth == 0, token.word == "WHERE" {
                whereTokens = Array(rest)
                break
            }
            if depth == 0, let word = token.word, ["FROM", "RETURNING", "ORDER", "LIMIT"].contains(word) { return nil }
            current.append(token)
        }
        guard finish(), let handle = handle(entity) else { return nil }
        var condition: String?
        if let whereTokens {
            guard let readable = try? predicate(whereTokens, of: entity) else { return nil }
            condition = readable
        }
        let literals = assignments.map { ($0.key, Self.literal($0.value)) }
        if literals.allSatisfy({ $0.1 != nil }) {
            let values = literals.map { "\(luaKey($0.0)) = \($0.1 ?? "")" }.joined(separator: ", ")
            let pred = condition.map(luaQuote) ?? "nil"
            return "SQL here only reads; this does it, written at once (rollback() does not undo it): \(handle):updateall(\(pred), {}, { \(values) })"
        }
        // A value computed from a column: the loop over the objects sets each, and save() writes them.
        let sets = assignments.map { assignment in
            let value = expression(assignment.value, of: entity) ?? "…"
            let arithmetic = assignment.value.contains { ["+", "-", "*", "/", "%"].map(SQLTokens.Token.symbol).contains($0) }
            let text = arithmetic && entity.textAttributes.contains(assignment.key)
            return "o.\(assignment.key) = " + (text ? "tostring(\(value))" : value)
        }.joined(separator: "; ")
        let fetch = "\(handle):fetch(" + (condition.map(luaQuote) ?? "") + ")"
        return "SQL here only reads, and updateall sets values, not values computed from a column; this loop does it: "
            + "for _, o in ipairs(\(fetch)) do \(sets) end; save()"
    }

    /// `INSERT [OR …] INTO t [(a, b)] VALUES (v, w)[, (…)]`: a `new{}` a row, then
    /// `save()`; without a column list the values go to the attributes in their order.
    /// With a value computed, or values that do not match the columns, the entity's own
    /// `new{}` with its attributes named, for the values to be filled in.
    private func insert(_ tokens: [SQLTokens.Token]) -> String? {
        var rest = tokens[...]
        if rest.first?.word == "OR" { rest = rest.dropFirst(2) }
        guard rest.first?.word == "INTO", let (entity, afterName) = entityNamed(rest.dropFirst()), let handle = handle(entity) else { return nil }
        let template = "\(handle):new{ " + entity.attributes.map { "\(luaKey($0)) = …" }.joined(separator: ", ") + " }"
        let general = "SQL here only reads: a row is added with \(template), then save()"
        rest = afterName
        var columns: [String] = []
        if rest.first?.word == "VALUES" {
            // No column list: the values go to the columns in their order, as `.schema`
            // lists them (a row with another count of values gets the template).
            columns = entity.attributes
            rest = rest.dropFirst()
        } else {
            guard rest.first == .symbol("(") else { return general }
            rest = rest.dropFirst()
            while let token = rest.first, token != .symbol(")") {
                rest = rest.dropFirst()
                if token == .symbol(",") { continue }
                guard let name = token.name else { return general }
                columns.append(attribute(name, of: entity) ?? name)
            }
            guard rest.first == .symbol(")"), rest.dropFirst().first?.word == "VALUES" else { return general }
            rest = rest.dropFirst(2)
        }
        var rows: [[String]] = []
        while rest.first == .symbol("(") {
            rest = rest.dropFirst()
            var values: [[SQLTokens.Token]] = [[]]
            var depth = 0
            while let token = rest.first {
                rest = rest.dropFirst()
                if token == .symbol(")") && depth == 0 { break }
                if token == .symbol("(") { depth += 1 }
                if token == .symbol(")") { depth -= 1 }
                if token == .symbol(","), depth == 0 {
                    values.append([])
                    continue
                }
                values[values.count - 1].append(token)
            }
            let literals = values.compactMap(Self.literal)
            guard literals.count == values.count, literals.count == columns.count else { return general }
            rows.append(literals)
            if rest.first == .symbol(",") { rest = rest.dropFirst() }
        }
        guard !rows.isEmpty, rest.isEmpty else { return general }
        let news = rows.map { row in
            "\(handle):new{ " + zip(columns, row).map { "\(luaKey($0)) = \($1)" }.joined(separator: ", ") + " }"
        }
        return "SQL here only reads; this does it, written by save(): " + news.joined(separator: "; ") + "; save()"
    }

    /// `DELETE FROM t [WHERE …]`.
    private func delete(_ tokens: [SQLTokens.Token]) -> String? {
        guard tokens.first?.word == "FROM", let (entity, rest) = entityNamed(tokens.dropFirst()), let handle = handle(entity) else { return nil }
        if rest.isEmpty { return "SQL here only reads; this does it, written at once (rollback() does not undo it): \(handle):deleteall()" }
        guard rest.first?.word == "WHERE", let condition = try? predicate(Array(rest.dropFirst()), of: entity) else { return nil }
        return "SQL here only reads; this does it, written at once (rollback() does not undo it): \(handle):deleteall(\(luaQuote(condition)), {})"
    }

    /// The entity a table name (`t`, `main.t`, `"t"`) names, and the tokens after it.
    private func entityNamed(_ tokens: ArraySlice<SQLTokens.Token>) -> (Entity, ArraySlice<SQLTokens.Token>)? {
        var rest = tokens
        guard var name = rest.first?.name else { return nil }
        rest = rest.dropFirst()
        if rest.first == .symbol("."), let table = rest.dropFirst().first?.name {
            name = table
            rest = rest.dropFirst(2)
        }
        let lower = name.lowercased()
        let entity =
            entities.first { $0.name == name } ?? entities.first { $0.name.lowercased() == lower || $0.table.lowercased() == lower }
        return entity.map { ($0, rest) }
    }

    /// The global a handle is bound to: the entity's name when Lua reads it as a name.
    private func handle(_ entity: Entity) -> String? {
        luaKey(entity.name) == entity.name ? entity.name : nil
    }

    private func attribute(_ name: String, of entity: Entity) -> String? {
        entity.attributes.first { $0 == name } ?? entity.attributes.first { $0.lowercased() == name.lowercased() }
    }

    struct Unreadable: Error {}

    /// A WHERE clause in the predicate grammar: names bare, strings in single quotes,
    /// `<>` as `!=`, `IS [NOT] NULL` as `== nil` (`!= nil`), `BETWEEN 1 AND 5` as
    /// `BETWEEN {1, 5}`. SQLite's LIKE ignores the case of ASCII letters: it is `LIKE[c]`,
    /// its `%` and `_` as `*` and `?` (a `*`, `?` or `\` of the pattern matches itself,
    /// escaped); GLOB keeps case: `LIKE`. A parameter (`?`), `x NOT LIKE` (the grammar's
    /// NOT goes before the comparison), ESCAPE, a word the grammar lacks, or a name that is
    /// no attribute of `entity` (`rowid`: the line given would be refused) makes it unreadable.
    private func predicate(_ tokens: [SQLTokens.Token], of entity: Entity) throws -> String {
        var out: [String] = []
        var index = 0
        // `IN (1, 2)` is `IN {1, 2}` in the grammar: the depth of the list's parenthesis.
        var depth = 0
        var listDepth: Int?
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .word(let text) where text.uppercased() == "IS":
                let negated = index < tokens.count && tokens[index].word == "NOT"
                if negated { index += 1 }
                guard index < tokens.count, tokens[index].word == "NULL" else { throw Unreadable() }
                index += 1
                out.append(negated ? "!= nil" : "== nil")
            case .word(let text):
                let upper = text.uppercased()
                // `x NOT LIKE`, `x NOT IN`: NOT after an operand, which the grammar has before.
                if upper == "NOT", let last = out.last, !["AND", "OR", "NOT", "("].contains(last) { throw Unreadable() }
                if ["ESCAPE", "REGEXP", "MATCH"].contains(upper) { throw Unreadable() }
                if upper == "BETWEEN" {
                    // Two values alone: `BETWEEN {1, 5}`.
                    guard let and = tokens[index...].firstIndex(where: { $0.word == "AND" }),
                        let low = Self.predicateValue(tokens[index..<and]), and + 1 < tokens.count
                    else { throw Unreadable() }
                    let signed = and + 2 < tokens.count && [.symbol("-"), .symbol("+")].contains(tokens[and + 1]) ? 2 : 1
                    guard let high = Self.predicateValue(tokens[(and + 1)..<min(tokens.count, and + 1 + signed)]) else { throw Unreadable() }
                    out.append("BETWEEN {\(low), \(high)}")
                    index = and + 1 + signed
                } else if upper == "LIKE" {
                    out.append("LIKE[c]")
                } else if upper == "GLOB" {
                    out.append("LIKE")
                } else if ["AND", "OR", "NOT", "IN", "TRUE", "FALSE"].contains(upper) {
                    // Keywords as the grammar writes them; names and numbers as typed.
                    out.append(upper)
                } else if upper == "NULL" {
                    out.append("nil")
                } else if text.first.map({ $0.isLetter || $0 == "_" }) == true {
                    // A name as the entity spells it: SQL's are any case, the predicate's not.
                    guard let name = attribute(text, of: entity) else { throw Unreadable() }
                    out.append(name)
                } else {
                    out.append(text)
                }
            case .quoted(let name):
                guard let attribute = attribute(name, of: entity) else { throw Unreadable() }
                out.append(attribute)
            case .string(let text):
                var pattern = text
                // A `\` of SQL's patterns matches itself; the grammar's escapes the next character.
                if out.last == "LIKE[c]" || out.last == "LIKE" { pattern = pattern.replacingOccurrences(of: "\\", with: "\\\\") }
                if out.last == "LIKE[c]" {
                    // What the grammar's LIKE reads as wildcards matches itself in SQL's LIKE.
                    pattern = pattern.replacingOccurrences(of: "*", with: "\\*").replacingOccurrences(of: "?", with: "\\?")
                        .replacingOccurrences(of: "%", with: "*").replacingOccurrences(of: "_", with: "?")
                } else if out.last == "LIKE", pattern.contains("[") {
                    // GLOB's character classes have no form in the grammar.
                    throw Unreadable()
                }
                out.append(Self.predicateString(pattern))
            case .symbol(let symbol):
                switch symbol {
                case "<>": out.append("!=")
                case "(":
                    if out.last == "IN", listDepth == nil { listDepth = depth }
                    out.append(listDepth == depth ? "{" : "(")
                    depth += 1
                case ")":
                    depth -= 1
                    out.append(listDepth == depth ? "}" : ")")
                    if listDepth == depth { listDepth = nil }
                case "=", "==", "!=", "<", "<=", ">", ">=", ",", "+", "-", "*", "/": out.append(symbol)
                default: throw Unreadable()
                }
            }
        }
        guard !out.isEmpty else { throw Unreadable() }
        return out.joined(separator: " ").replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
            .replacingOccurrences(of: "{ ", with: "{").replacingOccurrences(of: " }", with: "}").replacingOccurrences(of: " ,", with: ",")
    }

    /// Text as the predicate grammar quotes it.
    static func predicateString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// One token alone, after a sign if there is one: the sign as written in front of a
    /// number ("-", or "" for none or "+"); nil for more or fewer tokens.
    static func signed(_ tokens: ArraySlice<SQLTokens.Token>) -> (sign: String, token: SQLTokens.Token)? {
        var tokens = tokens
        var sign = ""
        if tokens.count == 2, let first = tokens.first, first == .symbol("-") || first == .symbol("+") {
            sign = first == .symbol("-") ? "-" : ""
            tokens = tokens.dropFirst()
        }
        guard tokens.count == 1, let token = tokens.first else { return nil }
        return (sign, token)
    }

    /// A number (signed or not) or a string alone, as the predicate grammar writes it; nil
    /// for anything else.
    static func predicateValue(_ tokens: ArraySlice<SQLTokens.Token>) -> String? {
        guard let (sign, token) = signed(tokens) else { return nil }
        switch token {
        case .word(let text) where Double(text) != nil: return sign + text
        case .string(let text) where sign.isEmpty: return predicateString(text)
        default: return nil
        }
    }

    /// A value alone (a number, a string, NULL, TRUE, FALSE) as Lua writes it; nil for
    /// anything computed.
    static func literal(_ tokens: [SQLTokens.Token]) -> String? {
        guard let (sign, token) = signed(tokens[...]) else { return nil }
        switch token {
        case .string(let text) where sign.isEmpty: return luaQuote(text)
        case .word(let text):
            if Double(text) != nil { return sign + text }
            guard sign.isEmpty else { return nil }
            switch text.uppercased() {
            case "NULL": return "null"
            case "TRUE": return "true"
            case "FALSE": return "false"
            default: return nil
            }
        default: return nil
        }
    }

    /// A computed value in Lua: the entity's columns as `o.key`, numbers and strings as
    /// they are, `||` as `..`; nil when it holds what Lua would not read the same (a
    /// function call, a CASE).
    private func expression(_ tokens: [SQLTokens.Token], of entity: Entity) -> String? {
        var out: [String] = []
        for token in tokens {
            switch token {
            case .word(let text) where Double(text) != nil: out.append(text)
            case .word(let text), .quoted(let text):
                guard let key = attribute(text, of: entity) else { return nil }
                out.append("o." + key)
            case .string(let text): out.append(luaQuote(text))
            case .symbol(let symbol):
                switch symbol {
                case "||": out.append("..")
                case "+", "-", "*", "/", "%", "(", ")": out.append(symbol)
                default: return nil
                }
            }
        }
        return out.isEmpty ? nil : out.joined(separator: " ").replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
    }
}

/// SQL's tokens as far as an UPDATE or DELETE typed at the prompt needs them: words
/// (names, keywords, numbers), quoted names (`"t"`, `[t]`, `` `t` ``), strings (`'it''s'`)
/// and symbols. Nil for text that ends inside a quote.
struct SQLTokens {
    enum Token: Equatable {
        case word(String)
        case quoted(String)
        case string(String)
        case symbol(String)

        /// A keyword, upper-cased; nil for anything else.
        var word: String? { if case .word(let text) = self { return text.uppercased() } else { return nil } }

        /// A name, bare or quoted.
        var name: String? {
            switch self {
            case .word(let text) where text.first.map({ $0.isLetter || $0 == "_" }) ?? false: return text
            case .quoted(let text): return text
            default: return nil
            }
        }
    }

    let tokens: [Token]

    init?(_ text: String) {
        var tokens: [Token] = []
        let chars = Array(text)
        var i = 0
        func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "$" }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace {
                i += 1
            } else if c == "'" || c == "\"" || c == "`" || c == "[" {
                // A doubled quote is one quote inside ([…] has none).
                let read = SQLQuotedText.read(chars, from: i + 1, closing: c == "[" ? "]" : c, doubles: c != "[")
                guard read.closed else { return nil }
                tokens.append(c == "'" ? .string(String(read.body)) : .quoted(String(read.body)))
                i = read.next
            } else if c.isNumber || (c == "." && i + 1 < chars.count && chars[i + 1].isNumber) {
                var j = i
                while j < chars.count, chars[j].isNumber || chars[j] == "." || chars[j] == "e" || chars[j] == "E" { j += 1 }
                tokens.append(.word(String(chars[i..<j])))
                i = j
            } else if isWordCharacter(c) {
                var j = i
                while j < chars.count, isWordCharacter(chars[j]) { j += 1 }
                tokens.append(.word(String(chars[i..<j])))
                i = j
            } else {
                let pair = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
                if ["<>", "<=", ">=", "!=", "==", "||"].contains(pair) {
                    tokens.append(.symbol(pair))
                    i += 2
                } else {
                    tokens.append(.symbol(String(c)))
                    i += 1
                }
            }
        }
        self.tokens = tokens
    }
}
