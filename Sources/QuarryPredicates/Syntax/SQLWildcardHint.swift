import QuarryModel

/// Apple's LIKE takes `*` (any text) and `?` (one character); SQL's `%` and `_` match
/// themselves. A person used to SQL writes `note LIKE '%gust%'`, which then counts 0
/// without a word. A literal `%` is legitimate, so this is no error: the predicate runs as
/// written, and whoever runs it says this line once (the Lua layer, for every request
/// alike: fetch, count, updateall, deleteall, predicate()).
public struct SQLWildcardHint: Equatable, Sendable {
    /// The pattern as written (a literal, or the value bound to `%@`).
    public let pattern: String
    /// The line to say, naming the forms that match what SQL's wildcards would.
    public let message: String
}

extension Predicate {
    /// Each LIKE whose pattern holds `%` or `_` and neither `*` nor `?`, in the order
    /// written, once per pattern and options.
    public var sqlWildcardHints: [SQLWildcardHint] {
        var hints: [SQLWildcardHint] = []
        collectWildcardHints(into: &hints)
        return hints
    }

    fileprivate func collectWildcardHints(into hints: inout [SQLWildcardHint]) {
        switch self {
        case .constant: return
        case .not(let inner): inner.collectWildcardHints(into: &hints)
        case .and(let terms), .or(let terms): for term in terms { term.collectWildcardHints(into: &hints) }
        case .comparison(let comparison):
            comparison.lhs.collectWildcardHints(into: &hints)
            comparison.rhs.collectWildcardHints(into: &hints)
            guard comparison.op == .like, case .constant(.text(let pattern), _) = comparison.rhs,
                let hint = SQLWildcardHint(pattern, options: comparison.options), !hints.contains(hint)
            else { return }
            hints.append(hint)
        }
    }
}

extension Expression {
    /// A SUBQUERY's or a TERNARY's own predicate holds comparisons too.
    fileprivate func collectWildcardHints(into hints: inout [SQLWildcardHint]) {
        switch self {
        case .subqueryCount(_, _, let predicate, _): predicate.collectWildcardHints(into: &hints)
        case .conditional(let test, let then, let otherwise, _):
            test.collectWildcardHints(into: &hints)
            then.collectWildcardHints(into: &hints)
            otherwise.collectWildcardHints(into: &hints)
        case .arithmetic(_, let lhs, let rhs, _):
            lhs.collectWildcardHints(into: &hints)
            rhs.collectWildcardHints(into: &hints)
        case .negate(let inner, _), .index(let inner, _, _): inner.collectWildcardHints(into: &hints)
        case .function(_, let arguments, _), .aggregate(let arguments, _): for argument in arguments { argument.collectWildcardHints(into: &hints) }
        case .keyPath, .constant, .object: return
        }
    }
}

extension SQLWildcardHint {
    /// Nil when the pattern holds no SQL wildcard, or holds Apple's (then it was written
    /// for this grammar, and a `%` in it is meant).
    init?(_ pattern: String, options: ComparisonOptions) {
        let sqlWildcards = pattern.filter { $0 == "%" || $0 == "_" }
        guard !sqlWildcards.isEmpty, !pattern.contains("*"), !pattern.contains("?") else { return nil }
        var written = ""
        if !options.isEmpty {
            written = "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        // SQL's LIKE also ignores the case of ASCII letters, which LIKE here heeds unless
        // told [c]: `city LIKE 'new%'` counted 0 of 'NEW YORK', and so did the LIKE 'new*'
        // named (trial 21). Written with no options, the forms named ignore case as SQL's.
        let ignoresCase = options.isEmpty && pattern.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic }
        let suggested = ignoresCase ? "[c]" : written
        let translated = String(pattern.map { $0 == "%" ? "*" : $0 == "_" ? "?" : $0 })
        var forms = ["LIKE\(suggested) \(Self.literal(translated))"]
        // `%gust%`, `gust%`, `%gust`: the string operator that says it without wildcards.
        let core = String(pattern.drop { $0 == "%" }.reversed().drop { $0 == "%" }.reversed())
        let leading = pattern.first == "%"
        let trailing = pattern.last == "%"
        if !core.isEmpty, !core.contains("%"), !core.contains("_"), leading || trailing {
            let op = leading && trailing ? "CONTAINS" : leading ? "ENDSWITH" : "BEGINSWITH"
            forms.append("\(op)\(suggested) \(Self.literal(core))")
        }
        let which = Set(sqlWildcards).count == 2 ? "'%' and '_' as themselves" : "'\(sqlWildcards.first ?? "%")' as itself"
        self.pattern = pattern
        message =
            "LIKE\(written) \(Self.literal(pattern)) takes \(which) here (its wildcards are * and ?): " + forms.joined(separator: " or ")
            + (ignoresCase ? " ([c]: SQL's LIKE ignores case)" : "")
    }

    /// A string literal as a person writes one: in single quotes where nothing in it
    /// needs an escape, else as the formatter writes it.
    private static func literal(_ text: String) -> String {
        let plain = !text.contains {
            $0 == "'" || $0 == "\\" || $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        return plain ? "'\(text)'" : quotedString(text)
    }
}
