/// Exact decimal numbers as text (`Value.decimal`): which text is one, and its value as an
/// `ExactDecimal` (every digit PostgreSQL's `numeric` holds) to compare and compute exactly.
public enum DecimalText {
    /// Plain decimal notation as PostgreSQL's `numeric` reads and writes it: a sign, digits,
    /// at most one point, an optional exponent, within `numeric`'s bounds. Not "nan" or
    /// "inf", which Quarry's decimals do not hold.
    public static func isDecimal(_ text: String) -> Bool {
        var sawDigit = false
        var sawPoint = false
        var sawExponent = false
        var previous: UInt8 = 0
        var count = 0
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard count == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            case UInt8(ascii: "."):
                guard !sawPoint, !sawExponent else { return false }
                sawPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard sawDigit, !sawExponent else { return false }
                sawExponent = true
                sawDigit = false
            default: return false
            }
            previous = c
            count += 1
        }
        guard sawDigit else { return false }
        // Without an exponent, a thousand characters are well within the bounds.
        if !sawExponent && count <= 1000 { return true }
        return ExactDecimal.isDecimal(text)
    }

    /// The value of decimal text; nil for text that is not one or is past the bounds.
    public static func value(_ text: String) -> ExactDecimal? {
        guard isDecimal(text) else { return nil }
        return try? ExactDecimal(parsing: text)
    }

    /// A value as an exact decimal: a decimal's own, an integer's, a double's shortest
    /// text (the text Quarry binds for it, so memory compares what the server reads).
    public static func exact(_ value: Value) -> ExactDecimal? {
        switch value {
        case .decimal(let s): return self.value(s)
        case .integer(let i): return ExactDecimal(i)
        case .bool(let b): return ExactDecimal(b ? 1 : 0)
        case .real(let d): return ExactDecimal(double: d)
        default: return nil
        }
    }

    /// A whole decimal's integer (`12.00` is 12); nil for a fraction or past Int64.
    public static func integer(_ text: String) -> Int64? {
        value(text)?.int64
    }

    /// Decimal text as the nearest double, for arithmetic that runs in doubles.
    public static func double(_ text: String) -> Double { Double(text) ?? 0 }

    /// Why a store that keeps decimals as doubles (`SQLDialect.keepsDecimalsAsDoubles`)
    /// cannot keep `text` as it is, in a phrase ("more digits than the double this store
    /// keeps it as (it would read back as 0.1)"); nil when the nearest double is the same
    /// number, compared as numbers (195.10 reads back as 195.1, which is the same value).
    /// Every write path asks this before writing: a save, updateall, an import.
    public static func inexactAsDouble(_ text: String) -> String? {
        if keptByEveryDouble(text) { return nil }
        let double = self.double(text)
        if let exact = value(text), let kept = ExactDecimal(double: double), kept == exact { return nil }
        let kept = ExactDecimal(double: double).map { "it would read back as \($0)" } ?? "it is past a double's range"
        return "more digits than the double this store keeps it as (\(kept))"
    }

    /// At most 15 significant digits, no exponent, at most 24 characters: a double keeps
    /// every such number (15 is DBL_DIG, and the value is well inside a double's normal
    /// range), so an import of many short decimals parses none of them as an `ExactDecimal`.
    private static func keptByEveryDouble(_ text: String) -> Bool {
        var significant = 0
        var count = 0
        for c in text.utf8 {
            count += 1
            guard count <= 24 else { return false }
            switch c {
            case UInt8(ascii: "0"):
                if significant > 0 { significant += 1 }
            case UInt8(ascii: "1")...UInt8(ascii: "9"): significant += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): continue
            default: return false
            }
        }
        return significant <= 15 && count > 0 && isDecimal(text)
    }

    /// A decimal as PostgreSQL writes a `numeric`: plain, no exponent, with its scale's
    /// digits after the point (0.10 + 0.20 is 0.30).
    public static func text(_ d: ExactDecimal) -> String { d.description }

    /// The digits after the point of decimal text (`195.10`: 2, `1e-3`: 3); 0 for text
    /// that is not a decimal.
    public static func scale(_ text: String) -> Int {
        value(text)?.scale ?? 0
    }

    /// The scale of a value taken as a decimal (a double's shortest text: 0.5 is 1).
    public static func scale(of value: Value) -> Int {
        exact(value)?.scale ?? 0
    }
}
