import BigInt
import Foundation

/// Decimal digits to and from a `BigUInt` by halves, for `ExactDecimal`'s text. Folding
/// 19 digits at a time into the number so far (and printing by dividing the whole number
/// by 10^19 again and again) is quadratic in the digits: a 131,072-digit decimal took
/// seconds to print. Here a number is split at a cached power 10^(19·2^k) near half its
/// digits (value = high · 10^len(low) + low), each half converted the same way, so most
/// of the work is a few multiplications or divisions of big halves (BigInt's multiplication
/// is Karatsuba past 1,024 words; its division stays schoolbook, which the halves still
/// make several times cheaper than word-by-word division).
enum DecimalDigits {
    /// 10^19 is the largest power of ten in a 64-bit word.
    static let wordDigits = 19
    private static let wordPower: UInt64 = 10_000_000_000_000_000_000
    /// Below this many digits, 19 at a time is faster than splitting (the split's division
    /// and the calls cost more than they save).
    static let directDigits = 19 * 24

    // MARK: Reading

    /// The integer ASCII digits spell, most significant first (at least one digit).
    static func magnitude(_ digits: ArraySlice<UInt8>) -> BigUInt {
        let n = digits.count
        if n <= directDigits { return direct(digits) }
        // The low part is 19·2^k digits, the largest such below n: at least half of them,
        // and its own halves split evenly at the next cached power down.
        var k = 0
        while wordDigits << (k + 1) < n { k += 1 }
        let split = digits.endIndex - (wordDigits << k)
        let high = magnitude(digits[..<split])
        var value = high.isZero ? high : high * power(k)
        value += magnitude(digits[split...])
        return value
    }

    /// 19 digits at a time: v = v · 10^c + chunk, the first chunk the short one.
    private static func direct(_ digits: ArraySlice<UInt8>) -> BigUInt {
        var v = BigUInt(0)
        var chunk: UInt64 = 0
        var inChunk = 0
        var left = digits.count % wordDigits == 0 ? wordDigits : digits.count % wordDigits
        for c in digits {
            chunk = chunk &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
            inChunk += 1
            if inChunk == left {
                if !v.isZero {
                    var scale: UInt64 = 1
                    for _ in 0..<inChunk { scale &*= 10 }
                    v.multiply(byWord: BigUInt.Word(scale))
                }
                v += BigUInt(chunk)
                chunk = 0
                inChunk = 0
                left = wordDigits
            }
        }
        return v
    }

    // MARK: Writing

    /// The digits of `m` in ASCII, most significant first, without leading zeros ("0" for zero).
    static func text(_ m: BigUInt) -> [UInt8] {
        if m.bitWidth <= 64 { return Array(String(UInt64(m)).utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(lowDigitEstimate(m) + 1)
        write(m, width: 0, into: &out)
        return out
    }

    /// Appends `m`'s digits, padded with zeros to `width` digits (0: as many as it has);
    /// `m` is below 10^width when a width is given.
    private static func write(_ m: BigUInt, width: Int, into out: inout [UInt8]) {
        let digits = Swift.max(width, lowDigitEstimate(m))
        if digits <= 2 * directDigits {
            writeDirect(m, width: width, into: &out)
            return
        }
        // Divided at 10^(19·2^k), the largest cached power at most half the digits, so the
        // quotient is not zero (unpadded) and both halves split again evenly.
        var k = 0
        while wordDigits << (k + 1) <= digits / 2 { k += 1 }
        let low = wordDigits << k
        let (q, r) = m.quotientAndRemainder(dividingBy: power(k))
        write(q, width: width == 0 ? 0 : width - low, into: &out)
        write(r, width: low, into: &out)
    }

    /// By 10^19 at a time, least significant chunk first, then written most significant first.
    private static func writeDirect(_ m: BigUInt, width: Int, into out: inout [UInt8]) {
        var words = Array(m.words).map { UInt64($0) }
        var chunks: [UInt64] = []
        while let top = words.last {
            if top == 0 {
                words.removeLast()
                continue
            }
            var remainder: UInt64 = 0
            for i in stride(from: words.count - 1, through: 0, by: -1) {
                let (q, r) = wordPower.dividingFullWidth((remainder, words[i]))
                words[i] = q
                remainder = r
            }
            chunks.append(remainder)
        }
        var digits: [UInt8] = []
        digits.reserveCapacity(chunks.count * wordDigits)
        for (i, chunk) in chunks.reversed().enumerated() {
            let text = String(chunk).utf8
            if i > 0 { digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: wordDigits - text.count)) }
            digits.append(contentsOf: text)
        }
        if digits.isEmpty && width == 0 { digits = [UInt8(ascii: "0")] }
        if width > digits.count { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
        out.append(contentsOf: digits)
    }

    /// A lower bound of `m`'s digit count, from its bit width (1 for zero).
    private static func lowDigitEstimate(_ m: BigUInt) -> Int {
        let bits = m.bitWidth
        return bits <= 1 ? 1 : Int(Double(bits - 1) * 0.30102999566398120) + 1
    }

    // MARK: Powers

    /// 10^(19·2^k), squared from the one below; kept for the process, as every decimal
    /// of a size meets the same few (up to k = 13 for numeric's 147,455 digits).
    static func power(_ k: Int) -> BigUInt {
        powersLock.lock()
        defer { powersLock.unlock() }
        while powers.count <= k {
            let last = powers[powers.count - 1]
            powers.append(last * last)
        }
        return powers[k]
    }

    private static let powersLock = NSLock()
    nonisolated(unsafe) private static var powers: [BigUInt] = [BigUInt(wordPower)]
}
