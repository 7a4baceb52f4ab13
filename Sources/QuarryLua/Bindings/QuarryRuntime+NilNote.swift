import QuarryPredicates

extension QuarryRuntime {
    /// At the prompt, the first predicate of the session that compares with nil says
    /// once that it keeps Foundation's meaning: a person used to SQL reads `x = NULL` (or
    /// `x <> NULL`) as never true, and would take its rows for a mistake
    /// (`Predicate.nilComparison`). Said of the operator written: `!= nil` was told what
    /// `== nil` does (trial 23).
    func noteNilComparison(_ predicate: Predicate) {
        guard settings.notesNilComparisons, !nilComparisonNoted, let op = predicate.nilComparison else { return }
        nilComparisonNoted = true
        writeNotice(
            op == .notEqual
                ? "note: != nil matches values that are present here (NSPredicate), unlike SQL's <> NULL, which is never true"
                : "note: == nil matches missing values here (NSPredicate), unlike SQL's = NULL, which is never true")
    }
}
