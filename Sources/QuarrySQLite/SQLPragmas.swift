import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// The pragmas SQL that a person wrote (`sql()`) may run: those that only read. SQLite
/// carries out most pragmas while it compiles them, so `sqlite3_stmt_readonly` says
/// nothing of them and a pragma would have taken effect before any check of the compiled
/// statement (`PRAGMA hard_heap_limit=1` made the next allocation fail inside a
/// transaction, which stopped the process). The text is read here before anything is
/// compiled: every `PRAGMA` in it, in any statement, must be one of these.
public enum SQLPragmas {
    /// Pragmas that list or check something; an argument names what (`table_info(t)`).
    static let listing: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
        "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check"
    ]
    /// Pragmas that read a setting when given no argument (and set it when given one).
    static let reading: Set<String> = [
        "application_id", "auto_vacuum", "collation_list", "compile_options", "data_version",
        "database_list", "encoding", "foreign_keys", "freelist_count", "function_list",
        "journal_mode", "module_list", "page_count", "page_size", "pragma_list",
        "recursive_triggers", "schema_version", "user_version"
    ]

    /// Why `sql` may not run, naming the first pragma it holds that is not one of these;
    /// nil when it holds none.
    public static func refusal(in sql: String) -> String? {
        let tokens = SQLTokens(sql).all
        for (i, token) in tokens.enumerated() where token.isWord("pragma") {
            var j = i + 1
            var name = j < tokens.count ? tokens[j].name : nil
            // A schema-qualified pragma: `main.table_info(t)`.
            if j + 2 < tokens.count, tokens[j + 1].isPunctuation("."), let qualified = tokens[j + 2].name {
                name = qualified
                j += 2
            }
            let hasArgument = j + 1 < tokens.count && (tokens[j + 1].isPunctuation("=") || tokens[j + 1].isPunctuation("("))
            guard let name = name?.lowercased() else { return "PRAGMA names no pragma" }
            if listing.contains(name) || (reading.contains(name) && !hasArgument) { continue }
            return "PRAGMA \(name)\(hasArgument ? " with an argument" : "") is not allowed here; sql() runs pragmas that only read "
                + "(table_info(t), index_list(t), foreign_key_list(t), integrity_check, user_version, ...)"
        }
        return nil
    }
}

/// SQL text as SQLite's tokenizer sees it, as far as telling keywords and punctuation
/// from what is inside strings, quoted names and comments.
struct SQLTokens {
    enum Token {
        case word(String)
        case quoted(String)
        case punctuation(Character)

        func isWord(_ word: String) -> Bool {
            if case .word(let text) = self { return text.lowercased() == word }
            return false
        }

        func isPunctuation(_ c: Character) -> Bool {
            if case .punctuation(let p) = self { return p == c }
            return false
        }

        /// The token as a name: a word or a quoted name.
        var name: String? {
            switch self {
            case .word(let text), .quoted(let text): return text
            case .punctuation: return nil
            }
        }
    }

    let all: [Token]

    init(_ sql: String) {
        let s = Array(sql.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        func isWordScalar(_ c: Unicode.Scalar) -> Bool {
            c.value >= 0x80 || c == "_" || c == "$" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9")
        }
        while i < s.count {
            let c = s[i]
            if c == "-", i + 1 < s.count, s[i + 1] == "-" {
                while i < s.count, s[i] != "\n" { i += 1 }
            } else if c == "/", i + 1 < s.count, s[i + 1] == "*" {
                i += 2
                while i < s.count, !(s[i] == "*" && i + 1 < s.count && s[i + 1] == "/") { i += 1 }
                i += 2
            } else if c == "'" || c == "\"" || c == "`" || c == "[" {
                // A string or a quoted name; a doubled quote stands for one ([…] has none).
                let read = SQLQuotedText.read(s, from: i + 1, closing: c == "[" ? "]" : c, doubles: c != "[")
                i = read.next
                tokens.append(c == "'" ? .punctuation("'") : .quoted(String(String.UnicodeScalarView(read.body))))
            } else if isWordScalar(c) {
                var text = String.UnicodeScalarView()
                while i < s.count, isWordScalar(s[i]) {
                    text.append(s[i])
                    i += 1
                }
                tokens.append(.word(String(text)))
            } else {
                if !c.properties.isWhitespace { tokens.append(.punctuation(Character(c))) }
                i += 1
            }
        }
        all = tokens
    }
}
