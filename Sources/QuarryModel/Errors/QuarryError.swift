/// An error as data: what went wrong, in which operation, where, and what would be
/// right. Conformers say only the parts; `ErrorRendering` alone turns them into the one
/// line a person reads, as GRDB's `DatabaseError` keeps its data apart from its message.
public protocol QuarryError: Error, CustomStringConvertible {
    /// The API call or command that failed ("fetch", "save", "import", ".open"), when the
    /// same error can come from several; rendered first, as `fetch: `.
    var operation: String? { get }
    /// What is wrong, without the operation, the place or the suggestion.
    var message: String { get }
    /// Where: a column of a predicate, or a line (and column) of a file.
    var location: ErrorLocation? { get }
    /// The name the person probably meant (from `closestMatch`), rendered as
    /// `(did you mean '…'?)`; the throw site gives the candidate, never the words.
    var suggestion: String? { get }
    /// What would be right when there is no single candidate ("modes: table, box, …").
    var remedy: String? { get }
}

extension QuarryError {
    public var operation: String? { nil }
    public var location: ErrorLocation? { nil }
    public var suggestion: String? { nil }
    public var remedy: String? { nil }
    /// The one line: every conformer renders through the same function.
    public var description: String { ErrorRendering.oneLine(self) }
}

/// Where an error happened.
public enum ErrorLocation: Equatable, Sendable {
    /// A 1-based column in the operation's own input (a predicate's format string):
    /// rendered after the message, `at column 4`.
    case column(Int)
    /// A place in a file (a CSV line and field, a script line): rendered before the
    /// message as compilers and Lua do, `data.csv:3:7: `.
    case file(path: String, line: Int?, column: Int?)
}
