import QuarryModel
import QuarryStore

/// What the writer reads of a whole bound predicate before writing it: the UUID texts
/// it compares, the keys of each entity it names.
extension SwiftPredicateWriter {
    /// The texts compared with UUID attributes, upper-cased as bound: the NSPredicate form
    /// passes them as `NSUUID` arguments, since a UUID attribute never equals a string.
    static func uuidTexts(_ node: BoundPredicate.Node) -> Set<String> {
        switch node {
        case .constant, .entity: return []
        case .not(let n), .holds(let n): return uuidTexts(n)
        case .and(let ns), .or(let ns): return ns.reduce(into: []) { $0.formUnion(uuidTexts($1)) }
        case .quantified(_, _, let inner): return uuidTexts(inner)
        case .comparison(let lhs, _, let rhs, _):
            func attribute(_ o: BoundPredicate.Operand) -> AttributeDescription? {
                switch o {
                case .attribute(let a), .path(_, let a): return a
                default: return nil
                }
            }
            func texts(_ o: BoundPredicate.Operand) -> [String] {
                switch o {
                case .value(.text(let s)): return [s]
                case .list(let values): return values.compactMap { if case .text(let s) = $0 { return s } else { return nil } }
                default: return []
                }
            }
            var found: Set<String> = []
            if attribute(lhs)?.type == .uuid { found.formUnion(texts(rhs).map { $0.uppercased() }) }
            if attribute(rhs)?.type == .uuid { found.formUnion(texts(lhs).map { $0.uppercased() }) }
            return found
        }
    }

    /// Calls `visit(entity, key)` for every key the predicate names on an entity.
    static func visitKeys(_ node: BoundPredicate.Node, _ entity: EntityDescription, _ visit: (EntityDescription, String) -> Void) {
        func path(_ steps: [PathStep]) -> EntityDescription {
            var current = entity
            for step in steps {
                visit(current, step.relationship.name)
                current = step.destination
            }
            return current
        }
        func operand(_ o: BoundPredicate.Operand) {
            switch o {
            case .attribute(let a): visit(entity, a.name)
            case .path(let steps, let a): visit(path(steps), a.name)
            case .collection(_, let steps, let a, let filter):
                let destination = path(steps)
                if let a { visit(destination, a.name) }
                if let filter { visitKeys(filter, destination, visit) }
            case .arithmetic(_, let l, let r):
                operand(l)
                operand(r)
            case .function(_, let a), .datePart(_, let a): operand(a)
            case .value, .list, .outer: break
            }
        }
        switch node {
        case .constant, .entity: break
        case .not(let n), .holds(let n): visitKeys(n, entity, visit)
        case .and(let ns), .or(let ns): ns.forEach { visitKeys($0, entity, visit) }
        case .comparison(let l, _, let r, _):
            operand(l)
            operand(r)
        case .quantified(_, let steps, let inner): visitKeys(inner, path(steps), visit)
        }
    }
}
