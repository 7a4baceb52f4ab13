/// Arithmetic and predicate functions as PostgreSQL's SQL, answering as Quarry's
/// `ExpressionValues` answers in SQLite and in memory where PostgreSQL's own operators
/// differ: `/` divides integers there (reals here); `ln(0)`, `sqrt(-1)`, `exp(1000)` are
/// errors there (infinities and nil here); NaN is a value there (nil here).
/// - Integers (`+`, `-`, `*` of two integers) are computed as `numeric`, exactly, and are
///   `bigint` while they fit; past that Quarry goes on in doubles, which this SQL does not
///   repeat exactly: the statement stops with one line naming the operands.
/// - Reals are `float8`; NaN becomes nil; `/` by zero is nil. A result past a double's
///   range, or a product or quotient that rounds to zero, PostgreSQL refuses ("value
///   out of range"), said in one line; SQLite gives an infinity or zero.
/// `**` is not said (PostgreSQL's `power` refuses a negative base with a fractional
/// exponent, which Quarry's `pow` answers nil): it stays Quarry's, refused.
extension PostgreSQLDialect {
    public func arithmetic(_ op: String, integers: Bool) -> SQLTemplate? {
        guard ["+", "-", "*", "/"].contains(op) else { return nil }
        let exact = "((⟨0⟩)::numeric \(op) (⟨1⟩)::numeric)"
        let real = "((⟨0⟩)::float8 \(op) (⟨1⟩)::float8)"
        if integers, op != "/" {
            // Past Int64 Quarry goes on in doubles, which `numeric` would hold only to 15
            // digits here: the statement stops, naming the operands, rather than answer
            // otherwise (the cast depends on the row, so no plan evaluates it early).
            let stop = "CAST(('\(Self.overflowRefusal)' || (⟨0⟩)::text || ' \(op) ' || (⟨1⟩)::text) AS bigint)"
            return SQLTemplate("(CASE WHEN \(exact) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN \(exact)::bigint ELSE \(stop) END)")
        }
        // A double past its range (or a product that rounds to zero) is an error in
        // PostgreSQL; said in one line where the store reads the error.
        let divide = op == "/" ? "CASE WHEN (⟨1⟩)::float8 = 0 THEN NULL::float8 ELSE \(real) END" : real
        return SQLTemplate("NULLIF(\(divide), 'NaN'::float8)")
    }

    /// What the SQL casts to an integer to stop a statement whose integers overflow; the
    /// server's "invalid input syntax" names it, with the operands after it.
    public static let overflowRefusal = "quarry cannot compute:\n"

    public func function(_ name: String, integer: Bool) -> SQLTemplate? {
        let x = "(⟨0⟩)::float8"
        let real: String
        switch name {
        case "abs" where integer:
            // Int64.min has no positive twin: a real in Quarry, a stop here.
            return SQLTemplate("(CASE WHEN (⟨0⟩)::bigint = -9223372036854775808 THEN CAST(('\(Self.overflowRefusal)abs:(' || (⟨0⟩)::text || ')') AS bigint) "
                + "ELSE abs((⟨0⟩)::bigint) END)")
        case "floor" where integer, "ceiling" where integer, "trunc" where integer: return SQLTemplate("(⟨0⟩)::bigint")
        case "abs": real = "abs(\(x))"
        case "floor": real = "floor(\(x))"
        case "ceiling": real = "ceil(\(x))"
        case "trunc": real = "trunc(\(x))"
        case "sqrt": real = "(CASE WHEN \(x) < 0 THEN NULL ELSE sqrt(\(x)) END)"
        case "ln", "log":
            real = "(CASE WHEN \(x) < 0 THEN NULL WHEN \(x) = 0 THEN '-Infinity'::float8 ELSE \(name == "ln" ? "ln" : "log")(\(x)) END)"
        case "exp":
            // Past these exp is infinite or zero as a double; PostgreSQL calls either an error.
            real = "(CASE WHEN \(x) > 709.782712893384 THEN 'Infinity'::float8 WHEN \(x) < -745.1332191019412 THEN 0::float8 ELSE exp(\(x)) END)"
        case "lowercase", "uppercase":
            return SQLTemplate(PostgresCaseMapping.sql("(⟨0⟩)", lower: name == "lowercase"))
        default: return nil
        }
        return SQLTemplate("NULLIF(\(real), 'NaN'::float8)")
    }
}
