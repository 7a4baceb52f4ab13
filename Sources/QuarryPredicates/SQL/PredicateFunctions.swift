import Foundation
import QuarryEngine
import QuarryStore

extension SQLDialect {
    /// `expression` folded by `options` in the dialect's own SQL, nil where it has none.
    func foldInSQL(_ expression: String, _ options: ComparisonOptions) -> String? {
        fold(
            expression, caseInsensitive: options.contains(.caseInsensitive), diacriticInsensitive: options.contains(.diacriticInsensitive),
            digitRuns: false)
    }
}

/// SQL functions Quarry adds for what an engine lacks; the in-memory evaluator calls the
/// same Swift code, so both back ends fold text identically.
public enum PredicateFunctions {
    static let fold = "quarry_fold"

    /// Unicode case and diacritic folding, as `[c]`, `[d]` and `[cd]` compare, in Unicode's
    /// composed form (NFC), so canonically equivalent strings (`"cafe\u{301}"`, `"café"`)
    /// fold alike, as Foundation's non-literal comparison (`caseInsensitiveCompare`,
    /// `localizedStandardContains`) finds them equal. PostgreSQL folds the same
    /// (`PostgresFold`, then `normalize(…, NFC)`). The text is folded as it is, not composed
    /// first: Foundation folds some marks by what precedes them (U+0301 after a tag
    /// character), which PostgreSQL's tables of its fold repeat only for the text as given.
    public static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        composed(foundationFold(text, options))
    }

    /// Foundation's fold alone (`folding(options:locale: nil)`), which PostgreSQL's tables
    /// repeat (`PostgresFold.Tables`) and `fold` applies between its NFCs.
    public static func foundationFold(_ text: String, _ options: ComparisonOptions) -> String {
        var foldOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foldOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foldOptions.insert(.diacriticInsensitive) }
        return text.folding(options: foldOptions, locale: nil)
    }

    /// `text` in NFC. Text of scalars below U+0300 (no combining mark, nothing that
    /// decomposes to one) is its own NFC: returned as it is, without Foundation's call.
    /// Foundation's NFC leaves marks out of canonical order where a letter it decomposes
    /// follows another mark (`"\u{59F}\u{F81}"` stays U+059F U+0F71 U+0F80, where Unicode,
    /// and PostgreSQL's `normalize`, put U+059F last): such runs are ordered here, and
    /// composed again.
    static func composed(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy({ $0.value < 0x300 }) else { return text }
        let nfc = text.precomposedStringWithCanonicalMapping
        var scalars = Array(nfc.unicodeScalars)
        var reordered = false
        var i = 0
        while i < scalars.count {
            var j = i
            while j < scalars.count, scalars[j].properties.canonicalCombiningClass.rawValue != 0 { j += 1 }
            if j - i > 1 {
                // Stable: marks of one class keep their order.
                let run = scalars[i..<j].enumerated().sorted {
                    ($0.element.properties.canonicalCombiningClass.rawValue, $0.offset) < (
                        $1.element.properties.canonicalCombiningClass.rawValue, $1.offset
                    )
                }.map(\.element)
                if !run.elementsEqual(scalars[i..<j]) {
                    scalars.replaceSubrange(i..<j, with: run)
                    reordered = true
                }
            }
            i = max(j, i + 1)
        }
        return reordered ? String(String.UnicodeScalarView(scalars)).precomposedStringWithCanonicalMapping : nfc
    }

    /// `expression` folded in SQL, as `fold(_:_:)` folds in Swift: in the dialect's own
    /// SQL where it has it, else by Quarry's function.
    public static func sqlFold(_ expression: String, _ options: ComparisonOptions, dialect: any SQLDialect) -> String {
        dialect.foldInSQL(expression, options) ?? "\(fold)(\(expression), \(options.rawValue))"
    }

    static let stringOperation = "quarry_string_op"
    private static let stringOperators: [ComparisonOperator] = [.beginsWith, .endsWith, .contains, .like, .matches]

    /// The number that names a string operator in SQL.
    static func code(_ op: ComparisonOperator) -> Int { stringOperators.firstIndex(of: op) ?? -1 }

    static let arithmetic = "quarry_arith"
    static let function = "quarry_fn"

    /// The number that names an arithmetic operator or a function in SQL.
    static func code(_ op: ArithmeticOperator) -> Int { ArithmeticOperator.allCases.firstIndex(of: op) ?? -1 }
    static func code(_ function: BuiltinFunction) -> Int { BuiltinFunction.allCases.firstIndex(of: function) ?? -1 }

    /// The names of the functions this layer installs (`all` and the text ones): `sql()`
    /// allows them, so SQL a predicate compiles to (`explain` shows it) runs there too.
    public static var names: [String] { [arithmetic, function, fold, stringOperation, StandardOrder.function] }

    /// Every function of this layer, for the store to install on each connection it opens.
    public static var all: [SQLFunction] {
        [
            // quarry_arith(operator, a, b) and quarry_fn(function, a): ExpressionValues' answer.
            SQLFunction(arithmetic, argumentCount: 3, deterministic: true) { arguments in
                let operators = ArithmeticOperator.allCases
                guard let code = arguments[0].storedInteger.flatMap(Int.init(exactly:)), operators.indices.contains(code) else { return .null }
                return ExpressionValues.arithmetic(operators[code], arguments[1], arguments[2])
            },
            SQLFunction(function, argumentCount: 2, deterministic: true) { arguments in
                let functions = BuiltinFunction.allCases
                guard let code = arguments[0].storedInteger.flatMap(Int.init(exactly:)), functions.indices.contains(code) else { return .null }
                return ExpressionValues.apply(functions[code], arguments[1])
            },
            // quarry_standard_key(folded text): StandardOrder's digit runs; any other value as it is.
            SQLFunction(StandardOrder.function, argumentCount: 1, deterministic: true) { arguments in
                guard case .text(let text) = arguments[0] else { return arguments[0] }
                return .text(StandardOrder.numericRuns(text))
            },
            // quarry_string_op and quarry_fold: StringMatching's and fold's answers.
            .text(
                TextFunctions(
                    match: { text, pattern, op, options in
                        guard stringOperators.indices.contains(op) else { return nil }
                        return StringMatching.matches(stringOperators[op], text, pattern, ComparisonOptions(rawValue: options))
                    }, fold: { text, options in fold(text, ComparisonOptions(rawValue: options)) }))
        ]
    }
}
