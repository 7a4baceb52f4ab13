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

    /// Every function, for the store to install on each connection it opens.
    public static var all: [DatabaseFunction] {
        [DatabaseFunction(fold, argumentCount: 2, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
            let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(values[1]) ?? 0)
            return Self.fold(text, options)
        }]
    }
}
