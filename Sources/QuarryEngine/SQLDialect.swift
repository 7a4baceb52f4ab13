import QuarryModel

/// How a store's SQL spells what predicates, sorts and batch changes need, where SQL
/// dialects differ: how it compares and matches (`SQLComparisons`), computes
/// (`SQLComputations`) and reads rows and plans (`SQLReads`). The predicate compiler
/// writes through the dialect its store speaks (`PersistentStore.dialect`), so a store
/// whose database is not SQLite gives its own.
public protocol SQLDialect: SQLComparisons, SQLComputations, SQLReads {}

/// How a dialect compares and matches: booleans, comparison that holds for nil == nil,
/// a prefix test an index can answer, exact comparison of integers with reals, order
/// and folding of text, and calls of the functions the store installs.
public protocol SQLComparisons: Sendable {
    /// The literal for true or false where a condition is expected.
    func literal(_ value: Bool) -> String
    /// `lhs` compared with `rhs`, nil equal to nil (SQL's `IS`, PostgreSQL's
    /// `IS NOT DISTINCT FROM`); `negated` for not equal.
    func nullSafeEqual(_ lhs: String, _ rhs: String, negated: Bool) -> String
    /// `operand` tested against a constant `pattern`, case- and diacritic-sensitively,
    /// comparing code points, in the dialect's own SQL, with the arguments it binds; nil
    /// when the dialect has no such SQL (the store's string function is called instead).
    func stringTest(_ test: PlainStringTest, _ operand: String, _ pattern: String) -> (sql: String, arguments: [Value])?
    /// The same test where the pattern is SQL (a column, a key path, a parameter), nil
    /// when the dialect has none; never for `.like` or `.regex`, whose patterns must be
    /// translated.
    func stringTest(_ test: PlainStringTest, _ operand: String, patternSQL: String) -> String?
    /// A call of one of the store's functions.
    func call(_ function: String, _ arguments: [String]) -> String
    /// Whether an integer column compared with a real parameter is compared exactly (SQLite
    /// does); when not, the compiler says such comparisons with integer constants.
    var comparesIntegersWithRealsExactly: Bool { get }
    /// Whether the database keeps a decimal attribute as a double (SQLite has no decimal
    /// type: its column is REAL). Then a predicate's decimal constants are bound as
    /// doubles, memory compares and computes a decimal as the double the row holds
    /// (`BoundPredicate.decimalsAsDoubles`), and a save refuses a decimal no double holds
    /// (`ObjectContext.refuseInexactDecimal`), so SQL and memory answer alike.
    var keepsDecimalsAsDoubles: Bool { get }
    /// `integer op real` (op one of `<`, `<=`, `>`, `>=`, `=`) compared exactly, nil when
    /// either is nil, for a dialect that does not compare them so by itself.
    func exactComparison(integer: String, _ op: String, real: String) -> String
    /// An ORDER BY term, nil sorting first when ascending and last when descending, as
    /// SQLite sorts it and Quarry sorts in memory.
    func orderTerm(_ sql: String, ascending: Bool) -> String
    /// Text as sorted and grouped by its bytes (SQLite's BINARY collation), whatever the
    /// database's collation.
    func binaryText(_ sql: String) -> String
    /// `sql` folded as `[c]` and `[d]` fold text in Swift, in the dialect's own SQL; nil
    /// where the store's function (`quarry_fold`) folds it. `digitRuns`: each run of ASCII
    /// digits of the folded text also coded as `StandardOrder` codes it (Foundation's
    /// `localizedStandard` order), nil where the store's function (`quarry_standard_key`)
    /// codes it.
    func fold(_ sql: String, caseInsensitive: Bool, diacriticInsensitive: Bool, digitRuns: Bool) -> String?
}

/// Standard SQL's booleans, nil-safe equality and explicit place of nil in an order, and
/// calls as SQL writes them; a dialect that compares an integer with a real by their
/// values, and text by its bytes, as SQLite does. A typed database's answers about
/// numbers: a comparison of an integer column with a real parameter as the database
/// types it (not exactly), and a decimal type that keeps every digit.
extension SQLComparisons {
    public var comparesIntegersWithRealsExactly: Bool { false }
    public var keepsDecimalsAsDoubles: Bool { false }
    public func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }
    public func nullSafeEqual(_ lhs: String, _ rhs: String, negated: Bool) -> String {
        "\(lhs) IS \(negated ? "" : "NOT ")DISTINCT FROM \(rhs)"
    }
    public func orderTerm(_ sql: String, ascending: Bool) -> String { sql + (ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST") }
    public func fold(_ sql: String, caseInsensitive: Bool, diacriticInsensitive: Bool, digitRuns: Bool) -> String? { nil }
    public func call(_ function: String, _ arguments: [String]) -> String { "\(function)(\(arguments.joined(separator: ", ")))" }
    public func exactComparison(integer: String, _ op: String, real: String) -> String { "\(integer) \(op) \(real)" }
    public func binaryText(_ sql: String) -> String { sql }
}

extension SQLDialect {

    /// `part` of the date `sql` (which holds no placeholder: a column, a key path's
    /// subquery), nil where the dialect has no date parts (`function`). A date that is
    /// more than a column and that the template says more than once is said once, in a
    /// sub-select.
    public func datePart(_ part: DatePart, of sql: String) -> String? {
        guard let template = function(part.rawValue, integer: false) else { return nil }
        let uses = template.pieces.filter { if case .slot = $0 { return true } else { return false } }.count
        if uses <= 1 || SQLTemplate.isPlain(sql) { return template.filled(sql) }
        return "(SELECT \(template.filled("\"dp\".\"d\"")) FROM (SELECT \(sql) AS \"d\") AS \"dp\")"
    }
}

/// SQL with slots for operands, which the compiler fills with each operand's SQL and
/// binds its arguments again at each, so an operand may be said more than once.
public struct SQLTemplate: Sendable, Equatable {
    public enum Piece: Sendable, Equatable { case sql(String), slot(Int) }
    public let pieces: [Piece]

    /// Whether `sql` may be said again at no cost and with no arguments: a column (no
    /// space, no placeholder), where anything else is said once and named (a sub-select),
    /// so nesting does not multiply the text.
    public static func isPlain(_ sql: String) -> Bool {
        !sql.contains(where: { $0 == "?" || $0.isWhitespace })
    }

    /// `text` with its slots written `⟨0⟩`, `⟨1⟩`.
    public init(_ text: String) {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "⟨"), let close = rest[open...].firstIndex(of: "⟩"),
            let slot = Int(rest[rest.index(after: open)..<close])
        {
            if open > rest.startIndex { pieces.append(.sql(String(rest[..<open]))) }
            pieces.append(.slot(slot))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.sql(String(rest))) }
        self.pieces = pieces
    }

    /// The SQL with every slot filled by `sql` (a column, said as often as the slots).
    public func filled(_ sql: String) -> String {
        pieces.map { piece in
            switch piece {
            case .sql(let text): return text
            case .slot: return sql
            }
        }.joined()
    }
}

/// The string tests a dialect may say in its own SQL when they take no `[c]` or `[d]`.
public enum PlainStringTest: Sendable {
    /// BEGINSWITH: as a test an index can answer, where the dialect has one.
    case prefix
    /// ENDSWITH.
    case suffix
    /// CONTAINS.
    case substring
    /// SQL's LIKE, the pattern already in its form (`%`, `_`, `\` escaping the next
    /// character), matched case-sensitively.
    case like
    /// A POSIX extended regular expression, anchored at both ends, matched
    /// case-sensitively (MATCHES, where its ICU pattern means the same in POSIX).
    case regex
}

extension SQLDialect {
    /// `sql`, a value of `attribute`, as SQL orders it (ORDER BY, `<`, BETWEEN, min and
    /// max): an enum's as its type (its text cast back, so its labels' order); a string's
    /// by its bytes (`binaryText`); any other as it is.
    public func ordered(_ sql: String, _ attribute: AttributeDescription) -> String {
        if let enumeration = attribute.enumeration { return enumeration.cast(sql) }
        return attribute.type == .string ? binaryText(sql) : sql
    }
}
