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
    /// string, with the comparison as written (`polldate >= '10/1/2020'`); inside a
    /// SUBQUERY keys are a member's, so none is taken.
    static func keysOrderedAgainstText(_ predicate: Predicate) -> [(key: String, written: String)] {
        switch predicate {
        case .constant: return []
        case .not(let inner): return keysOrderedAgainstText(inner)
        case .and(let terms), .or(let terms): return terms.flatMap(keysOrderedAgainstText)
        case .comparison(let c):
            guard c.modifier == .direct, c.op.isOrdering else { return [] }
            func text(_ e: Expression) -> String? {
                switch e {
                case .constant(.text(let s), _): return "'\(s)'"
                case .aggregate(let items, _):
                    let texts = items.compactMap(text)
                    return texts.count == items.count && !texts.isEmpty ? "{" + texts.joined(separator: ", ") + "}" : nil
                default: return nil
                }
            }
            if case .keyPath(let path) = c.lhs, path.components.count == 1, let value = text(c.rhs) {
                return [(path.components[0], "\(path.components[0]) \(c.op.rawValue) \(value)")]
            }
            if case .keyPath(let path) = c.rhs, path.components.count == 1, c.op != .between, let value = text(c.lhs) {
                return [(path.components[0], "\(path.components[0]) \(c.op.swapped.rawValue) \(value)")]
            }
            return []
        }
    }
}
