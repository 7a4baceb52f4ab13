import QuarryStore

extension BoundPredicate {
    /// The predicate as a WHERE clause over the entity's table (named by `qualifier`).
    /// Equality is `IS`/`IS NOT`, so nil compares as Foundation compares it (nil == nil).
    public func sql(qualifier: String? = nil) -> SQLFragment {
        var arguments: [Value] = []
        let prefix = quoteIdentifier(qualifier ?? entity.name) + "."
        func operand(_ o: Operand, _ options: ComparisonOptions) -> String {
            let text: String
            let isString: Bool
            switch o {
            case .attribute(let a):
                text = prefix + quoteIdentifier(a.name)
                isString = a.type == .string
            case .value(let v):
                arguments.append(v)
                text = "?"
                if case .text = v { isString = true } else { isString = false }
            case .list(let values):
                return "(" + values.map { operand(.value($0), options) }.joined(separator: ", ") + ")"
            }
            guard !options.isEmpty, isString else { return text }
            return PredicateFunctions.sqlFold(text, options)
        }
        func render(_ node: Node) -> String {
            switch node {
            case .constant(let b): return b ? "1" : "0"
            case .not(let n): return "NOT (\(render(n)))"
            case .and(let ns): return ns.map { "(\(render($0)))" }.joined(separator: " AND ")
            case .or(let ns): return ns.map { "(\(render($0)))" }.joined(separator: " OR ")
            case let .comparison(lhs, op, rhs, options):
                if op.isStringOperator {
                    // A plain prefix test is a GLOB, which SQLite can answer from an index.
                    if op == .beginsWith, options.isEmpty, case .value(.text(let prefix)) = rhs {
                        let l = operand(lhs, [])
                        arguments.append(.text(globEscaped(prefix) + "*"))
                        return "\(l) GLOB ?"
                    }
                    let l = operand(lhs, []), r = operand(rhs, [])
                    return "\(PredicateFunctions.stringOperation)(\(l), \(r), \(PredicateFunctions.code(op)), \(options.rawValue))"
                }
                let l = operand(lhs, options)
                switch op {
                case .in:
                    return "\(l) IN \(operand(rhs, options))"
                case .between:
                    guard case .list(let bounds) = rhs, bounds.count == 2 else { return "0" }
                    let lo = operand(.value(bounds[0]), options), hi = operand(.value(bounds[1]), options)
                    return "\(l) BETWEEN \(lo) AND \(hi)"
                default:
                    let r = operand(rhs, options)
                    let symbol: String
                    switch op {
                    case .equal: symbol = "IS"
                    case .notEqual: symbol = "IS NOT"
                    default: symbol = op.rawValue
                    }
                    return "\(l) \(symbol) \(r)"
                }
            }
        }
        let sql = render(root)
        return SQLFragment(sql, arguments)
    }
}

/// `text` as a GLOB pattern that matches only itself.
private func globEscaped(_ text: String) -> String {
    var out = ""
    for c in text {
        switch c {
        case "*", "?", "[": out += "[\(c)]"
        default: out.append(c)
        }
    }
    return out
}
