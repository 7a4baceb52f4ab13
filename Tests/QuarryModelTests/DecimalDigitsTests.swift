import BigInt
import Foundation
import QuarryModel
import QuarryTestSupport
import Testing

/// Decimal text in and out by halves (issue 61 item 5: 19 digits at a time was quadratic):
/// the same values and the same text as the code it replaced, kept here as the reference,
/// and exact sums at the widest size `numeric` holds.
@Suite struct DecimalDigitsTests {
    // MARK: The reference: `ExactDecimal`'s text code before the change, as it was.

    /// The old `init(parsing:)`: the significand folded 19 digits at a time.
    private static func referenceParse(_ text: String) -> (BigInt, Int)? {
        var bytes = Substring(text).utf8[...]
        while let c = bytes.first, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { bytes = bytes.dropFirst() }
        while let c = bytes.last, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { bytes = bytes.dropLast() }
        var negative = false
        if let c = bytes.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
            negative = c == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var afterPoint = 0
        var sawPoint = false
        var rest = bytes.endIndex
        for i in bytes.indices {
            let c = bytes[i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
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
        guard bytes[bytes.startIndex..<rest].contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        var exponent = 0
        if rest != bytes.endIndex {
            var e = bytes[rest...].dropFirst()
            guard bytes[rest] == UInt8(ascii: "e") || bytes[rest] == UInt8(ascii: "E") else { return nil }
            var negativeExponent = false
            if let c = e.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                negativeExponent = c == UInt8(ascii: "-")
                e = e.dropFirst()
            }
            guard !e.isEmpty else { return nil }
            for c in e {
                guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
                if exponent < 100_000_000 { exponent = exponent * 10 + Int(c - UInt8(ascii: "0")) }
            }
            if negativeExponent { exponent = -exponent }
        }
        let scale = max(0, afterPoint - exponent)
        let significant = digits.drop(while: { $0 == UInt8(ascii: "0") })
        var magnitude = referenceMagnitude(significant)
        let shift = scale - (afterPoint - exponent)
        if shift > 0, !magnitude.isZero { magnitude *= BigUInt(10).power(shift) }
        return (negative ? -BigInt(magnitude) : BigInt(magnitude), scale)
    }

    /// The old `magnitude(ofDigits:)`: v = v * 10^k + chunk, 19 digits at a time.
    private static func referenceMagnitude<C: Collection>(_ digits: C) -> BigUInt where C.Element == UInt8 {
        var v = BigUInt(0)
        var chunk: UInt64 = 0
        var inChunk = 0
        var left = digits.count % 19 == 0 ? 19 : digits.count % 19
        for c in digits {
            chunk = chunk * 10 + UInt64(c - UInt8(ascii: "0"))
            inChunk += 1
            if inChunk == left {
                var scale: UInt64 = 1
                for _ in 0..<inChunk { scale *= 10 }
                v.multiply(byWord: BigUInt.Word(scale))
                v += BigUInt(chunk)
                chunk = 0
                inChunk = 0
                left = 19
            }
        }
        return v
    }

    /// The old `description`: BigInt's own text (repeated division by 10^19), then the point.
    private static func referenceText(_ significand: BigInt, _ scale: Int) -> String {
        let digits = significand.magnitude.description
        var out = significand.signum() < 0 ? "-" : ""
        if scale == 0 { return out + digits }
        if digits.count > scale {
            let cut = digits.index(digits.endIndex, offsetBy: -scale)
            out += digits[..<cut]
            out += "."
            out += digits[cut...]
        } else {
            out += "0."
            out += String(repeating: "0", count: scale - digits.count)
            out += digits
        }
        return out
    }

    // MARK: Random decimal text

    private static func digits(_ rng: inout SplitMix64, _ n: Int) -> String {
        // Runs of zeros and nines too: carries and zero padding inside the halves.
        let style = rng.int(0...3)
        return String(
            (0..<n).map { _ -> Character in
                switch style {
                case 0: return rng.chance(0.9) ? "0" : "1"
                case 1: return rng.chance(0.9) ? "9" : "8"
                default: return Character(String(rng.int(0...9)))
                }
            })
    }

    /// Text of 1 to 5,000 digits: leading zeros, a sign, a fraction, an exponent, spaces.
    private static func randomText(_ rng: inout SplitMix64) -> String {
        let total = rng.chance(0.3) ? rng.int(1...80) : rng.int(1...5_000)
        let fraction = rng.chance(0.5) ? rng.int(0...total) : 0
        var text = digits(&rng, total - fraction)
        if rng.chance(0.3) { text = String(repeating: "0", count: rng.int(1...40)) + text }
        if fraction > 0 || rng.chance(0.1) { text += "." + digits(&rng, fraction) }
        if text.allSatisfy({ $0 == "." }) { text = "0" + text }
        if rng.chance(0.3) { text += (rng.chance(0.5) ? "e" : "E") + rng.pick(["", "+", "-"]) + String(rng.int(0...400)) }
        if rng.chance(0.4) { text = rng.pick(["-", "+"]) + text }
        if rng.chance(0.1) { text = " " + text + " " }
        return text
    }

    @Test func readsAndPrintsAsTheChunkedCodeDid() throws {
        var rng = SplitMix64(seed: 0x61_D161)
        var compared = 0
        var long = 0
        for _ in 0..<160 {
            let text = Self.randomText(&rng)
            let reference = try #require(Self.referenceParse(text), "reference refused \(text.prefix(60))")
            let value = try ExactDecimal(parsing: text)
            #expect(value.significand == reference.0 && value.scale == reference.1, "value of \(text.prefix(60))… (\(text.count) characters)")
            #expect(value.description == Self.referenceText(reference.0, reference.1), "text of \(text.prefix(60))… (\(text.count) characters)")
            compared += 1
            if text.count > 1_000 { long += 1 }
        }
        // Exact powers of the split points and their neighbours.
        for k in 0...9 {
            for n in [19 << k, (19 << k) - 1, (19 << k) + 1] {
                for text in [
                    "1" + String(repeating: "0", count: n), String(repeating: "9", count: n), "1" + String(repeating: "0", count: n - 1) + "1"
                ] {
                    let reference = try #require(Self.referenceParse(text))
                    let value = try ExactDecimal(parsing: text)
                    #expect(value.significand == reference.0, "\(n) digits")
                    #expect(value.description == Self.referenceText(reference.0, reference.1), "\(n) digits")
                    compared += 1
                }
            }
        }
        #expect(compared == 160 + 10 * 9 && long > 40)
    }

    /// Adds two positive digit strings of the same scale, as on paper.
    private static func paperSum(_ a: String, _ b: String) -> String {
        let x = Array(a.utf8).reversed().map { $0 }
        let y = Array(b.utf8).reversed().map { $0 }
        var out: [UInt8] = []
        var carry = 0
        for i in 0..<max(x.count, y.count) {
            let (p, q) = (i < x.count ? x[i] : UInt8(ascii: "0"), i < y.count ? y[i] : UInt8(ascii: "0"))
            if p == UInt8(ascii: ".") {
                out.append(p)
                continue
            }
            let s = Int(p - 48) + Int(q - 48) + carry
            out.append(UInt8(48 + s % 10))
            carry = s / 10
        }
        if carry > 0 { out.append(UInt8(48 + carry)) }
        return String(decoding: out.reversed(), as: UTF8.self)
    }

    /// `numeric`'s widest: 131,072 digits before the point and 16,383 after read and print
    /// back the same, and a sum of two such numbers is the sum on paper.
    @Test func theWidestDecimalRoundTripsAndAddsExactly() throws {
        var rng = SplitMix64(seed: 131_072)
        let a = "1" + Self.digits(&rng, 131_071) + "." + Self.digits(&rng, 16_382) + "7"
        let b = "2" + Self.digits(&rng, 131_071) + "." + Self.digits(&rng, 16_382) + "3"
        let x = try ExactDecimal(parsing: a)
        let y = try ExactDecimal(parsing: b)
        // (Printed twice only: in a debug build each print of this size takes seconds.)
        #expect(x.scale == 16_383 && x.description == a)
        #expect(y.scale == 16_383 && y.significand > x.significand)
        let sum = try x.adding(y)
        let expected = Self.paperSum(a, b)
        // 1... + 2... has no carry out: the sum has the same digit count.
        #expect(expected.count == a.count)
        #expect(sum.description == expected)
        #expect(try sum.subtracting(y) == x)
        #expect(x < sum && y < sum)
    }
}
