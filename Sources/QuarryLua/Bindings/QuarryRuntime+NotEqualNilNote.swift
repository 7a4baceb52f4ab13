import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryPredicates

extension QuarryRuntime {
    /// At the prompt, the first `key != value` of the session whose key is nil in some of
    /// its entity's objects says once that those objects match too: NSPredicate's `!=` is
    /// SQL's `IS DISTINCT FROM`, where a person used to psql reads `<>`, which leaves them
    /// out, and would take the larger count for the right one (trial 26: `indepyear !=
    /// 1991` counted 221 countries where psql's `<> 1991` counts 174). The nils are
    /// counted once for each attribute; nothing is said where there are none.
    func noteNotEqualMatchesNil(_ predicate: Predicate, entity: String?) {
        guard settings.notesNilComparisons, !notEqualNilNoted, let entity,
            let description = try? context.entity(named: entity)
        else { return }
        for comparison in predicate.keyComparisons where comparison.op == .notEqual && comparison.values.count == 1 {
            if case .null = comparison.values[0] { continue }
            guard description.attribute(named: comparison.key)?.isOptional == true,
                notEqualNilChecked.insert("\(description.name).\(comparison.key)").inserted,
                let missing = try? PredicateParser.parse("%K == nil", arguments: PredicateArguments([.text(comparison.key)])),
                let nils = try? FetchRequest(entityName: description.name, predicate: missing).count(in: context), nils > 0
            else { continue }
            notEqualNilNoted = true
            let key = PredicateParser.reserved.contains(comparison.key.uppercased()) ? "#" + comparison.key : comparison.key
            writeNotice(
                "note: != on \(key) also matches the \(grouped(nils)) object\(nils == 1 ? "" : "s") of \(description.name) whose \(comparison.key) is nil "
                    + "(NSPredicate), unlike SQL's <>, which leaves them out; add AND \(key) != nil for SQL's count")
            return
        }
    }
}
