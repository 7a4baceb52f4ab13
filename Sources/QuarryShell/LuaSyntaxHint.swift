import QuarryModel

/// What a line Lua refused meant, where it was written in another language's habit:
/// Python's named arguments in a call, or a SQL statement's first word mistyped. Added
/// to Lua's own message at the prompt.
enum LuaSyntaxHint {
    static func hint(for line: String, message: String) -> String? {
        // `fetch("Item", "n > 1", sort = "-n")`: Lua reads `sort = ` as no argument.
        if message.contains("')' expected near '='") {
            return "; Lua takes no named arguments in ( ): options go in a table, as fetch{ \"Item\", \"n > 1\", sort = \"-n\" }"
        }
        // `selct * from t`: a statement's word one edit from SQL's (the short WITH aside).
        let word = String(line.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter }).uppercased()
        let words = SQLAtPrompt.queryWords.filter { $0.count >= 5 }.sorted()
        guard word.count >= 5, !SQLAtPrompt.queryWords.contains(word), let meant = closestMatch(to: word, in: words) else { return nil }
        return " (did you mean \(meant)?)"
    }
}
