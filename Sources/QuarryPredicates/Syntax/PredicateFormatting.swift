import QuarryStore

extension Predicate: CustomStringConvertible {
    /// The normalized format string: upper-case reserved words, `==`, explicit parentheses
    /// only where precedence needs them, values written as literals.
    public var description: String { format(self, parent: 0) }
}

private func format(_ p: Predicate, parent: Int) -> String {
    func wrap(_ s: String, _ level: Int) -> String { level < parent ? "(\(s))" : s }
    switch p {
    case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
    case .or(let ps): return wrap(ps.map { format($0, parent: 1) }.joined(separator: " OR "), 1)
    case .and(let ps): return wrap(ps.map { format($0, parent: 2) }.joined(separator: " AND "), 2)
    case .not(let inner): return "NOT " + format(inner, parent: 3)
    case .comparison(let c):
        var options = ""
        if !c.options.isEmpty {
            options = "[" + (c.options.contains(.caseInsensitive) ? "c" : "") + (c.options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        return "\(format(c.lhs)) \(c.op.rawValue)\(options) \(format(c.rhs))"
    }
}

private func format(_ e: Expression) -> String {
    switch e {
    case .keyPath(let k): return k.string
    case .aggregate(let elements, _): return "{" + elements.map(format).joined(separator: ", ") + "}"
    case .constant(let v, _):
        switch v {
        case .null: return "nil"
        case .text(let s): return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .bool(let b): return b ? "YES" : "NO"
        case .date(let d): return "CAST(\(d - 978307200), \"NSDate\")"
        default: return v.displayString
        }
    }
}
