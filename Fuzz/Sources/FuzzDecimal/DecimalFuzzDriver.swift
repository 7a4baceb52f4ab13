// One input of the decimal fuzz target, shared by the libFuzzer target (Fuzz/) and the
// corpus replay test (Tests/QuarryLuaTests, through a symbolic link).
import QuarryModel

/// Reads the input as two decimal texts separated by a newline (`ExactDecimal`, as
/// `decimal("...")` reads them) and checks what must hold whatever they are: reading never
/// traps; `DecimalText.isDecimal` accepts only what reads; a value's text reads back as the
/// same value and scale; `+` and `*` commute, `(a + b) - b` is `a`, comparison is
/// antisymmetric and agrees with subtraction's sign; `/` gives a scale within 0...1000 and
/// a quotient within half a unit of its last place. Refusals (out of range, division by
/// zero) are fine. Returns what went wrong, or nil.
enum DecimalFuzzDriver {
    static func run(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var values: [ExactDecimal] = []
        for part in parts {
            // An exponent in range but in the thousands builds a number of that many digits,
            // whose text takes seconds: the fuzzer's time is better spent elsewhere.
            // The reader takes spaces around a number, as PostgreSQL's does (" 1e131071 ").
            let bare = String(part.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            if let e = bare.lastIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(bare[bare.index(after: e)...]),
               (2_000...200_000).contains(abs(exponent)) { continue }
            let value = try? ExactDecimal(parsing: part)
            if DecimalText.isDecimal(part), value == nil { return "isDecimal accepts '\(part.prefix(80))', which does not read" }
            guard let value else { continue }
            let printed = value.description
            if printed.contains("e") || printed.contains("E") { return "'\(part.prefix(80))' printed with an exponent" }
            guard let again = try? ExactDecimal(parsing: printed) else { return "'\(printed.prefix(80))' does not read back" }
            if again != value || again.scale != value.scale || again.description != printed { return "'\(part.prefix(80))' does not round-trip" }
            // Huge exponents build numbers of 100,000 digits: read, not computed with.
            if printed.count > 3000 { return nil }
            values.append(value)
        }
        guard values.count == 2 else { return nil }
        let (a, b) = (values[0], values[1])
        if ExactDecimal.compare(a, b) != -ExactDecimal.compare(b, a) { return "compare is not antisymmetric" }
        if (a == b) != (ExactDecimal.compare(a, b) == 0) { return "== disagrees with compare" }
        if let sum = try? a.adding(b) {
            guard let other = try? b.adding(a), other == sum, other.scale == sum.scale else { return "+ does not commute" }
            guard let back = try? sum.subtracting(b), back == a else { return "(a + b) - b is not a" }
            if sum.scale != max(a.scale, b.scale) { return "+ gave scale \(sum.scale)" }
        }
        if let difference = try? a.subtracting(b) {
            let sign = ExactDecimal.compare(difference, .zero)
            if sign != ExactDecimal.compare(a, b) { return "a - b's sign disagrees with compare" }
        }
        if let product = try? a.multiplying(b) {
            guard let other = try? b.multiplying(a), other == product, other.scale == product.scale else { return "* does not commute" }
            if product.scale != min(a.scale + b.scale, ExactDecimal.maxScale) { return "* gave scale \(product.scale)" }
        }
        if let quotient = try? a.dividing(by: b) {
            if !(0...1000).contains(quotient.scale) { return "/ gave scale \(quotient.scale)" }
            // |a - q*b| <= |b| / 2 * 10^-scale, with everything exact below 16,383 places.
            if quotient.scale + b.scale <= ExactDecimal.maxScale,
               let back = try? quotient.multiplying(b), let error = try? a.subtracting(back),
               let half = try? ExactDecimal(parsing: "0.5e-\(quotient.scale)"), let bound = try? half.multiplying(b < .zero ? -b : b) {
                let size = error < .zero ? -error : error
                if size > bound { return "/ is off by more than half a unit" }
            }
        }
        return nil
    }
}
