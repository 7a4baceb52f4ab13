/// Commands of the shells people come from, typed at the prompt: psql's meta-commands
/// (`\dt`, `\d track`, `\q`), as psql and pgcli take them, run the dot-command that does
/// the same here, and one with none gets a line saying what does; the sqlite3 shell's
/// dot-commands that Quarry has not (`.indexes`, `.dump`) are answered with the way here
/// rather than "unknown command" alone. No Lua line starts with a backslash, so nothing
/// Lua would run is taken.
enum OtherShellHabits {
    /// What a psql meta-command does here.
    enum Reading: Equatable {
        /// The dot-command line to run in its place.
        case command(String)
        /// One line naming what does it here.
        case answer(String)
    }

    /// How `line` reads as a psql meta-command (nil: it is none).
    static func psql(_ line: String) -> Reading? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("\\") else { return nil }
        let words = text.dropFirst().split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let name = words.first.map(String.init) ?? ""
        let rest = words.count > 1 ? " " + words[1] : ""
        switch name {
        case "q": return .command(".quit")
        case "?": return .command(".help")
        case "d", "d+", "dS", "dS+": return .command(rest.isEmpty ? ".tables" : ".schema" + rest)
        case "dt", "dt+", "dv", "dv+", "dm", "dm+", "dE", "dE+": return .command(".tables")
        case "i", "ir": return .command(".read" + rest)
        case "timing": return .command(".timer" + rest)
        case "x": return .answer(#"psql's \x: here .mode line prints each row as its key = value lines, .mode table as a table"#)
        case "o": return .answer(#"psql's \o: here .once FILE sends the next result to FILE, and export(r, "file.csv") writes results"#)
        case "c", "connect", "l", "list": return .answer(#"psql's \\#(name): here .open DB opens another store (a file, or a postgresql:// URL)"#)
        default:
            return .answer(#"psql's \\#(name) has no match here: .tables, .schema NAME, .quit and the rest are dot-commands (.help lists them)"#)
        }
    }

    /// SQLite's statements that keep a file or join another (`VACUUM`, `ANALYZE`,
    /// `REINDEX`, `ATTACH 'w.db' AS w`, `DETACH w`), which Lua read as a nil global (printing
    /// `nil`, as if the statement ran) or not at all: SQL here only reads, and another file
    /// is opened beside the store with `open()`. Nil for any other line.
    static func fileStatement(_ line: String) -> String? {
        var text = line.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix(";") || text.hasSuffix(" ") { text.removeLast() }
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first?.uppercased() else { return nil }
        let sqlite3 = "SQL here only reads: sqlite3 FILE \"\(first)\" runs it, with no other program writing the file"
        switch first {
        case "VACUUM" where words.count <= 2: return "SQLite's VACUUM rewrites the file to its smallest; " + sqlite3
        case "ANALYZE" where words.count <= 2: return "SQLite's ANALYZE writes the statistics its planner reads; " + sqlite3
        case "REINDEX" where words.count <= 2: return "SQLite's REINDEX rebuilds indexes; " + sqlite3
        case "ATTACH" where words.count >= 2:
            return #"SQLite's ATTACH: here open("other.db") opens another file beside the store (its entities read, changed and saved there), "#
                + ".open DB opens one in the store's place, and .diff DB compares two"
        case "DETACH" where words.count >= 2: return "SQLite's DETACH: a file open() opened closes with the session"
        default: return nil
        }
    }

    /// psql's transaction statements (`BEGIN;`, `rollback;`, `START TRANSACTION`), which
    /// Lua read as a nil global (printing `nil`, as if the statement ran), as Quarry's
    /// `rollback` function (printing its address) or not at all: here every change is
    /// staged until `save()`, which writes it in one transaction, and `rollback()` drops
    /// it. Nil for any other line.
    static func transaction(_ line: String) -> String? {
        var text = line.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix(";") || text.hasSuffix(" ") { text.removeLast() }
        let words = text.uppercased().split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first else { return nil }
        let rest = Array(words.dropFirst())
        let plain = rest.isEmpty || rest == ["WORK"] || rest == ["TRANSACTION"]
        if first == "BEGIN" && plain || first == "START" && rest == ["TRANSACTION"] {
            return "psql's \(first == "BEGIN" ? "BEGIN" : "START TRANSACTION"): here every change is staged until save(), "
                + "which writes them all in one transaction (.changes lists them; rollback() drops them)"
        }
        if (first == "COMMIT" || first == "END") && plain {
            return "psql's \(first): here save() commits the staged changes (.changes lists them)"
        }
        if (first == "ROLLBACK" || first == "ABORT") && plain {
            return "psql's \(first): here rollback() drops the staged changes (.changes lists them)"
        }
        if (first == "SAVEPOINT" || first == "RELEASE") && rest.count <= 2 {
            return "psql's \(first): changes stay staged until save(), one transaction; rollback() drops them all"
        }
        return nil
    }

    /// DuckDB's `SUMMARIZE Taxi` (any case, a closing `;`): the name as typed, of the
    /// entity whose `summarize()` it is; nil for any other line. Two names are no Lua line,
    /// so nothing Lua would run is taken.
    static func summarize(_ line: String) -> String? {
        var text = line.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix(";") || text.hasSuffix(" ") || text.hasSuffix("\t") { text.removeLast() }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 2, words[0].uppercased() == "SUMMARIZE", let first = words[1].first, first.isLetter || first == "_",
            words[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return String(words[1])
    }

    /// The way here for a sqlite3 dot-command Quarry has not, by its name.
    static let sqlite3Answers: [String: String] = [
        "indexes":
            "indexed attributes show as indexed = true in .schema NAME; .schema --sql NAME prints the statements that made its indexes",
        "dump": #"Quarry writes no SQL dump: export(fetch("Entity"), "file.csv") writes an entity's rows (sqlite3 FILE .dump writes SQL)"#,
        "backup":
            #"Quarry writes no copy of a store: sqlite3 FILE ".backup COPY" writes a consistent one (save() first); copy FILE.quarry to COPY.quarry when there is one"#,
        "output": #".once FILE sends the next result to FILE; export(r, "file.csv") writes results"#,
        "fullschema": ".schema prints every entity",
        "databases": ".open DB opens another store; one is open at a time",
        "separator": #".mode csv prints commas; export(r, "file.tsv") writes tabs"#,
        "nullvalue": "nil is shown as nil in tables and written empty in CSV"
    ]

    /// The answer for the unknown dot-command `name`, when sqlite3 has it.
    static func sqlite3(_ name: String) -> String? {
        sqlite3Answers[name == "indices" ? "indexes" : name == "out" ? "output" : name]
    }

    /// Whether `name` matches `pattern` as SQLite's LIKE reads it: `%` any run, `_` one
    /// character, letters in any case.
    static func like(_ name: String, _ pattern: String) -> Bool {
        let text = Array(name.lowercased())
        let wanted = Array(pattern.lowercased())
        func match(_ i: Int, _ j: Int) -> Bool {
            guard j < wanted.count else { return i == text.count }
            switch wanted[j] {
            case "%": return (i...text.count).contains { match($0, j + 1) }
            case "_": return i < text.count && match(i + 1, j + 1)
            default: return i < text.count && text[i] == wanted[j] && match(i + 1, j + 1)
            }
        }
        return match(0, 0)
    }
}
