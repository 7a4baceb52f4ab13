import QuarryModel
import QuarryStore

/// A string compared with a date key (`hire_date > "1995-01-01"`) is a date to Quarry:
/// the binder reads it as one, and the `#Predicate` beside it captures a `Date`. Apple's
/// `NSPredicate(format:)` would compare the date with the string and answer nothing, so
/// the format written for it carries the date (`CAST(…, "NSDate")`), as `date(...)` would.
extension BoundPredicate {
    /// `source` with each string compared with a date key path replaced by the date the
    /// binder read from it; strings that read as no date stay as written.
    var sourceWithDates: Predicate {
        let dates = datePaths
        guard !dates.isEmpty else { return source }
        func dated(_ e: Expression, against other: Expression) -> Expression {
            guard case .keyPath(let k) = other, dates.contains(k.components.joined(separator: ".")) else { return e }
            switch e {
            case .constant(.text, let column):
                guard case .constant(let v, _) = e, case .success(let d) = AttributeType.date.coerce(v), case .date = d else { return e }
                return .constant(d, column: column)
            case .aggregate(let elements, let column): return .aggregate(elements.map { dated($0, against: other) }, column: column)
            default: return e
            }
        }
        func walk(_ p: Predicate) -> Predicate {
            switch p {
            case .constant: return p
            case .not(let inner): return .not(walk(inner))
            case .and(let ps): return .and(ps.map(walk))
            case .or(let ps): return .or(ps.map(walk))
            case .comparison(var c):
                let (lhs, rhs) = (c.lhs, c.rhs)
                c.lhs = dated(lhs, against: rhs)
                c.rhs = dated(rhs, against: lhs)
                return .comparison(c)
            }
        }
        return walk(source)
    }

    /// The key paths, as written from the predicate's entity, of the date attributes its
    /// comparisons read (`hire_date`, `ANY employees.hire_date` as `employees.hire_date`).
    private var datePaths: Set<String> {
        var paths: Set<String> = []
        func note(_ o: Operand, prefix: [String]) {
            switch o {
            case .attribute(let a) where a.type == .date: paths.insert((prefix + [a.name]).joined(separator: "."))
            case .path(let steps, let a) where a.type == .date:
                paths.insert((prefix + steps.map(\.relationship.name) + [a.name]).joined(separator: "."))
            case .outer(let inner): note(inner, prefix: [])
            default: break
            }
        }
        func walk(_ node: Node, prefix: [String]) {
            switch node {
            case .constant, .entity: break
            case .not(let n), .holds(let n): walk(n, prefix: prefix)
            case .and(let ns), .or(let ns): ns.forEach { walk($0, prefix: prefix) }
            case .quantified(_, let path, let inner): walk(inner, prefix: prefix + path.map(\.relationship.name))
            case .comparison(let l, _, let r, _):
                note(l, prefix: prefix)
                note(r, prefix: prefix)
            }
        }
        walk(root, prefix: [])
        return paths
    }
}
