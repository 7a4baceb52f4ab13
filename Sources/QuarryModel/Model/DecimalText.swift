import Foundation

/// Exact decimal numbers as text (`Value.decimal`): which text is one, and its value as
/// Foundation's `Decimal` (38 digits, as `NSDecimalNumber`) to compare and add exactly.
public enum DecimalText {
    /// Plain decimal notation as PostgreSQL's `numeric` reads and writes it: a sign, digits,
    /// at most one point, an optional exponent. Not "nan" or "inf", which no `Decimal` means.
    public static func isDecimal(_ text: String) -> Bool {
        var sawDigit = false, sawPoint = false, sawExponent = false
        var previous: UInt8 = 0
        for (i, c) in text.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard i == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            case UInt8(ascii: "."):
                guard !sawPoint, !sawExponent else { return false }
                sawPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard sawDigit, !sawExponent else { return false }
                sawExponent = true; sawDigit = false
            default: return false
            }
            previous = c
        }
        return sawDigit
    }

    /// The value of decimal text; nil for text that is not one.
    public static func value(_ text: String) -> Decimal? {
        guard isDecimal(text) else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// A value as an exact decimal: a decimal's own, an integer's, a double's shortest
    /// text (the text Quarry binds for it, so memory compares what the server reads).
    public static func exact(_ value: Value) -> Decimal? {
        switch value {
        case .decimal(let s): return self.value(s)
        case .integer(let i): return Decimal(i)
        case .bool(let b): return b ? 1 : 0
        case .real(let d) where d.isFinite: return self.value("\(d)")
        default: return nil
        }
    }

    /// A whole decimal's integer (`12.00` is 12); nil for a fraction or past Int64.
    public static func integer(_ text: String) -> Int64? {
        guard var d = value(text) else { return nil }
        var whole = Decimal()
        NSDecimalRound(&whole, &d, 0, .plain)
        guard whole == d else { return nil }
        return Int64(self.text(whole))
    }

    /// Decimal text as the nearest double, for arithmetic that runs in doubles.
    public static func double(_ text: String) -> Double { Double(text) ?? 0 }

    /// A `Decimal` as plain text, no exponent, with at least `scale` digits after the
    /// point, as PostgreSQL keeps a `numeric`'s scale (0.10 + 0.20 is 0.30 there; `Decimal`
    /// alone would say 0.3).
    public static func text(_ d: Decimal, scale: Int = 0) -> String {
        var d = d
        var text = NSDecimalString(&d, Locale(identifier: "en_US_POSIX"))
        let have = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
        guard scale > have, !text.contains("e"), !text.contains("E") else { return text }
        if have == 0 { text += "." }
        return text + String(repeating: "0", count: min(scale, 1000) - have)
    }

    /// The digits after the point of decimal text without an exponent (`195.10`: 2), 0
    /// for any other; the text a Lua number gives for a double counts as such text.
    public static func scale(_ text: String) -> Int {
        guard !text.contains("e"), !text.contains("E"), let point = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: point, to: text.endIndex) - 1
    }

    /// The scale of a value taken as a decimal (a double's shortest text: 0.5 is 1).
    public static func scale(of value: Value) -> Int {
        switch value {
        case .decimal(let s): return scale(s)
        case .real(let d) where d.isFinite: return scale("\(d)")
        default: return 0
        }
    }
}
