import QuarryModel
import QuarryPredicates
import QuarryStore

extension QuarryRuntime {
    /// Says once a session, for each text column of dates that are not ISO 8601
    /// (`10/13/1998`) that a predicate puts in order against a string (`polldate >=
    /// '10/1/2020'`), that the text compares by its first field, not in time: the count
    /// is SQLite's, as sqlite3 gives it on the CSV, and `9/7/2011` is in it. The same
    /// column's sort note is this one (`textDateNotices`), said once.
    func noteTextDateComparisons(_ predicate: Predicate, entity: String?) {
        guard let entity, let description = try? context.entity(named: entity) else { return }
        for (key, written) in Self.keysOrderedAgainstText(predicate) {
            guard description.attribute(named: key)?.type == .string, textDateNotices.insert("\(description.name).\(key)").inserted,
                let form = context.textDateForm(description, key)
            else { continue }
            writeNotice(
                "note: \(description.name).\(key) holds \(form.described): as text, \(written) compares by its first field, not in time "
                    + "(sql() can put its parts in ISO order with substr())")
        }
    }

    /// Each one-component key put in order (`<`, `<=`, `>`, `>=`, BETWEEN) against a
    /// string, with the comparison as written, the key on its left (`polldate >=
    /// '10/1/2020'`).
    static func keysOrderedAgainstText(_ predicate: Predicate) -> [(key: String, written: String)] {
        predicate.keyComparisons.compactMap { comparison in
            guard comparison.op.isOrdering, let texts = comparison.texts else { return nil }
            return (comparison.key, comparison.written(texts.map { "'\($0)'" }))
        }
    }
}
