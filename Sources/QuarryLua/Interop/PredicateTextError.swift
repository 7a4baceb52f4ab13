import QuarryModel
import QuarryPredicates
import QuarryStore

/// A predicate that failed to parse, with the text it was parsed from: thrown by the
/// bindings as it is (the dispatcher renders it as the `PredicateError` it holds, word for
/// word) and kept as a value up to the REPL, which reads the column from it to point at.
public struct PredicateTextError: QuarryError {
    /// The format string as the script gave it.
    public var format: String
    public var error: PredicateError

    public var operation: String? { error.operation }
    public var message: String { error.message }
    public var location: ErrorLocation? { error.location }
    public var suggestion: String? { error.suggestion }
    public var remedy: String? { error.remedy }

    /// The predicate with a caret under the column the error names (two lines), for a
    /// person at a terminal; nil when the error names no column.
    public var pointer: String? {
        error.column.flatMap { PredicateError.pointer(to: $0, in: format) }
    }
}
