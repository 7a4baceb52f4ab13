import QuarryEngine
import QuarryStore

/// Arithmetic and predicate functions as PostgreSQL's SQL, answering as Quarry's
/// `ExpressionValues` answers in SQLite and in memory where PostgreSQL's own operators
/// differ: `/` divides integers there (reals here); `ln(0)`, `sqrt(-1)`, `exp(1000)` are
/// errors there (infinities and nil here); NaN is a value there (nil here).
/// - Integers (`+`, `-`, `*` of two integers) are `bigint`. Past Int64 Quarry goes on in
///   doubles, which this SQL does not repeat: PostgreSQL's "bigint out of range" stops
///   the statement, said in one line.
/// - Reals are `float8`; NaN becomes nil; `/` by zero is nil. A result past a double's
///   range, or a product or quotient that rounds to zero, PostgreSQL refuses ("value
///   out of range"), said in one line; SQLite gives an infinity or zero.
/// Each operand is said once, but in the functions' guards (the compiler names an operand
/// said twice in a sub-select, `SQLTemplate.isPlain`).
/// `**` is `power`, guarded where PostgreSQL refuses what `pow` answers (a negative base
/// with a fractional exponent is nil, zero to a negative power infinite).
extension PostgreSQLDialect {
    public func arithmetic(_ op: String, integers: Bool) -> SQLTemplate? {
        if op == "**" {
            // pow: 0 to a negative power is infinite, a negative base to a fraction NaN (nil);
            // PostgreSQL calls both errors. -0 is 0 here, as Quarry reads it.
            let (x, y) = ("(⟨0⟩)::float8", "(⟨1⟩)::float8")
            return SQLTemplate(
                "NULLIF((CASE WHEN \(x) = 0 AND \(y) < 0 THEN 'Infinity'::float8 WHEN \(x) < 0 AND \(y) <> trunc(\(y)) THEN NULL "
                    + "ELSE power(\(x), \(y)) END), 'NaN'::float8)")
        }
        // Swift's `/` between integers (by a constant neither 0 nor -1): truncated, as here.
        if op == "quotient:by:", integers { return SQLTemplate("((⟨0⟩)::bigint / NULLIF((⟨1⟩)::bigint, 0))") }
        if op == "modulus:by:" {
            // Of two integers, truncated as Swift's `%` (and SQLite's) is; by zero nil, and
            // Int64.min % -1 is 0 on the server as here. Of reals, fmod's: numeric `mod`
            // truncates the same way, its sign the dividend's.
            if integers { return SQLTemplate("((⟨0⟩)::bigint % NULLIF((⟨1⟩)::bigint, 0))") }
            return SQLTemplate("(mod((⟨0⟩)::numeric, NULLIF((⟨1⟩)::numeric, 0)))::float8")
        }
        guard ["+", "-", "*", "/"].contains(op) else { return nil }
        if integers, op != "/" { return SQLTemplate("((⟨0⟩)::bigint \(op) (⟨1⟩)::bigint)") }
        let divisor = op == "/" ? "NULLIF((⟨1⟩)::float8, 0)" : "(⟨1⟩)::float8"
        return SQLTemplate("NULLIF((⟨0⟩)::float8 \(op) \(divisor), 'NaN'::float8)")
    }

    /// `numeric`, exact, as the server computes a numeric column's arithmetic (and keeps
    /// its scale: 0.10 + 0.20 is 0.30).
    public func decimalArithmetic(_ op: String) -> SQLTemplate? {
        guard ["+", "-", "*"].contains(op) else { return nil }
        return SQLTemplate("((⟨0⟩)::numeric \(op) (⟨1⟩)::numeric)")
    }

    public func function(_ name: String, integer: Bool) -> SQLTemplate? {
        if let date = dateFunction(name) { return date }
        let x = "(⟨0⟩)::float8"
        let real: String
        switch name {
        // Int64.min has no positive twin: a real in Quarry, "bigint out of range" here.
        case "abs" where integer: return SQLTemplate("abs((⟨0⟩)::bigint)")
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
        case "length":
            // NSString's length, in UTF-16 units: one a code point, one more each past
            // U+FFFF (a UTF8 database's characters are code points).
            guard foldsText else { return nil }
            return SQLTemplate("(char_length(⟨0⟩) + char_length(regexp_replace(⟨0⟩, '[^\\U00010000-\\U0010FFFF]', '', 'g')))")
        case "lowercase", "uppercase":
            guard foldsText else { return nil }
            return SQLTemplate(PostgresCaseMapping.sql("(⟨0⟩)", lower: name == "lowercase"))
        default: return nil
        }
        return SQLTemplate("NULLIF(\(real), 'NaN'::float8)")
    }
}
