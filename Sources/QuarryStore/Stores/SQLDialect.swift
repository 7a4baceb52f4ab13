import QuarryModel

/// How a store's SQL spells what predicates, sorts and batch changes need, where SQL
/// dialects differ: booleans, comparison that holds for nil == nil, a prefix test an
/// index can answer, and calls of the functions the store installs. The predicate
/// compiler writes through the dialect its store speaks (`PersistentStore.dialect`), so
/// a store whose database is not SQLite gives its own.
public protocol SQLDialect: Sendable {
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
    /// Whether the functions Quarry installs into SQLite (`quarry_summary`, ...) run in
    /// this database; where not, what needs them takes standard SQL (summarize's exact way).
    var runsQuarryFunctions: Bool { get }
    /// An attribute's column as statistics read it (min, max, mean, quantiles, histogram
    /// buckets): a date as seconds since 1970, a boolean as 0 or 1, text by its bytes.
    func statistic(_ sql: String, _ type: AttributeType) -> String
    /// The histogram bucket of a non-negative `offset` (in widths): its integer part,
    /// at most `last`.
    func bucket(_ offset: String, last: String) -> String
    /// `sql` (a parameter) as a real number, whatever the column it meets: PostgreSQL
    /// would give `n - $1` the integer type of `n`.
    func real(_ sql: String) -> String
    /// `SELECT columns` of `storage`'s rows whose keys are `count` placeholders (any past
    /// the keys bound to NULL), in any order: `key IN (...)`, or through the numbers'
    /// table of rows known by numbers (`EntityStorage.numberedRows`).
    func rowsByKey(_ columns: String, of storage: EntityStorage, count: Int) -> String
    /// The statement that shows how the database will run `sql`, and which column of its
    /// rows holds each line of the plan.
    func queryPlan(_ sql: String) -> (sql: String, detailColumn: Int)
    /// `sql` folded as `[c]` and `[d]` fold text in Swift, in the dialect's own SQL; nil
    /// where the store's function (`quarry_fold`) folds it.
    func fold(_ sql: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String?
    /// `a op b` (op `+`, `-`, `*` or `/`) as Quarry computes it (integers stay integers
    /// until they overflow, `/` divides reals, nil for a division by zero), over slots 0
    /// and 1; `integers` when both are integers. Nil where the store's function
    /// (`quarry_arith`) computes it.
    func arithmetic(_ op: String, integers: Bool) -> SQLTemplate?
    /// A predicate function (`abs`, `floor`, `ceiling`, `trunc`, `sqrt`, `ln`, `log`,
    /// `exp`, `lowercase`, `uppercase`) of slot 0 as Quarry computes it; `integer` when its
    /// argument is an integer. Nil where the store's function (`quarry_fn`) computes it.
    /// Also, of a date in slot 0 (as the dialect compares it), a part by its `DatePart`
    /// name (`year` ... `date`), computed as `DatePart.value(ofSeconds:)` computes it: in
    /// UTC, of the whole second, nil outside the years 0001 to 9999 (a dialect without them
    /// answers nil, and a key path naming a part is refused); and `seconds`, its seconds
    /// since 1970 as a real, which two dates subtract as (`end - start`).
    func function(_ name: String, integer: Bool) -> SQLTemplate?
    /// `a op b` (op `+`, `-` or `*`) of exact decimals, or of a decimal and an integer, as
    /// an exact decimal (`ExpressionValues.arithmetic`); nil where the store's function
    /// computes it.
    func decimalArithmetic(_ op: String) -> SQLTemplate?
    /// An aggregate of integers (`sum`) as an integer: PostgreSQL's `sum(bigint)` is
    /// `numeric`, which reads as a real.
    func integer(_ sql: String) -> String
    /// Whether the value of `sql` (a view's key column) is an integer, for the rows that
    /// are objects: SQLite's columns take any value; a typed column holds its type or NULL.
    func holdsInteger(_ sql: String) -> String
    /// A number column `format()` declared to hold times (`scale`; slot 0 the column),
    /// read as the engine's own date type where its dates have one (PostgreSQL's
    /// `timestamptz`, which its date parameters meet); nil where dates are Unix seconds
    /// (SQLite: `NumericDateScale.seconds`). `integerColumn`: the column holds integers,
    /// which a count past 2^53 (Chrome's microseconds since 1601) must divide as such.
    func numberTime(_ scale: EntityStorage.NumericDateScale, integerColumn: Bool) -> SQLTemplate?
}

extension SQLDialect {
    public func fold(_ sql: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String? { nil }
    public func arithmetic(_ op: String, integers: Bool) -> SQLTemplate? { nil }
    public func function(_ name: String, integer: Bool) -> SQLTemplate? { nil }
    public func decimalArithmetic(_ op: String) -> SQLTemplate? { nil }
    public func integer(_ sql: String) -> String { sql }
    public func numberTime(_ scale: EntityStorage.NumericDateScale, integerColumn: Bool) -> SQLTemplate? { nil }

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
