import QuarryEngine
import QuarryModel
import QuarryStore

/// String tests in SQL: BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES as the dialect's
/// plain tests (LIKE's pattern translated, MATCHES as POSIX), folded for `[c]`/`[d]` where
/// the dialect folds in its own SQL.
extension PredicateSQLWriter {
    /// A string test with `[c]` or `[d]` in a dialect that folds in its own SQL: the same
    /// plain tests over the folded text and pattern, a constant folded here (as the
    /// evaluator folds it) and a column there; nil where there is none (LIKE against a
    /// column, whose pattern would need translating).
    mutating func foldedStringTest(
        _ lhs: BoundPredicate.Operand, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand,
        _ options: ComparisonOptions, _ qualifier: String, _ entity: EntityStorage
    ) -> String? {
        // No text is like nil: unknown, as Quarry's function answers.
        if case .value(.null) = rhs { return "CAST(NULL AS BOOLEAN)" }
        let l = operand(lhs, options, qualifier, entity)
        if case .value(.text(let pattern)) = rhs, let (test, said) = Self.plainTest(op, PredicateFunctions.fold(pattern, options)),
            let written = dialect.stringTest(test, l, said ?? "")
        {
            guard said != nil else { return "(CASE WHEN CAST(\(l) AS TEXT) IS NULL THEN NULL ELSE \(dialect.literal(false)) END)" }
            arguments += written.arguments
            return written.sql
        }
        guard op != .like, let test = Self.plainTest(op, "")?.0 else { return nil }
        let r = operand(rhs, options, qualifier, entity)
        // ENDSWITH says its pattern twice: it must hold no placeholder.
        guard !r.contains("?") else { return nil }
        return Self.patternTest(dialect.stringTest(test, l, patternSQL: r), test, r)
    }

    /// A dialect's test against a pattern that is SQL (a column), with CONTAINS false for
    /// an empty pattern, as `StringMatching` answers (a server's `strpos(t, '')` is 1).
    /// That says the pattern again: nil (Quarry's function) when it holds a placeholder.
    static func patternTest(_ written: String?, _ test: PlainStringTest, _ pattern: String) -> String? {
        guard let written, case .substring = test else { return written }
        return pattern.contains("?") ? nil : "(\(written) AND \(pattern) <> '')"
    }

    /// The dialect's test for `op` with the constant `pattern`, and the pattern as it takes
    /// it: LIKE's `*`, `?` and `\` become SQL's `%`, `_` and escapes. A pattern ending in
    /// a lone `\` matches nothing (SQL's LIKE refuses it): its pattern is nil.
    static func plainTest(_ op: ComparisonOperator, _ pattern: String) -> (PlainStringTest, String?)? {
        switch op {
        case .beginsWith: return (.prefix, pattern)
        case .endsWith: return (.suffix, pattern)
        // No string contains "" (`StringMatching`): no pattern, so the test is false.
        case .contains: return (.substring, pattern.isEmpty ? nil : pattern)
        case .like:
            var out = ""
            var escaped = false
            for c in pattern.unicodeScalars {
                if escaped {
                    out += "\\" + String(c)
                    escaped = false
                    continue
                }
                switch c {
                case "\\": escaped = true
                case "*": out += "%"
                case "?": out += "_"
                case "%", "_": out += "\\" + String(c)
                default: out.unicodeScalars.append(c)
                }
            }
            return (.like, escaped ? nil : out)
        case .matches:
            return PortableRegex.posix(pattern).map { (.regex, $0) }
        default:
            return nil
        }
    }
}
