import BigInt

/// An exact decimal as PostgreSQL's `numeric` keeps one: an integer significand and a
/// scale (the digits after the point, `dscale` there, never negative), so `1.50` is
/// (150, 2) and prints as `1.50`. It holds every value `numeric` can hold, up to 131,072
/// digits before the point and 16,383 after, and computes as the server does: `+ -` keep
/// the larger scale, `*` the sum of the scales (rounded to 16,383), `/` the scale
/// PostgreSQL's `select_div_scale` picks, rounding half away from zero. A result past
/// those bounds is an `ExactDecimal.Failure`, which never traps.
public struct ExactDecimal: Comparable, Sendable, CustomStringConvertible {
    public let significand: BigInt
    public let scale: Int

    /// PostgreSQL's bounds: a weight of 32,767 base-10000 digits, a dscale of 0x3FFF.
    public static let maxIntegerDigits = 131_072
    public static let maxScale = 16_383
    /// `numeric` division's scales: at least 16 significant digits, at most 1,000 after the point.
    static let minSignificantDigits = 16
    static let maxDivisionScale = 1_000

    /// Why a decimal could not be made: the text is not one, or the value is past
    /// `numeric`'s bounds; `description` is one line.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notDecimal
        case overflow
        case divisionByZero
        public var description: String {
            switch self {
            case .notDecimal: return "not a decimal number"
            case .overflow:
                return
                    "decimal out of range: PostgreSQL's numeric holds up to \(ExactDecimal.maxIntegerDigits) digits before the point and \(ExactDecimal.maxScale) after"
            case .divisionByZero: return "decimal division by zero"
            }
        }
    }

    /// The value, unchecked: callers check bounds with `checked()`.
    init(significand: BigInt, scale: Int) {
        self.significand = significand
        self.scale = scale
    }

    public init(_ integer: Int64) {
        self.init(significand: BigInt(integer), scale: 0)
    }

    public static let zero = ExactDecimal(0)

    // MARK: Text

    /// Decimal text as PostgreSQL's `numeric_in` reads it: spaces around it, a sign,
    /// digits with at most one point, an optional exponent (`1e200`, `1.5E-3`). The scale
    /// is the digits after the point less the exponent (never below 0). Not "NaN" or
    /// "Infinity", which Quarry's decimals do not hold.
    public init(parsing text: String) throws {
        var bytes = Substring(text).utf8[...]
        while let c = bytes.first, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { bytes = bytes.dropFirst() }
        while let c = bytes.last, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { bytes = bytes.dropLast() }
        var negative = false
        if let c = bytes.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
            negative = c == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        // The digits, without the point; where the point was (digits after it).
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count)
        var afterPoint = 0
        var sawPoint = false
        var rest = bytes.endIndex
        for i in bytes.indices {
            let c = bytes[i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                // Leading zeros say nothing; keep at least the ones after the point.
                if digits.isEmpty && c == UInt8(ascii: "0") && !sawPoint { continue }
                digits.append(c)
                if sawPoint { afterPoint += 1 }
            } else if c == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                rest = i
                break
            }
        }
        // At least one digit: "." and "" are not numbers; "0" dropped its zeros above.
        let mantissa = bytes[bytes.startIndex..<rest]
        guard mantissa.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { throw Failure.notDecimal }
        var exponent = 0
        if rest != bytes.endIndex {
            var e = bytes[rest...].dropFirst()
            guard bytes[rest] == UInt8(ascii: "e") || bytes[rest] == UInt8(ascii: "E") else { throw Failure.notDecimal }
            var negativeExponent = false
            if let c = e.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                negativeExponent = c == UInt8(ascii: "-")
                e = e.dropFirst()
            }
            guard !e.isEmpty else { throw Failure.notDecimal }
            for c in e {
                guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { throw Failure.notDecimal }
                // Far past any bound already: keep counting only to reject the text as a whole.
                if exponent < 100_000_000 { exponent = exponent * 10 + Int(c - UInt8(ascii: "0")) }
            }
            if negativeExponent { exponent = -exponent }
        }
        // Zero: only its scale says anything (`0.00`, `0e-5` has scale 5).
        let scale = Swift.max(0, afterPoint - exponent)
        guard scale <= Self.maxScale else { throw Failure.overflow }
        let significant = digits.drop(while: { $0 == UInt8(ascii: "0") })
        // The digits before the point, once the exponent has moved it.
        let integerDigits = significant.count - afterPoint + exponent
        guard significant.isEmpty || integerDigits <= Self.maxIntegerDigits else { throw Failure.overflow }
        var magnitude = DecimalDigits.magnitude(significant)
        // `1.5e3` is 1500: the exponent past the written digits adds zeros (scale 0).
        let shift = scale - (afterPoint - exponent)
        if shift > 0, !magnitude.isZero { magnitude *= Self.powerOfTen(shift) }
        self.init(significand: negative ? -BigInt(magnitude) : BigInt(magnitude), scale: scale)
    }

    /// Whether text is a decimal this type reads (and within `numeric`'s bounds).
    public static func isDecimal(_ text: String) -> Bool {
        (try? ExactDecimal(parsing: text)) != nil
    }

    /// Plain text as PostgreSQL's `numeric_out` writes it: no exponent, exactly `scale`
    /// digits after the point, `-` only before a value that is not zero.
    public var description: String {
        // Bytes, not String: a String's count and index walk its characters one by one.
        let digits = DecimalDigits.text(significand.magnitude)
        var out: [UInt8] = []
        out.reserveCapacity(digits.count + scale + 3)
        if significand.signum() < 0 { out.append(UInt8(ascii: "-")) }
        if scale == 0 {
            out.append(contentsOf: digits)
        } else if digits.count > scale {
            out.append(contentsOf: digits[..<(digits.count - scale)])
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[(digits.count - scale)...])
        } else {
            out.append(contentsOf: "0.".utf8)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: scale - digits.count))
            out.append(contentsOf: digits)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A double as its shortest text reads (0.1 is 0.1), the text Quarry binds for it;
    /// nil for NaN and infinities.
    public init?(double: Double) {
        guard double.isFinite, let value = try? ExactDecimal(parsing: "\(double)") else { return nil }
        self = value
    }

    /// The nearest double (infinite past Double's range).
    public var double: Double { Double(description) ?? 0 }

    /// The integer, when the value is whole and fits in Int64 (`12.00` is 12).
    public var int64: Int64? {
        let (q, r) = significand.quotientAndRemainder(dividingBy: Self.powerOfTenInt(scale))
        guard r.isZero else { return nil }
        return Int64(exactly: q)
    }

    // MARK: Arithmetic

    /// The same value with `scale` digits after the point, rounding half away from zero
    /// when it has more (as PostgreSQL's `round_var`).
    public func rounded(toScale newScale: Int) -> ExactDecimal {
        if newScale >= scale {
            return ExactDecimal(significand: significand * Self.powerOfTenInt(newScale - scale), scale: newScale)
        }
        return ExactDecimal(significand: Self.divideRounding(significand, Self.powerOfTenInt(scale - newScale)), scale: newScale)
    }

    /// `a / b` rounded half away from zero; b is not zero.
    private static func divideRounding(_ a: BigInt, _ b: BigInt) -> BigInt {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        guard !r.isZero else { return q }
        if r.magnitude * 2 >= b.magnitude {
            return (a.signum() < 0) != (b.signum() < 0) ? q - 1 : q + 1
        }
        return q
    }

    /// Within `numeric`'s bounds, or `Failure.overflow`.
    public func checked() throws -> ExactDecimal {
        guard scale <= Self.maxScale else { throw Failure.overflow }
        guard !significand.isZero else { return self }
        // The digit count from the bit width alone, unless a power of ten lies between its bounds.
        let bits = significand.magnitude.bitWidth
        let low = Int(Double(bits - 1) * 0.30102999566398120) + 1
        let high = Int(Double(bits) * 0.30102999566398120) + 1
        if high - scale <= Self.maxIntegerDigits { return self }
        guard low - scale <= Self.maxIntegerDigits, Self.digitCount(significand.magnitude) - scale <= Self.maxIntegerDigits else {
            throw Failure.overflow
        }
        return self
    }

    public static func + (a: ExactDecimal, b: ExactDecimal) -> ExactDecimal { aligned(a, b) { $0 + $1 } }
    public static func - (a: ExactDecimal, b: ExactDecimal) -> ExactDecimal { aligned(a, b) { $0 - $1 } }
    public static prefix func - (a: ExactDecimal) -> ExactDecimal { ExactDecimal(significand: -a.significand, scale: a.scale) }

    private static func aligned(_ a: ExactDecimal, _ b: ExactDecimal, _ op: (BigInt, BigInt) -> BigInt) -> ExactDecimal {
        if a.scale == b.scale { return ExactDecimal(significand: op(a.significand, b.significand), scale: a.scale) }
        let s = Swift.max(a.scale, b.scale)
        return ExactDecimal(significand: op(a.rounded(toScale: s).significand, b.rounded(toScale: s).significand), scale: s)
    }

    /// The exact sum and difference, within bounds or a failure.
    public func adding(_ other: ExactDecimal) throws -> ExactDecimal { try (self + other).checked() }
    public func subtracting(_ other: ExactDecimal) throws -> ExactDecimal { try (self - other).checked() }

    /// The product with the sum of the scales, rounded to 16,383 digits after the point
    /// as the server rounds it.
    public func multiplying(_ other: ExactDecimal) throws -> ExactDecimal {
        let product = ExactDecimal(significand: significand * other.significand, scale: scale + other.scale)
        return try (product.scale > Self.maxScale ? product.rounded(toScale: Self.maxScale) : product).checked()
    }

    /// The quotient at the scale PostgreSQL's numeric division gives (`select_div_scale`),
    /// rounded half away from zero.
    public func dividing(by other: ExactDecimal) throws -> ExactDecimal {
        guard !other.significand.isZero else { throw Failure.divisionByZero }
        let rscale = Self.divisionScale(self, other)
        // q = a / b * 10^rscale = (A * 10^(sb + rscale)) / (B * 10^sa)
        let numerator = significand * Self.powerOfTenInt(other.scale + rscale)
        let denominator = other.significand * Self.powerOfTenInt(scale)
        return try ExactDecimal(significand: Self.divideRounding(numerator, denominator), scale: rscale).checked()
    }

    /// PostgreSQL's `select_div_scale`: the quotient's weight estimated from each operand's
    /// weight and first digit in base 10000, then at least 16 significant digits, at least
    /// either operand's scale, at most 1,000.
    static func divisionScale(_ a: ExactDecimal, _ b: ExactDecimal) -> Int {
        let (w1, d1) = a.baseTenThousandLead
        let (w2, d2) = b.baseTenThousandLead
        var qweight = w1 - w2
        if d1 <= d2 { qweight -= 1 }
        var rscale = minSignificantDigits - qweight * 4
        rscale = Swift.max(rscale, a.scale, b.scale, 0)
        return Swift.min(rscale, maxDivisionScale)
    }

    /// The weight (power of 10000) of the first nonzero base-10000 digit and that digit;
    /// (0, 0) for zero.
    var baseTenThousandLead: (weight: Int, digit: Int) {
        guard !significand.isZero else { return (0, 0) }
        let digits = DecimalDigits.text(significand.magnitude)
        // 10^e <= |v| < 10^(e+1)
        let e = digits.count - 1 - scale
        let weight = e >= 0 ? e / 4 : -((-e + 3) / 4)
        let count = e - 4 * weight + 1
        var digit = 0
        for i in 0..<count { digit = digit * 10 + (i < digits.count ? Int(digits[i] - UInt8(ascii: "0")) : 0) }
        return (weight, digit)
    }

    // MARK: Order

    public static func < (a: ExactDecimal, b: ExactDecimal) -> Bool { compare(a, b) < 0 }
    public static func == (a: ExactDecimal, b: ExactDecimal) -> Bool { compare(a, b) == 0 }

    /// Negative, zero or positive, by value (1.0 and 1.00 are equal).
    public static func compare(_ a: ExactDecimal, _ b: ExactDecimal) -> Int {
        let (sa, sb) = (a.significand.signum(), b.significand.signum())
        if sa != sb { return sa < sb ? -1 : 1 }
        if sa == 0 { return 0 }
        let (x, y): (BigInt, BigInt)
        if a.scale == b.scale {
            (x, y) = (a.significand, b.significand)
        } else {
            // Different magnitudes answer without aligning (no 10^16383 for 1 vs 1e-16383).
            let ea = digitCount(a.significand.magnitude) - a.scale
            let eb = digitCount(b.significand.magnitude) - b.scale
            if ea != eb { return (ea < eb) == (sa > 0) ? -1 : 1 }
            let s = Swift.max(a.scale, b.scale)
            (x, y) = (a.rounded(toScale: s).significand, b.rounded(toScale: s).significand)
        }
        return x < y ? -1 : (x > y ? 1 : 0)
    }

    // MARK: Digits

    /// Decimal digits of a magnitude (1 for zero), from its bit width, exact.
    static func digitCount(_ m: BigUInt) -> Int {
        if m.bitWidth <= 64 {
            var v = UInt64(m)
            var n = 1
            while v >= 10 {
                v /= 10
                n += 1
            }
            return n
        }
        // 2^(bits-1) <= m < 2^bits: the count is one of two.
        let bits = m.bitWidth
        let low = Int(Double(bits - 1) * 0.30102999566398120) + 1
        let high = Int(Double(bits) * 0.30102999566398120) + 1
        if low == high { return low }
        return m >= powerOfTen(low) ? low + 1 : low
    }

    static func powerOfTen(_ n: Int) -> BigUInt {
        if n < smallPowers.count { return smallPowers[n] }
        // Squaring halves (BigUInt.power squares once more than it needs, the costliest one).
        let half = powerOfTen(n / 2)
        let square = DecimalDigits.multiply(half, half)
        return n % 2 == 0 ? square : square.multiplied(byWord: 10)
    }

    static func powerOfTenInt(_ n: Int) -> BigInt { BigInt(powerOfTen(n)) }

    private static let smallPowers: [BigUInt] = {
        var p: [BigUInt] = [1]
        for _ in 1...38 { p.append(p[p.count - 1] * 10) }
        return p
    }()
}
