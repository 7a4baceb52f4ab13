/// A line typed at the prompt that Lua refused and that reads as SQL, as a person used to
/// sqlite3, psql, litecli or the DuckDB shell types it: a query runs as `sql()` would, and
/// a statement that writes is answered with the Lua that does the same here. Only at an
/// interactive prompt, and only after Lua refused the line: `select(2, ...)` stays Lua, and
/// scripts stay pure Lua.
enum SQLAtPrompt {
    /// What to do with a line Lua refused.
    enum Reading: Equatable {
        /// A query: run it as `sql()` would and print its rows.
        case query(String)
        /// A statement that writes: one line saying what does it here.
        case answer(String)
    }

    /// Statements `sql()` runs (it refuses any that would write).
    static let queryWords: Set<String> = ["SELECT", "WITH", "VALUES", "EXPLAIN", "PRAGMA"]

    /// DuckDB's and MySQL's `DESCRIBE t` (or `DESC t`).
    private static let describe = #"here .schema NAME describes a table (its columns, keys and relationships)"#

    /// What writes here instead of each statement that writes.
    static let answers: [String: String] = [
        "INSERT": #"SQL here only reads: a row is added with Entity:new{ key = value, ... }, then save()"#,
        "UPDATE": #"SQL here only reads: o.key = value, then save(); or Entity:updateall("pred", { args }, { key = value })"#,
        "DELETE": #"SQL here only reads: o:delete(), then save(); or Entity:deleteall("pred", { args })"#,
        "CREATE": #"SQL here only reads: a table is made with entity "Name" { key = "type", ... }"#,
        "DROP": #"SQL here only reads: Entity:deleteall() empties a table; entity "Name" { ... } again drops attributes"#,
        "ALTER": #"SQL here only reads: entity "Name" { ... } again migrates a table in place (renamedFrom = "old" renames)"#,
        // Not statements SQLite knows: DuckDB's and MySQL's ways to list and describe.
        "DESCRIBE": describe, "DESC": describe,
        "SHOW": #"here .tables lists the tables, .schema NAME describes one, .show lists the settings"#,
        // psql's `SET TIME ZONE 'x'`, `SET search_path = ...`: Lua refused it.
        "SET":
            #"SQL here only reads, each statement in a read-only transaction of its own: a server setting is given for the role (ALTER ROLE ... SET name = value) or in the URL (options=-c name=value), and sql("SHOW name") reads it"#
    ]

    /// MySQL's and DuckDB's `SHOW` statements, which list or describe (`SHOW TABLES`):
    /// answered with the way here. Any other `SHOW name` is psql's, reading a setting.
    private static let listingShows: Set<String> = ["TABLES", "DATABASES", "COLUMNS", "FULL", "CREATE", "INDEX", "INDEXES", "SCHEMAS", "ALL"]

    /// psql's `SHOW timezone` (`SHOW search_path;`): the statement to run as `sql()` runs
    /// it, which reads a PostgreSQL schema's setting; nil for MySQL's listing `SHOW`s and
    /// any other line. Where it fails (a SQLite file), the answer for `SHOW` is said.
    static func showSetting(_ line: String) -> String? {
        var text = line.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix(";") || text.hasSuffix(" ") { text.removeLast() }
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0].uppercased() == "SHOW", !listingShows.contains(words[1].uppercased()),
            words[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
        else { return nil }
        return text
    }

    /// How `line` reads as SQL (nil: it does not start with a statement's first word).
    static func reading(_ line: String) -> Reading? {
        let text = line.trimmingCharacters(in: .whitespaces)
        let word = String(text.prefix { $0.isLetter }).uppercased()
        // The word alone, or followed by what may follow it (`SELECT*`, `VALUES(1)`).
        guard !word.isEmpty, text.dropFirst(word.count).first.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true else { return nil }
        if queryWords.contains(word) { return .query(text) }
        return answers[word].map(Reading.answer)
    }

    /// A query that is plainly SQL though Lua would also parse it (`SELECT * FROM "v"` is
    /// Lua's `SELECT * FROM("v")`, `VALUES (1, 2)` a call), so it runs as SQL without Lua
    /// running it first and failing on a nil global: the statement's word, a space, and
    /// what SQL has next there. `select('#', ...)`, `values = {...}` and `explain(r)` stay
    /// Lua.
    static func plainQuery(_ line: String) -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        let word = String(text.prefix { $0.isLetter })
        let rest = text.dropFirst(word.count)
        guard let space = rest.first, space == " " || space == "\t",
            let next = rest.first(where: { $0 != " " && $0 != "\t" })
        else { return nil }
        switch word.uppercased() {
        case "SELECT": return next.isLetter || next.isNumber || "*'\"(-".contains(next) ? text : nil
        case "VALUES": return next == "(" ? text : nil
        case "WITH", "EXPLAIN", "PRAGMA": return next.isLetter ? text : nil
        default: return nil
        }
    }

    /// The Lua chunk that runs `query` as `sql()` and prints its rows, as `=sql(...)` would.
    static func chunk(_ query: String) -> String { "return " + call(query) }

    /// The chunk that prints `query`'s rows as the prompt does, where nothing prints a
    /// chunk's value (`quarry f.db "SELECT …"`).
    static func showingChunk(_ query: String) -> String { "quarry.show(" + call(query) + ")" }

    private static func call(_ query: String) -> String {
        var text = query
        // psql's closing `\g` (`\gx`, MySQL's `\G`) sends the statement, as ';' does.
        for ending in ["\\gx", "\\g", "\\G"] where text.trimmingCharacters(in: .whitespaces).hasSuffix(ending) {
            text = String(text.trimmingCharacters(in: .whitespaces).dropLast(ending.count))
            break
        }
        // SQLite takes one statement: a closing semicolon, as psql wants one, is no second.
        while text.hasSuffix(";") || text.hasSuffix(" ") { text.removeLast() }
        // quarry.sql: a script that took the global name for its own still gets SQL here.
        return "quarry.sql(" + luaQuote(text) + ")"
    }
}
