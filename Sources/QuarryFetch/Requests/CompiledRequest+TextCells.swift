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

/// A SQLite file's date column may keep text that reads as no date (`2025-05-2025` among
/// ISO dates): every date comparison leaves such a cell out, as unknown. A count says how
/// many it left out, found in the same statement (`countQuery(unreadableDatesOf:)`), as it
/// says the text cells of number columns.
extension CompiledRequest {
    /// The entity's own date attributes the predicate compares other than with nil or by
    /// `!=`, or whose date parts it compares, whose cells may hold text that reads as no date
    /// (`EntityStorage.unreadableDate`); each once.
    var unreadableDateKeys: [String] {
        guard let predicate else { return [] }
        var keys: [String] = []
        func operand(_ o: BoundPredicate.Operand) {
            switch o {
            case .attribute(let a):
                guard a.type == .date, storage.unreadableDate(table, a) != nil, !keys.contains(a.name) else { return }
                keys.append(a.name)
            case .datePart(_, let inner), .function(_, let inner): operand(inner)
            case .arithmetic(_, let l, let r):
                operand(l)
                operand(r)
            default: break
            }
        }
        func walk(_ node: BoundPredicate.Node) {
            switch node {
            case .comparison(_, _, .value(.null), _), .comparison(.value(.null), _, _, _): break
            // `!=` holds for such a cell, as for nil: not left out.
            case .comparison(let l, let op, let r, _) where op != .notEqual:
                operand(l)
                operand(r)
            case .and(let nodes), .or(let nodes): nodes.forEach(walk)
            case .not(let inner), .holds(let inner): walk(inner)
            default: break
            }
        }
        walk(predicate.root)
        return keys
    }

    /// The count of the rows the predicate holds for, and for each of `keys` how many rows
    /// have a cell that reads as no date, in one scan of the rows (no limit or offset).
    func countQuery(unreadableDatesOf keys: [String]) -> SQLFragment? {
        guard let whereClause, limit == nil, offset == 0 else { return nil }
        let tests = keys.compactMap { entity.attribute(named: $0).flatMap { storage.unreadableDate(table, $0) } }
        guard tests.count == keys.count else { return nil }
        let selected = (["CASE WHEN \(whereClause.sql) THEN 1 END AS \"m\""] + tests.enumerated().map { "CASE WHEN \($1) THEN 1 END AS \"u\($0)\"" })
        let counted = (["count(\"q\".\"m\")"] + keys.indices.map { "count(\"q\".\"u\($0)\")" })
        return SQLFragment(
            "SELECT \(counted.joined(separator: ", ")) FROM (SELECT \(selected.joined(separator: ", ")) FROM \(source)) AS \"q\"",
            whereClause.arguments)
    }
}
