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
        ]
    }
}
