import QuarryPredicates

extension QuarryRuntime {
    /// At the prompt, the first predicate of the session that compares with nil says
    /// once that it keeps Foundation's meaning: a person used to SQL reads `x = NULL` (or
    /// `x <> NULL`) as never true, and would take its rows for a mistake
    /// (`Predicate.nilComparison`). Said of the operator written: `!= nil` was told what
    /// `== nil` does (trial 23). Only where the predicate is written as SQL writes it
    /// (`NULL`, `<>`, a lone `=`): an app developer's `date != nil` is Core Data's own
    /// form, and the note was noise to one (trial 25).
    func noteNilComparison(_ predicate: Predicate, written format: String) {
        guard settings.notesNilComparisons, !nilComparisonNoted, Self.readsAsSQL(format), let op = predicate.nilComparison else { return }
        nilComparisonNoted = true
        writeNotice(
            op == .notEqual
                ? "note: != nil matches values that are present here (NSPredicate), unlike SQL's <> NULL, which is never true"
                : "note: == nil matches missing values here (NSPredicate), unlike SQL's = NULL, which is never true")
    }

    /// Whether a predicate's text has SQL's spelling of a comparison: the word `NULL` in
    /// capitals, `<>`, or `=` alone (not in `==`, `!=`, `<=`, `>=`, `=<`, `=>`).
    static func readsAsSQL(_ format: String) -> Bool {
        if format.contains("<>") { return true }
        let characters = Array(format)
        for (i, character) in characters.enumerated() where character == "=" {
            let before = i > 0 ? characters[i - 1] : " "
            let after = i + 1 < characters.count ? characters[i + 1] : " "
            if !"=!<>".contains(before), !"=<>".contains(after) { return true }
        }
        return format.split(whereSeparator: { !$0.isLetter }).contains("NULL")
    }
}
