import QuarryModel

/// How a dialect computes what predicates and statistics ask of a value: arithmetic and
/// functions as Quarry computes them in memory, a date's parts, sums of integers, times
/// kept as numbers, and statistics' columns and histogram buckets. A nil template means
/// the store's own function computes it.
public protocol SQLComputations: Sendable {
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
    /// A number column `format()` declared to hold times (`scale`; slot 0 the column),
    /// read as the engine's own date type where its dates have one (PostgreSQL's
    /// `timestamptz`, which its date parameters meet); nil where dates are Unix seconds
    /// (SQLite: `ColumnConversion.numbersAsDate`). `integerColumn`: the column holds integers,
    /// which a count past 2^53 (Chrome's microseconds since 1601) must divide as such.
    func numberTime(_ scale: NumericDateScale, integerColumn: Bool) -> SQLTemplate?
    /// An attribute's column as statistics read it (min, max, mean, quantiles, histogram
    /// buckets): a date as seconds since 1970, a boolean as 0 or 1, text by its bytes.
    func statistic(_ sql: String, _ type: AttributeType) -> String
    /// The histogram bucket of a non-negative `offset` (in widths): its integer part,
    /// at most `last`.
    func bucket(_ offset: String, last: String) -> String
    /// `sql` (a parameter) as a real number, whatever the column it meets: PostgreSQL
    /// would give `n - $1` the integer type of `n`.
    func real(_ sql: String) -> String
}

/// A dialect that computes as SQLite does, or lets the store's functions compute it:
/// dates and booleans are numbers already, text compares by its bytes, and a parameter
/// takes the type of its value.
extension SQLComputations {
    public func statistic(_ sql: String, _ type: AttributeType) -> String { sql }
    public func real(_ sql: String) -> String { sql }
    public func arithmetic(_ op: String, integers: Bool) -> SQLTemplate? { nil }
    public func function(_ name: String, integer: Bool) -> SQLTemplate? { nil }
    public func decimalArithmetic(_ op: String) -> SQLTemplate? { nil }
    public func integer(_ sql: String) -> String { sql }
    public func numberTime(_ scale: NumericDateScale, integerColumn: Bool) -> SQLTemplate? { nil }
}
