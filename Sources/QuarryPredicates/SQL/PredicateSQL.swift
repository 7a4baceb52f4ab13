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
                let l = operand(lhs, options)
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
        let sql = render(root)
        return SQLFragment(sql, arguments)
    }
}
