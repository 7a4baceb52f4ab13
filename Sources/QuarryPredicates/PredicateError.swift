import QuarryModel
import QuarryStore

/// A predicate that cannot be parsed or does not fit its entity, with where it went wrong.
public struct PredicateError: QuarryError, Equatable, Codable {
    /// What went wrong, for a caller to decide by (the words are for a person).
    public enum Kind: Equatable, Sendable, Codable {
        /// The text does not read: a token, the grammar, Swift's syntax, a pattern.
        case syntax
        /// A key path naming nothing of its entity (or of a grouped request's result).
        case unknownKey
        /// A function the grammar does not have, by the name the text gives it.
        case unknownFunction(name: String)
        /// An argument (`%@`, `$name`, a captured value) missing or of the wrong kind.
        case argument
        /// Operands whose types the operator does not take.
        case typeMismatch
        /// A form that reads but does not fit where it stands (a relationship where a
        /// value goes, an index on an unordered set, ANY over a to-one).
        case invalidUse
        /// A form Quarry does not evaluate (a Swift construct, a CAST to another type).
        case unsupported
        /// Nesting deeper than Quarry (or SQLite) takes.
        case tooDeep
        /// Stopped by Ctrl-C or `--timeout` while it was being read.
        case interrupted(Interruption)
    }

    public var kind: Kind
    public var message: String
    /// 1-based column in the format string; nil when the problem has no single place.
    public var column: Int?
    /// The key the predicate probably meant, for an unknown one.
    public var suggestion: String?
    /// What would be right, said after the position (`… at column 9; format(…) makes it
    /// a date`), so the column is never read as part of the code to paste.
    public var remedy: String?
    /// The to-many relationship a key path crossed where one value was wanted; what to
    /// write instead depends on where it stood (a predicate takes ANY, a group does not).
    public var crossedToMany: (relationship: String, path: String)? {
        get { crossing.map { ($0[0], $0[1]) } }
        set { crossing = newValue.map { [$0.relationship, $0.path] } }
    }
    private var crossing: [String]?
    /// What the predicate was given as (`having` for a grouped request's filter), so the
    /// line names the option the person wrote.
    public var role = "predicate"

    public init(_ kind: Kind, _ message: String, column: Int?, suggestion: String? = nil) {
        self.kind = kind
        self.message = message
        self.column = column
        self.suggestion = suggestion
    }

    public var operation: String? { role }

    /// A key path that crosses the to-many `relationship` where one value goes.
    static func crossing(_ relationship: String, in path: String, column: Int?) -> PredicateError {
        // A key with a space (`Type I`) cannot be typed in the format: it goes as `%K`.
        let typed = path.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "@" }
        let remedy = typed ? "write ANY \(path), ALL or NONE" : "write ANY %K, ALL %K or NONE %K with '\(path)' as its argument"
        var error = PredicateError(
            .invalidUse, "'\(path)' crosses the to-many relationship '\(relationship)'; \(remedy), or use @count", column: column)
        error.crossedToMany = (relationship, path)
        return error
    }

    /// The same error, for a predicate given as `role`.
    public func given(as role: String) -> PredicateError {
        var error = self
        error.role = role
        // ANY, ALL and NONE are a predicate's: a sort key, a section, a group or a
        // property takes one value a row.
        if role != "predicate", let (relationship, path) = crossedToMany {
            error.message =
                "'\(path)' crosses the to-many relationship '\(relationship)', several values to a row where \(role) takes one: use a to-one key path, \(relationship).@count or \(relationship).@sum.key, or write the join in sql()"
        }
        return error
    }
    public var location: ErrorLocation? { column.map(ErrorLocation.column) }
}

extension PredicateError {
    /// The format string with a caret under `column`, for a person at a terminal (the
    /// error itself stays one line): two lines, a long string cut to the part around
    /// the column. Of text of several lines (a `let` before a `#Predicate`), the line
    /// the column falls in: columns count over the whole text, and lines joined into one
    /// read as one statement.
    public static func pointer(to column: Int, in format: String) -> String? {
        let all = Array(format)
        guard column >= 1, column <= all.count + 1 else { return nil }
        // A column on a line's end (its newline) is that line's.
        let lineStart = all[..<(column - 1)].lastIndex(where: \.isNewline).map { $0 + 1 } ?? 0
        let lineEnd = all[lineStart...].firstIndex(where: \.isNewline) ?? all.count
        let characters = all[lineStart..<lineEnd].map { $0 == "\t" ? " " : $0 }
        let column = column - lineStart
        let width = 70
        let start = max(0, min(column - 1 - width / 2, characters.count - width))
        let end = min(characters.count, start + width)
        let shown = (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
        let offset = column - 1 - start + (start > 0 ? 1 : 0)
        return "  " + shown + "\n  " + String(repeating: " ", count: offset) + "^"
    }
}
