import QuarryModel

/// A person used to SQL quotes a column's name (`"Balance" > 100000`, `"release date" >
/// '2023-01-01'`), or gives the name for `%@` where `%K` was meant. In this grammar both
/// make text, so the comparison is of two constants, the same for every row: the count
/// came out as every row, or none, without a word. Comparing two constants is legitimate
/// (the predicate runs as written, as Apple's would), so this is no error: where the text
/// names a key of the entity (in any case, as SQLite names columns), whoever runs the
/// predicate says once how the key is written, as for SQL's wildcards in a LIKE.
extension Predicate {
    /// One line for each key named by a string constant compared with another constant,
    /// in the order written; `keys` are the entity's.
    public func quotedKeyHints(keys: [String]) -> [String] {
        var hints: [String] = []
        collectQuotedKeys(keys, into: &hints)
        return hints
    }

    private func collectQuotedKeys(_ keys: [String], into hints: inout [String]) {
        switch self {
        case .constant: return
        case .not(let inner): inner.collectQuotedKeys(keys, into: &hints)
        case .and(let terms), .or(let terms): for term in terms { term.collectQuotedKeys(keys, into: &hints) }
        case .comparison(let c):
            // IN and BETWEEN take a list of constants on the right (`"Country" IN {'UK'}`).
            guard c.modifier == .direct, case .constant(let lhs, _) = c.lhs, let rhs = c.rhs.constantValues else { return }
            for case .text(let text) in [lhs] + (c.op == .in || c.op == .between ? [] : rhs) {
                guard let key = Self.key(named: text, in: keys) else { continue }
                let hint =
                    "'\(text)' is a string constant here, not the key '\(key)' (quotes and %@ make text in a predicate), so the comparison is the same for every row; "
                    + Self.writtenKey(key, op: c.op)
                if !hints.contains(hint) { hints.append(hint) }
            }
        }
    }

    /// The key that `text` names: itself, else the one key equal to it in any case.
    private static func key(named text: String, in keys: [String]) -> String? {
        if keys.contains(text) { return text }
        let folded = keys.filter { $0.lowercased() == text.lowercased() }
        return folded.count == 1 ? folded.first : nil
    }

    /// How the key is written where it stands: bare, `#` before a reserved word, or `%K`
    /// with its name among the arguments when it is no name the grammar reads (a space).
    private static func writtenKey(_ key: String, op: ComparisonOperator) -> String {
        let plain = key.first.map { $0.isLetter || $0 == "_" } == true && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        if !plain {
            let name = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "the key is written %K with its name among the arguments: \"%K \(op.rawValue) %@\", \"\(name)\", value"
        }
        let written = PredicateParser.reserved.contains(key.uppercased()) ? "#" + key : key
        return "the key is written without quotes, \(written) \(op.rawValue) ..., or %K with \"\(key)\" among the arguments"
    }
}
