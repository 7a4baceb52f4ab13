import QuarryModel
import QuarryStore

/// Binding of `ANY`/`ALL`/`NONE` comparisons: the path up to the to-many step, then the
/// rest bound to the members, with the object's own keys on the other side.
extension Binder {
    /// `ANY tags.name == 'x'`: the path up to the to-many step, then the rest of the
    /// comparison bound to the destination.
    func quantified(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node {
        guard case .keyPath(let path) = c.lhs else { return try quantifiedExpression(c, entity) }
        var steps: [PathStep] = []
        var current = entity
        for (i, name) in path.components.enumerated() {
            let step = try self.step(name, from: current, path: path)
            steps.append(step)
            current = step.destination
            if step.relationship.isToMany {
                var rest = Array(path.components[(i + 1)...])
                if rest.isEmpty {
                    // `ANY employees == %@` with an object: each member compared by identity,
                    // as Core Data reads it (the SQL of `employees CONTAINS %@`).
                    guard Self.isObjects(c.rhs) else {
                        throw PredicateError(
                            .invalidUse,
                            "\(c.modifier.rawValue) \(path.string) compares objects; compare one of their keys instead, as \(memberKey(path.string, current, against: c.rhs)), "
                                + "or test membership of an object, as \(path.string) CONTAINS %@",
                            column: path.column)
                    }
                    rest = ["SELF"]
                }
                // A second to-many step (`ANY chats.handles.id`): refused, as Core Data's
                // store refuses it, giving the SUBQUERY that says it.
                if let second = toManySteps(KeyPath(rest, column: path.column), current), second.count < rest.count,
                    !rest[second.count].hasPrefix("@")
                {
                    let form = c.subqueryForm(through: Array(path.components[...i]), rest: rest, column: path.column)
                    throw PredicateError(
                        .invalidUse,
                        "\(c.modifier.rawValue) \(path.string) crosses two to-many relationships ('\(name)', then '\(rest[second.count - 1])'), "
                            + "and \(c.modifier.rawValue) ranges over one; write \(form)",
                        column: path.column)
                }
                var inner = c
                inner.modifier = .direct
                inner.lhs = .keyPath(KeyPath(rest, column: path.column))
                let quantifier: Quantifier = c.modifier == .some ? .any : c.modifier
                // The quantifier ranges over the left side only: the right side is read
                // from the object itself (`ANY reports.hireDate < hireDate`), as Foundation
                // evaluates both expressions of a comparison against the object.
                // A refusal inside names the path as written, quantifier and all.
                var scoped = self
                scoped.quantifiedPrefix = "\(c.modifier.rawValue) " + path.components[...i].joined(separator: ".")
                return .quantified(quantifier, path: steps, inner: try scoped.comparison(inner, current, outer: entity))
            }
        }
        throw PredicateError(.invalidUse, "\(c.modifier.rawValue) needs a to-many relationship in '\(path.string)'", column: path.column)
    }

    /// `ANY reports.salary * 2 > budget`: a computed left side that reads one to-many
    /// relationship's members (every key path through it is the member's; any other key
    /// path is the object's own, as on the right).
    func quantifiedExpression(_ c: Comparison, _ entity: EntityDescription) throws -> BoundPredicate.Node {
        let refusal = PredicateError(
            .invalidUse, "\(c.modifier.rawValue) needs a key path through a to-many relationship on its left", column: c.lhs.column)
        var prefixes: [[PathStep]] = []
        for path in Self.keyPaths(in: c.lhs) {
            guard let steps = toManySteps(path, entity), steps.count < path.components.count else { continue }
            if !prefixes.contains(where: { $0.map(\.relationship.name) == steps.map(\.relationship.name) }) { prefixes.append(steps) }
        }
        guard let steps = prefixes.first, let member = steps.last?.destination else { throw refusal }
        guard prefixes.count == 1 else {
            throw PredicateError(
                .invalidUse, "\(c.modifier.rawValue) ranges over one to-many relationship, and its left side reads two", column: c.lhs.column)
        }
        var scoped = self
        scoped.quantifiedSide = (steps.map(\.relationship.name), member, entity)
        var inner = c
        inner.modifier = .direct
        let quantifier: Quantifier = c.modifier == .some ? .any : c.modifier
        return .quantified(quantifier, path: steps, inner: try scoped.comparison(inner, member, outer: entity))
    }

    /// An object (`%@` given one), or a list of only objects.
    static func isObjects(_ expression: Expression) -> Bool {
        switch expression {
        case .object: return true
        case .aggregate(let elements, _): return !elements.isEmpty && elements.allSatisfy(isObjects)
        default: return false
        }
    }

    /// The key paths an expression reads, outside SUBQUERY.
    static func keyPaths(in expression: Expression) -> [KeyPath] {
        switch expression {
        case .keyPath(let k): return [k]
        case .arithmetic(_, let l, let r, _): return keyPaths(in: l) + keyPaths(in: r)
        case .negate(let e, _), .index(let e, _, _): return keyPaths(in: e)
        case .function(_, let arguments, _): return arguments.flatMap(keyPaths(in:))
        case .aggregate(let elements, _): return elements.flatMap(keyPaths(in:))
        case .conditional(_, let a, let b, _): return keyPaths(in: a) + keyPaths(in: b)
        case .constant, .object, .subqueryCount: return []
        }
    }
}

extension Expression {
    /// The key paths the expression reads, outside SUBQUERY: which keys a grouped
    /// property computes from.
    public var keyPaths: [KeyPath] { Binder.keyPaths(in: self) }
}
