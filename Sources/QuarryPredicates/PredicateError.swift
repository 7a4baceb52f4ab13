/// A predicate that cannot be parsed or does not fit its entity, with where it went wrong.
public struct PredicateError: Error, CustomStringConvertible, Equatable {
    public var message: String
    /// 1-based column in the format string; nil when the problem has no single place.
    public var column: Int?

    public init(_ message: String, column: Int?) {
        self.message = message
        self.column = column
    }

    public var description: String {
        "predicate: \(message)" + (column.map { " at column \($0)" } ?? "")
    }
}
