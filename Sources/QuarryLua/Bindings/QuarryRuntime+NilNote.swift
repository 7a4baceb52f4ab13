import QuarryPredicates

extension QuarryRuntime {
    /// At the prompt, the first predicate of the session that compares with nil says
    /// once that it keeps Foundation's meaning: a person used to SQL reads `x = NULL` as
    /// never true, and would take its rows for a mistake (`Predicate.comparesWithNil`).
    func noteNilComparison(_ predicate: Predicate) {
        guard settings.notesNilComparisons, !nilComparisonNoted, predicate.comparesWithNil else { return }
        nilComparisonNoted = true
        writeNotice("note: == nil matches missing values here (NSPredicate), unlike SQL's = NULL, which is never true")
    }
}
