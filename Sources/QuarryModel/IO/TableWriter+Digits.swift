/// Integers in decimal, written in place: an export writes one for most of its cells.
extension TableWriter {
    /// `i` in decimal at `p`; how many bytes (at most 20: Int64.min has 19 digits and a sign).
    @inline(__always)
    static func digits(_ i: Int64, at p: UnsafeMutablePointer<UInt8>) -> Int {
        // Up to four digits (most cells: a year, a month, a time of day, a delay) are
        // written straight, by divisions the compiler makes multiplications.
        if i > -10_000, i < 10_000 {
            var n = 0
            if i < 0 {
                p[0] = 45
                n = 1
            }
            let m = Int(i.magnitude)
            func digit(_ d: Int, at k: Int) { p[k] = UInt8(truncatingIfNeeded: 48 &+ d) }
            if m < 10 {
                digit(m, at: n)
                return n + 1
            }
            if m < 100 {
                digit(m / 10, at: n)
                digit(m % 10, at: n + 1)
                return n + 2
            }
            let high = m / 100
            let low = m % 100
            if m < 1000 {
                digit(high, at: n)
                digit(low / 10, at: n + 1)
                digit(low % 10, at: n + 2)
                return n + 3
            }
            digit(high / 10, at: n)
            digit(high % 10, at: n + 1)
            digit(low / 10, at: n + 2)
            digit(low % 10, at: n + 3)
            return n + 4
        }
        var magnitude = i.magnitude
        // The digits counted by comparison (10^19 is the last power below 2^64).
        var count = 1
        var power: UInt64 = 10
        while count < 20, magnitude >= power {
            count += 1
            power = power &* 10
        }
        if i < 0 {
            p[0] = 45
            count += 1
        }
        var n = count
        repeat {
            n -= 1
            p[n] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return count
    }

    /// `i` in decimal and `.0` at `p` (at most 18 bytes under 10^15); how many bytes.
    @inline(__always)
    static func digitsPointZero(_ i: Int64, at p: UnsafeMutablePointer<UInt8>) -> Int {
        let n = digits(i, at: p)
        p[n] = 46 // .
        p[n + 1] = 48 // 0
        return n + 2
    }

    package static func digits(_ i: Int64, into out: inout [UInt8]) {
        ScratchBytes.append(into: &out) { p in 0..<digits(i, at: p) }
    }
}
