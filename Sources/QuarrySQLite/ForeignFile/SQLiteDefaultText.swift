import QuarryModel
import QuarryStore

/// A column's `DEFAULT` as `PRAGMA table_info` gives it (the text as written), with what
/// SQLite's grammar reads as a string spelled as one. After `DEFAULT`, SQLite takes a
/// name as the string it spells (`DEFAULT "abc"`, `DEFAULT abc`, `` DEFAULT `abc` ``,
/// `DEFAULT [abc]` all store 'abc'; `DEFAULT true` and `false` stay 1 and 0), which the
/// engine-neutral reader of literals (`ForeignColumnDefault`) would take for no literal.
enum SQLiteDefaultText {
    /// `declared` with a name read as SQLite reads it, as a single-quoted string; any
    /// other text as it is.
    static func literal(_ declared: String) -> String {
        let text = declared.trimmingSpaces
        guard let word = name(text) else { return text }
        return quoteLiteral(word)
    }

    /// The string a name spells: a quoted one ("...", `...` with their quote doubled
    /// inside, or [...]) or a bare word that is no keyword a default reads otherwise.
    private static func name(_ text: String) -> String? {
        guard let first = text.first, let last = text.last, text.count >= 2 || (first.isLetter || first == "_") else { return nil }
        switch (first, last) {
        case ("\"", "\""), ("`", "`"):
            let quote = String(first)
            let inner = String(text.dropFirst().dropLast())
            // One quoted name: every inner quote doubled.
            guard text.count >= 2, !inner.replacingOccurrences(of: quote + quote, with: "").contains(quote) else { return nil }
            return inner.replacingOccurrences(of: quote + quote, with: quote)
        case ("[", "]"):
            let inner = text.dropFirst().dropLast()
            return inner.contains("]") ? nil : String(inner)
        default:
            let bare = (first.isLetter || first == "_") && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
            guard bare, !keywords.contains(text.uppercased()) else { return nil }
            return text
        }
    }

    /// Words a default reads as other than a string: NULL, the booleans and the clocks.
    private static let keywords: Set<String> = ["NULL", "TRUE", "FALSE", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"]
}
