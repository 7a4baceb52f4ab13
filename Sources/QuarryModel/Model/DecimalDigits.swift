import BigInt
import Foundation

/// Decimal digits to and from a `BigUInt` by halves, for `ExactDecimal`'s text. Folding
/// 19 digits at a time into the number so far (and printing by dividing the whole number
/// by 10^19 again and again) is quadratic in the digits: a 131,072-digit decimal took
/// seconds to print. Here a number is split at a cached power 10^(19·2^k) near half its
/// digits (value = high · 10^len(low) + low), each half converted the same way, so most
/// of the work is a few multiplications or divisions of big halves: products by
/// Karatsuba (`multiply`, from 40 words; BigInt's own waits for 1,024), quotients by
/// Knuth's schoolbook division on raw words (`divide`), so reading is subquadratic and
/// printing quadratic with a small constant (docs/benchmarks.md, "Scaling").
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
        var value = high.isZero ? high : multiply(high, power(k))
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
        let (q, r) = divide(m, by: power(k))
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

    /// `(m / d, m % d)` by Knuth's algorithm D (TAOCP 4.3.1, as Hacker's Delight's
    /// `divmnu`) on raw words, `d` of two words or more. BigInt's own is the same
    /// algorithm but makes four passes over the divisor per quotient word (copy, multiply,
    /// compare, subtract), each through its word storage: this one makes one, on pointers.
    static func divide(_ m: BigUInt, by d: BigUInt) -> (BigUInt, BigUInt) {
        let divisor = Array(d.words)
        let n = divisor.count
        guard n >= 2, divisor[n - 1] != 0, m >= d else { return m.quotientAndRemainder(dividingBy: d) }
        let dividend = Array(m.words)
        let count = dividend.count
        // Normalized: the divisor's top bit set, so each estimated quotient word is at most 2 too big.
        let s = divisor[n - 1].leadingZeroBitCount
        func shifted(_ w: [UInt], _ i: Int) -> UInt {
            let low = i < w.count ? w[i] << s : 0
            return s == 0 || i == 0 ? low : low | (w[i - 1] >> (UInt.bitWidth - s))
        }
        let v = (0..<n).map { shifted(divisor, $0) }
        var u = (0...count).map { shifted(dividend, $0) }
        var q = [UInt](repeating: 0, count: count - n + 1)
        u.withUnsafeMutableBufferPointer { ub in
            v.withUnsafeBufferPointer { vb in
                guard let u = ub.baseAddress, let v = vb.baseAddress else { return }
                let top = v[n - 1]
                let next = v[n - 2]
                for j in stride(from: count - n, through: 0, by: -1) {
                    // The estimate from the top two words, refined with the third.
                    var qhat: UInt
                    var rhat: UInt
                    var refine = true
                    if u[j + n] >= top {
                        qhat = .max
                        let (r, over) = u[j + n - 1].addingReportingOverflow(top)
                        rhat = r
                        refine = !over
                    } else {
                        (qhat, rhat) = top.dividingFullWidth((u[j + n], u[j + n - 1]))
                    }
                    while refine {
                        let p = qhat.multipliedFullWidth(by: next)
                        guard p.high > rhat || (p.high == rhat && p.low > u[j + n - 2]) else { break }
                        qhat -= 1
                        let (r, over) = rhat.addingReportingOverflow(top)
                        rhat = r
                        refine = !over
                    }
                    // u[j...j+n] -= qhat * v, in one pass.
                    var carry: UInt = 0
                    var borrow: UInt = 0
                    for i in 0..<n {
                        let p = qhat.multipliedFullWidth(by: v[i])
                        let (low, c) = p.low.addingReportingOverflow(carry)
                        carry = p.high &+ (c ? 1 : 0)
                        let (t, b1) = u[i + j].subtractingReportingOverflow(low)
                        let (t2, b2) = t.subtractingReportingOverflow(borrow)
                        u[i + j] = t2
                        borrow = (b1 ? 1 : 0) &+ (b2 ? 1 : 0)
                    }
                    let (t, b1) = u[j + n].subtractingReportingOverflow(carry)
                    let (t2, b2) = t.subtractingReportingOverflow(borrow)
                    u[j + n] = t2
                    if b1 || b2 {
                        // One too many (rare): add the divisor back.
                        qhat -= 1
                        var c: UInt = 0
                        for i in 0..<n {
                            let (s1, o1) = u[i + j].addingReportingOverflow(v[i])
                            let (s2, o2) = s1.addingReportingOverflow(c)
                            u[i + j] = s2
                            c = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                        }
                        u[j + n] = u[j + n] &+ c
                    }
                    q[j] = qhat
                }
            }
        }
        // The remainder is u's low n words, shifted back.
        let r = (0..<n).map { i in s == 0 ? u[i] : (u[i] >> s) | (u[i + 1] << (UInt.bitWidth - s)) }
        return (BigUInt(words: q), BigUInt(words: r))
    }

    // MARK: Multiplication

    /// Below this many words a side, schoolbook multiplication; above, Karatsuba's three
    /// half-size products. BigInt's own goes Karatsuba only past 1,024 words (about 19,700
    /// digits), so a 131,072-digit decimal was read in schoolbook time.
    static let karatsubaWords = 40

    /// `a · b`, by Karatsuba on raw words.
    static func multiply(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
        let x = Array(a.words)
        let y = Array(b.words)
        guard Swift.min(x.count, y.count) >= karatsubaWords else { return a * b }
        return BigUInt(words: product(x[...], y[...]))
    }

    /// x · y, words least significant first, in x.count + y.count words.
    static func product(_ x: ArraySlice<UInt>, _ y: ArraySlice<UInt>) -> [UInt] {
        if x.count < y.count { return product(y, x) }
        let n = y.count
        if n == 0 { return [UInt](repeating: 0, count: x.count) }
        if n < karatsubaWords { return schoolbook(x, y) }
        var out = [UInt](repeating: 0, count: x.count + n)
        if x.count >= 2 * n {
            // Unbalanced: y times each y-long piece of x.
            var i = x.startIndex
            while i < x.endIndex {
                let end = Swift.min(i + n, x.endIndex)
                add(product(x[i..<end], y), into: &out, at: i - x.startIndex)
                i = end
            }
            return out
        }
        // x = x1·B^m + x0, y = y1·B^m + y0: x·y = z2·B^2m + (z1 - z2 - z0)·B^m + z0,
        // z1 = (x0 + x1)(y0 + y1).
        let m = n / 2
        let (x0, x1) = (x[x.startIndex..<(x.startIndex + m)], x[(x.startIndex + m)...])
        let (y0, y1) = (y[y.startIndex..<(y.startIndex + m)], y[(y.startIndex + m)...])
        let z0 = product(x0, y0)
        let z2 = product(x1, y1)
        var z1 = product(sum(x0, x1)[...], sum(y0, y1)[...])
        subtract(z0, from: &z1)
        subtract(z2, from: &z1)
        add(z0, into: &out, at: 0)
        add(z2, into: &out, at: 2 * m)
        add(z1, into: &out, at: m)
        return out
    }

    private static func schoolbook(_ x: ArraySlice<UInt>, _ y: ArraySlice<UInt>) -> [UInt] {
        var out = [UInt](repeating: 0, count: x.count + y.count)
        x.withUnsafeBufferPointer { xb in
            y.withUnsafeBufferPointer { yb in
                out.withUnsafeMutableBufferPointer { ob in
                    guard let xp = xb.baseAddress, let yp = yb.baseAddress, let op = ob.baseAddress else { return }
                    for j in 0..<yb.count {
                        let w = yp[j]
                        if w == 0 { continue }
                        var carry: UInt = 0
                        for i in 0..<xb.count {
                            let p = w.multipliedFullWidth(by: xp[i])
                            let (s1, o1) = p.low.addingReportingOverflow(op[i + j])
                            let (s2, o2) = s1.addingReportingOverflow(carry)
                            op[i + j] = s2
                            carry = p.high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                        }
                        op[xb.count + j] = carry
                    }
                }
            }
        }
        return out
    }

    /// a + b, one word longer than the longer.
    private static func sum(_ a: ArraySlice<UInt>, _ b: ArraySlice<UInt>) -> [UInt] {
        var out = [UInt](repeating: 0, count: Swift.max(a.count, b.count) + 1)
        for (i, w) in a.enumerated() { out[i] = w }
        add(Array(b), into: &out, at: 0)
        return out
    }

    /// out[at...] += src, the carry carried up; words past out's end are zeros (the sum fits).
    private static func add(_ src: [UInt], into out: inout [UInt], at offset: Int) {
        out.withUnsafeMutableBufferPointer { ob in
            src.withUnsafeBufferPointer { sb in
                guard let op = ob.baseAddress, let sp = sb.baseAddress else { return }
                var carry: UInt = 0
                var i = 0
                while i < sb.count && offset + i < ob.count {
                    let (s1, o1) = op[offset + i].addingReportingOverflow(sp[i])
                    let (s2, o2) = s1.addingReportingOverflow(carry)
                    op[offset + i] = s2
                    carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                    i += 1
                }
                while carry != 0 && offset + i < ob.count {
                    let (s, o) = op[offset + i].addingReportingOverflow(carry)
                    op[offset + i] = s
                    carry = o ? 1 : 0
                    i += 1
                }
            }
        }
    }

    /// out -= src, out not smaller; words of src past out's end are zeros.
    private static func subtract(_ src: [UInt], from out: inout [UInt]) {
        out.withUnsafeMutableBufferPointer { ob in
            src.withUnsafeBufferPointer { sb in
                guard let op = ob.baseAddress, let sp = sb.baseAddress else { return }
                var borrow: UInt = 0
                var i = 0
                while i < sb.count && i < ob.count {
                    let (d1, b1) = op[i].subtractingReportingOverflow(sp[i])
                    let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                    op[i] = d2
                    borrow = (b1 ? 1 : 0) &+ (b2 ? 1 : 0)
                    i += 1
                }
                while borrow != 0 && i < ob.count {
                    let (d, b) = op[i].subtractingReportingOverflow(borrow)
                    op[i] = d
                    borrow = b ? 1 : 0
                    i += 1
                }
            }
        }
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
            powers.append(multiply(last, last))
        }
        return powers[k]
    }

    private static let powersLock = NSLock()
    /// `nonisolated(unsafe)`: read and grown only under `powersLock` (`power(_:)`).
    nonisolated(unsafe) private static var powers: [BigUInt] = [BigUInt(wordPower)]
}
