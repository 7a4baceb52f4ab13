import Foundation
import QuarryModel

/// How SQLite reads a value against a column of numeric affinity, for the number columns
/// of its files that hold text as well (`EntityStorage.takesText`): the binder converts a
/// predicate's text as SQLite's comparison would (so the bound value is the one SQLite
/// compares, and `matches` compares the same), and string operators read a number as
/// the text SQLite gives it.
public enum NumericAffinity {

    /// `text` as SQLite's numeric affinity leaves it (`applyNumericAffinity`): an integer
    /// or a real when the whole text, spaces around it allowed, is a decimal number
    /// (`sqlite3AtoF`: sign, digits, a point, an exponent; no hex, no `Inf`); else the text.
    public static func numeric(_ text: String) -> Value {
        var scan = NumberSyntaxScanner(text)
        scan.skipSpaces()
        let start = scan.i
        let negative = scan.take(0x2B, or: 0x2D) == 0x2D
        let integerStart = scan.i
        var count = scan.digits()
        let integerDigits = scan.text(integerStart..<scan.i)
        var fraction = ""
        var isInteger = true
        if scan.take(0x2E, or: 0x2E) != nil {
            isInteger = false
            let from = scan.i
            count += scan.digits()
            fraction = scan.text(from..<scan.i)
        }
        var exponent = ""
        if scan.take(0x65, or: 0x45) != nil {
            isInteger = false
            let sign = scan.take(0x2B, or: 0x2D) == 0x2D ? "-" : ""
            let from = scan.i
            // An exponent without digits is no number (`1e`, `1e+`).
            guard scan.digits() > 0 else { return .text(text) }
            exponent = "e" + sign + scan.text(from..<scan.i)
        }
        scan.skipSpaces()
        guard count > 0, scan.isAtEnd, start < scan.bytes.count else { return .text(text) }
        let sign = negative ? "-" : ""
        if isInteger, let integer = Int64(sign + integerDigits) { return .integer(integer) }
        let literal = sign + (integerDigits.isEmpty ? "0" : integerDigits) + "." + (fraction.isEmpty ? "0" : fraction) + exponent
        guard let real = Double(literal) else { return .text(text) }
        return .real(real)
    }

    /// A number as SQLite's text of it (what `LIKE`, `GLOB` and `sqlite3_value_text`
    /// read): an integer's digits; a real as `%!.15g`, which always shows a point
    /// (`1.0`, `1.0e+20`), and zero as `0.0` whatever its sign; infinities `Inf` and `-Inf`.
    /// Nil for anything else.
    public static func text(of value: Value) -> String? {
        switch value {
        case .integer(let i): return String(i)
        case .real(let d):
            if d.isNaN { return nil }
            if d.isInfinite { return d < 0 ? "-Inf" : "Inf" }
            // SQLite writes negative zero without its sign (CAST(-0.0 AS TEXT) is '0.0').
            if d == 0 { return "0.0" }
            var shown = String(format: "%.15g", d)
            if !shown.contains(".") {
                if let e = shown.firstIndex(of: "e") { shown.insert(contentsOf: ".0", at: e) } else { shown += ".0" }
            }
            return shown
        default: return nil
        }
    }
}
