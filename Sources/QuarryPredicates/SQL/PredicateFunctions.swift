import Foundation
import GRDB
import QuarryStore

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

    /// `expression` folded in SQL, as `fold(_:_:)` folds in Swift.
    public static func sqlFold(_ expression: String, _ options: ComparisonOptions) -> String {
        "\(fold)(\(expression), \(options.rawValue))"
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

    /// Every function, for the store to install on each connection it opens.
    public static var all: [DatabaseFunction] {
        [
            DatabaseFunction(fold, argumentCount: 2, pure: true) { values in
                guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
                let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(values[1]) ?? 0)
                return Self.fold(text, options)
            },
            // quarry_string_op(text, pattern, operator, options): NULL when either is NULL.
            DatabaseFunction(stringOperation, argumentCount: 4, pure: true) { values in
                guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]),
                      let code = Int.fromDatabaseValue(values[2]), stringOperators.indices.contains(code) else { return nil }
                let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(values[3]) ?? 0)
                return StringMatching.matches(stringOperators[code], text, pattern, options)
            },
            // quarry_arith(operator, a, b) and quarry_fn(function, a): ExpressionValues' answer.
            DatabaseFunction(arithmetic, argumentCount: 3, pure: true) { values in
                let operators = ArithmeticOperator.allCases
                guard let code = Int.fromDatabaseValue(values[0]), operators.indices.contains(code) else { return nil }
                return ExpressionValues.arithmetic(operators[code], Value(values[1]), Value(values[2])).databaseValue
            },
            DatabaseFunction(function, argumentCount: 2, pure: true) { values in
                let functions = BuiltinFunction.allCases
                guard let code = Int.fromDatabaseValue(values[0]), functions.indices.contains(code) else { return nil }
                return ExpressionValues.apply(functions[code], Value(values[1])).databaseValue
            },
        ]
    }
}
