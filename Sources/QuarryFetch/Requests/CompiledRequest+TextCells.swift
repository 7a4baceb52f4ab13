import QuarryModel
import QuarryPredicates
import QuarryStore

/// A SQLite file's INTEGER or REAL column may hold text (`''`, `'n/a'`), which SQLite orders
/// after every number: `GNPOld > 0` holds for such a cell, and a count takes it in without a
/// word. The count finds how many of the rows it counts are such cells in the same scan (no
/// query of its own), only for a comparison text can satisfy, on a column that may hold text
/// (`EntityStorage.takesText`); summarize and histogram count them apart in their scans.
/// A sort by such a column puts them after every number (first in a descending sort): the
/// count finds how many of the rows it counts are such cells too.
extension CompiledRequest {
    /// The entity's own number attributes the predicate compares with a number by an
    /// operator a text cell satisfies (`>`, `>=`, `!=`; `<`, `<=`, `!=` with the number on
    /// the left), under AND and OR, whose columns may hold text; each once.
    var textSatisfiedKeys: [String] {
        guard let predicate else { return [] }
        var keys: [String] = []
        func note(_ attribute: AttributeDescription) {
            guard [.int16, .int32, .int64, .double, .decimal].contains(attribute.type), storage.takesText.contains(attribute.name),
                !keys.contains(attribute.name)
            else { return }
            keys.append(attribute.name)
        }
        func walk(_ node: BoundPredicate.Node) {
            switch node {
            case .comparison(.attribute(let a), let op, .value(let v), _) where v.isNumber && [.greater, .greaterOrEqual, .notEqual].contains(op):
                note(a)
            case .comparison(.value(let v), let op, .attribute(let a), _) where v.isNumber && [.less, .lessOrEqual, .notEqual].contains(op):
                note(a)
            case .and(let nodes), .or(let nodes):
                nodes.forEach(walk)
            default:
                break
            }
        }
        walk(predicate.root)
        return keys
    }

    /// The entity's own number attributes the request sorts by whose columns may hold
    /// text, but for `textSatisfiedKeys`' (their note says it); each once.
    var textSortedKeys: [String] {
        let satisfied = textSatisfiedKeys
        var keys: [String] = []
        for descriptor in sort {
            guard let attribute = entity.attribute(named: descriptor.key), [.int16, .int32, .int64, .double, .decimal].contains(attribute.type),
                storage.takesText.contains(attribute.name), !satisfied.contains(attribute.name), !keys.contains(attribute.name)
            else { continue }
            keys.append(attribute.name)
        }
        return keys
    }

    /// `countQuery()` that also counts, for each of `keys`, the rows counted whose cell
    /// holds text (or bytes): at or after `''`, which every number orders before, as
    /// `ObjectContext.columnHoldsText` asks. `ordered`: in the sorted window (`countQuery`).
    func countQuery(textCellsOf keys: [String], ordered: Bool = false) -> SQLFragment {
        countQuery(
            also: keys.enumerated().map { i, key in
                ("CASE WHEN \(table).\(storage.column(key)) >= '' THEN 1 END AS \"t\(i)\"", "count(\"q\".\"t\(i)\")")
            }, ordered: ordered)
    }
}

extension Value {
    /// An integer, real or decimal: what a number column is compared with.
    fileprivate var isNumber: Bool {
        switch self {
        case .integer, .real, .decimal: return true
        default: return false
        }
    }
}
