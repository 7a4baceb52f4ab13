import Foundation

/// Dates written as ISO 8601 bytes for exports. A whole second (every imported
/// timestamp, most stored ones) is written from its day number by arithmetic: formatting
/// through `String(format:)` cost more than a microsecond a date, as long as SQLite takes
/// to read the row. Anything else goes through `Value.exactISO8601`, which keeps as many
/// fractional digits as reading back exactly needs. A date past the years 0001 to 9999
/// (a PostgreSQL BC timestamp, year 294276, a SQLite number of year 10000) is written in
/// ISO 8601's expanded form (`+10000-01-01T00:00:00Z`, `-0043-03-15T12:00:00Z`, year 0
/// being 1 BC), so an export keeps what the column holds; an infinite one as PostgreSQL
/// writes it.
enum ISO8601Bytes {
    package static func append(_ seconds: Double, into out: inout [UInt8]) {
        guard seconds.isFinite else {
            out.append(contentsOf: (seconds.isNaN ? "invalid date" : seconds < 0 ? "-infinity" : "infinity").utf8)
            return
        }
        guard Value.dateRange.contains(seconds) else { return expanded(seconds, into: &out) }
        guard seconds == seconds.rounded() else {
            out.append(contentsOf: Value.exactISO8601(seconds).utf8)
            return
        }
        civil(Int64(seconds), into: &out)
        out.append(90)
    }

    /// A date outside the years 0001 to 9999, its year signed and as long as it takes,
    /// with as many fractional digits as reading the seconds back exactly needs.
    private static func expanded(_ seconds: Double, into out: inout [UInt8]) {
        // Past ±2^63 s no calendar is meant: the seconds themselves.
        guard abs(seconds) < 9.2e18 else { return out.append(contentsOf: Value.format(seconds).utf8) }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        civil(Int64(whole), into: &out)
        if fraction > 0 {
            var digits = 1
            while digits < 9, whole + (fraction * pow(10, Double(digits))).rounded() / pow(10, Double(digits)) != seconds { digits += 1 }
            let scaled = Int64((fraction * pow(10, Double(digits))).rounded())
            if scaled > 0 {
                var text = String(scaled)
                text = String(repeating: "0", count: max(0, digits - text.count)) + text
                while text.hasSuffix("0") { text.removeLast() }
                out.append(46)
                out.append(contentsOf: text.utf8)
            }
        }
        out.append(90)
    }

    /// `YYYY-MM-DDThh:mm:ss` of a whole second (a year outside 0000 to 9999 signed,
    /// `+10000`, `-0043`), without the zone.
    private static func civil(_ whole: Int64, into out: inout [UInt8]) {
        let (year, month, day, rest) = split(whole)
        guard (0...9999).contains(year) else {
            if year > 9999 {
                out.append(43)
                out.append(contentsOf: String(year).utf8)
            } else {
                out.append(45)
                let text = String(-year)
                out.append(contentsOf: (String(repeating: "0", count: max(0, 4 - text.count)) + text).utf8)
            }
            ScratchBytes.append(into: &out) { p in
                write(year: 0, month: month, day: day, rest: rest, at: p)
                return 4..<19
            }
            return
        }
        ScratchBytes.append(into: &out) { p in
            write(year: year, month: month, day: day, rest: rest, at: p)
            return 0..<19
        }
    }

    /// `YYYY-MM-DDThh:mm:ssZ` of a whole second of the years 0000 to 9999 at `p`, written in
    /// place (an export writes one a row); how many bytes (20).
    @inline(__always)
    package static func wholeSecond(_ whole: Int64, at p: UnsafeMutablePointer<UInt8>) -> Int {
        let (year, month, day, rest) = split(whole)
        write(year: year, month: month, day: day, rest: rest, at: p)
        p[19] = 90 // Z
        return 20
    }

    /// A whole second's civil day and the seconds into it.
    @inline(__always)
    private static func split(_ whole: Int64) -> (year: Int64, month: Int64, day: Int64, rest: Int64) {
        var days = whole / 86_400
        var rest = whole % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (year, month, day) = CivilDate.fromDays(days)
        return (year, month, day, rest)
    }

    /// `YYYY-MM-DDThh:mm:ss`, 19 bytes at `p`, of a year in 0000 to 9999.
    @inline(__always)
    private static func write(year: Int64, month: Int64, day: Int64, rest: Int64, at p: UnsafeMutablePointer<UInt8>) {
        func two(_ n: Int64, at i: Int) {
            p[i] = UInt8(truncatingIfNeeded: 48 + n / 10)
            p[i + 1] = UInt8(truncatingIfNeeded: 48 + n % 10)
        }
        two(year / 100, at: 0)
        two(year % 100, at: 2)
        p[4] = 45
        two(month, at: 5)
        p[7] = 45
        two(day, at: 8)
        p[10] = 84
        two(rest / 3600, at: 11)
        p[13] = 58
        two(rest / 60 % 60, at: 14)
        p[16] = 58
        two(rest % 60, at: 17)
    }
}
