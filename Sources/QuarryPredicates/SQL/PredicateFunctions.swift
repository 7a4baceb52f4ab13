import CQuarrySQLite
import Foundation
import QuarryStore

extension SQLDialect {
    /// `expression` folded by `options` in the dialect's own SQL, nil where it has none.
    func foldInSQL(_ expression: String, _ options: ComparisonOptions) -> String? {
        fold(expression, caseInsensitive: options.contains(.caseInsensitive), diacriticInsensitive: options.contains(.diacriticInsensitive))
    }
}

/// SQLite functions Quarry adds for what SQLite lacks; the in-memory evaluator calls the
/// same Swift code, so both back ends fold text identically.
public enum PredicateFunctions {
    static let fold = "quarry_fold"

    /// Unicode case and diacritic folding, as `[c]`, `[d]` and `[cd]` compare.
    public static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        var foldOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foldOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foldOptions.insert(.diacriticInsensitive) }
        return text.folding(options: foldOptions, locale: nil)
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
    public static var names: [String] { [arithmetic, function, fold, stringOperation] }

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
            .native(install: addTextFunctions),
        ]
    }

    /// quarry_fold and quarry_string_op, which SQLite calls once per row: C (text_match.c)
    /// with the pattern folded once per statement and ASCII matched there, and the Swift
    /// below (the evaluator's own code) for the rest.
    private static func addTextFunctions(_ sqlite: OpaquePointer) {
        quarry_sqlite_add_text_functions(sqlite, { text, textCount, textIsBlob, pattern, patternCount, patternIsBlob, op, options in
            // quarry_string_op(text, pattern, operator, options): NULL when either is not text.
            let operators = PredicateFunctions.stringOperators
            guard let text = PredicateFunctions.string(text, textCount, textIsBlob),
                  let pattern = PredicateFunctions.string(pattern, patternCount, patternIsBlob),
                  operators.indices.contains(Int(op)) else { return -1 }
            return StringMatching.matches(operators[Int(op)], text, pattern, ComparisonOptions(rawValue: Int(options))) ? 1 : 0
        }, { bytes, count, isBlob, options, length in
            guard let text = PredicateFunctions.string(bytes, count, isBlob) else { return nil }
            let folded = Array(PredicateFunctions.fold(text, ComparisonOptions(rawValue: Int(options))).utf8)
            guard let out = malloc(folded.count + 1)?.assumingMemoryBound(to: UInt8.self) else { return nil }
            for (i, byte) in folded.enumerated() { out[i] = byte }
            out[folded.count] = 0
            length?.pointee = Int32(folded.count)
            return UnsafeMutableRawPointer(out).assumingMemoryBound(to: CChar.self)
        })
    }

    /// A value's bytes as GRDB reads them into a String: text as UTF-8 (repaired), a blob
    /// only when it is UTF-8.
    private static func string(_ bytes: UnsafePointer<UInt8>?, _ count: Int32, _ isBlob: Int32) -> String? {
        let buffer = UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(count))
        if isBlob != 0 { return String(data: Data(buffer), encoding: .utf8) }
        return String(decoding: buffer, as: UTF8.self)
    }
}
