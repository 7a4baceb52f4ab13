/// The key paths a predicate reads, for a caller that asks which entities a request
/// reaches (a read of the saved rows leaves out unsaved changes to any of them). A
/// SUBQUERY's collection is read; the paths inside it start at its variable.
extension Predicate {
    public var keyPaths: [KeyPath] {
        switch self {
        case .constant: return []
        case .comparison(let c): return c.lhs.pathsRead + c.rhs.pathsRead
        case .not(let inner): return inner.keyPaths
        case .and(let predicates), .or(let predicates): return predicates.flatMap(\.keyPaths)
        }
    }
}

extension Expression {
    /// The key paths read, with a SUBQUERY's collection and a conditional's test.
    public var pathsRead: [KeyPath] {
        switch self {
        case .keyPath(let k): return [k]
        case .arithmetic(_, let l, let r, _): return l.pathsRead + r.pathsRead
        case .negate(let e, _), .index(let e, _, _): return e.pathsRead
        case .function(_, let arguments, _): return arguments.flatMap(\.pathsRead)
        case .aggregate(let elements, _): return elements.flatMap(\.pathsRead)
        case .conditional(let test, let a, let b, _): return test.keyPaths + a.pathsRead + b.pathsRead
        case .subqueryCount(let collection, _, _, _): return [collection]
        case .constant, .object: return []
        }
    }
}
