import Foundation

/// A value as the store holds it: what an attribute, a predicate argument or a fetched
/// column can be, independent of Lua and of SQLite's storage classes.
public enum Value: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// TEXT whose bytes are not UTF-8 (a hash another program stored as text), kept byte
    /// for byte: a `String` would replace each invalid byte with U+FFFD, and the value
    /// would then neither match its row nor write back as it was. Only `Value(storedText:)`
    /// makes one, so valid UTF-8 is always `.text` and the two never hold the same text.
    case textBytes([UInt8])
    case blob([UInt8])
    case bool(Bool)
    /// Seconds since 1970-01-01T00:00:00Z.
    case date(Double)
    /// An exact decimal number as its text (`195.10`): PostgreSQL's `numeric`, kept as the
    /// server writes it so that it prints, compares and goes back unchanged (a double
    /// would print `195.1`, and sums of them drift).
    case decimal(String)

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The name a message uses for this value's kind.
    public var kindName: String {
        switch self {
        case .null: return "nil"
        case .integer: return "integer"
        case .real: return "number"
        case .text, .textBytes: return "string"
        case .blob: return "binary"
        case .bool: return "boolean"
        case .date: return "date"
        case .decimal: return "decimal"
        }
    }

    /// The value as a message names it, kind and text ("number 2.5"); a date Quarry
    /// cannot write names its seconds rather than repeating its kind ("date date out of
    /// range").
    public var described: String {
        switch self {
        case .null: return "nil"
        case .date(let d) where !Value.dateRange.contains(d): return "a date of \(Value.format(d)) seconds, outside the years 0001 to 9999"
        default: return "\(kindName) \(displayString)"
        }
    }

    /// The value as a person reads it in a message or a table cell.
    public var displayString: String {
        switch self {
        case .null: return "nil"
        case .integer(let i): return String(i)
        case .real(let d): return Value.format(d)
        case .text(let s): return s
        case .textBytes(let b): return Value.escapingInvalidUTF8(b)
        case .blob(let b): return "<\(b.count) bytes>"
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return Value.iso8601(d)
        case .decimal(let s): return s
        }
    }

    /// Shortest round-tripping form, with integral doubles shown as Lua shows floats ("3.0").
    public static func format(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        // An integral value as its integer and `.0`, as "%.1f" writes it, without
        // Foundation's formatter: it was 4.3G of the 7.5G instructions of exporting the
        // flights through a query (line 10c), whose delays are such doubles.
        if let integer = integralDigits(d) { return String(integer) + ".0" }
        // -0.0, the one integral value under 10^15 written otherwise.
        if d == 0 { return "-0.0" }
        return "\(d)"
    }

    /// `d` as the integer `format` writes before `.0` (integral, under 10^15, not -0.0);
    /// nil when it writes `d` otherwise. Exports write such doubles in place by it.
    @inline(__always)
    public static func integralDigits(_ d: Double) -> Int64? {
        guard d == d.rounded(), abs(d) < 1e15, d != 0 || d.sign == .plus else { return nil }
        return Int64(d)
    }

    /// A date at midnight UTC as its day (`2013-01-01`), as a column of days shows it; nil
    /// for any other time, which is shown whole.
    public static func dayText(_ seconds: Double) -> String? {
        let text = iso8601(seconds)
        return text.hasSuffix("T00:00:00Z") ? String(text.dropLast(10)) : nil
    }

    /// ISO 8601 in UTC, with fractional seconds only when there are some.
    public static func iso8601(_ seconds: Double) -> String {
        iso8601(seconds, digits: 3)
    }

    /// ISO 8601 in the machine's time zone (`TZ`), with its offset ("2013-01-01T05:15:00-05:00"),
    /// as tables show dates when asked for local time.
    public static func localISO8601(_ seconds: Double) -> String {
        iso8601(seconds, digits: 3, local: true)
    }

    /// ISO 8601 with as many fractional digits (up to nine) as it takes to read back as
    /// exactly `seconds`, for text that must round-trip.
    public static func exactISO8601(_ seconds: Double) -> String {
        for digits in 3...9 {
            let text = iso8601(seconds, digits: digits)
            if parseISO8601(text) == seconds { return text }
        }
        return iso8601(seconds, digits: 9)
    }

    /// The dates Quarry can write: years 0001 to 9999, as ISO 8601 allows, every instant
    /// before 10000-01-01 included, so a date a store holds at 23:59:59.9999 of the last day
    /// (a SQLite number, a PostgreSQL microsecond) is a date Quarry prints, assigns and
    /// exports back.
    public static let dateRange: ClosedRange<Double> = -62_135_596_800...lastInstant

    /// The last double before 10000-01-01T00:00:00Z.
    public static let lastInstant = Double(253_402_300_800).nextDown

    private static func iso8601(_ seconds: Double, digits: Int, local: Bool = false) -> String {
        guard dateRange.contains(seconds) else { return seconds.isNaN ? "invalid date" : "date out of range" }
        // The fraction is rounded first, so 59.9996 s carries into the next minute; in the
        // last second of 9999 it is cut instead, as no text may name the year 10000.
        let scale = pow(10, Double(digits))
        let rounded = (seconds * scale).rounded()
        let scaled = rounded / scale > lastInstant ? (seconds * scale).rounded(.down) : rounded
        let whole = (scaled / scale).rounded(.down)
        let fraction = Int((scaled - whole * scale).rounded())
        var t = time_t(whole)
        var parts = tm()
        if local { localtime_r(&t, &parts) } else { gmtime_r(&t, &parts) }
        // Written byte by byte, not with String(format:): exports and PostgreSQL's rows
        // write every date through here, up to seven times for the exact form.
        var text: [UInt8] = []
        text.reserveCapacity(40)
        func append(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<max(width, 1) { divisor *= 10 }
            while divisor <= value / 10 { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.append(UInt8(48 + rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(Int(parts.tm_year) + 1900, width: 4)
        text.append(UInt8(ascii: "-"))
        append(Int(parts.tm_mon) + 1, width: 2)
        text.append(UInt8(ascii: "-"))
        append(Int(parts.tm_mday), width: 2)
        text.append(UInt8(ascii: "T"))
        append(Int(parts.tm_hour), width: 2)
        text.append(UInt8(ascii: ":"))
        append(Int(parts.tm_min), width: 2)
        text.append(UInt8(ascii: ":"))
        append(Int(parts.tm_sec), width: 2)
        if fraction != 0 {
            text.append(UInt8(ascii: "."))
            append(fraction, width: digits)
            while text.last == UInt8(ascii: "0") { text.removeLast() }
        }
        if local {
            // Old dates fall in local mean time, whose offset has seconds (-04:56:02).
            let offset = abs(Int(parts.tm_gmtoff))
            text.append(UInt8(ascii: parts.tm_gmtoff < 0 ? "-" : "+"))
            append(offset / 3600, width: 2)
            text.append(UInt8(ascii: ":"))
            append(offset / 60 % 60, width: 2)
            if offset % 60 != 0 {
                text.append(UInt8(ascii: ":"))
                append(offset % 60, width: 2)
            }
        } else {
            text.append(UInt8(ascii: "Z"))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses "2024-01-22", "2024-01-22T16:26:12Z", "2024-01-22 16:26", with optional
    /// fractional seconds and a "Z" or "+hh:mm" offset (also "+hhmm" and "+hh", ISO 8601's
    /// basic forms); nil when the text is not such a
    /// date. Hand-written: imports call it for every cell of a date column.
    public static func parseISO8601(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parseISO8601(bytes: $0) }
    }

    /// Parses ISO 8601's basic form: a date alone, `20180903` (GTFS, many feeds), or with a
    /// time, `20180903T141500`, optionally `Z`; nil for any other text. Apart from
    /// `parseISO8601`, which imports use to tell dates from text: eight digits are as often
    /// a number. A file's date column reads it (`AttributeType.decode`), as its SQL does.
    public static func parseISO8601Basic(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count == 8 || b.count == 15 || b.count == 16 else { return nil }
        let isDigit = { (c: UInt8) in c >= 48 && c <= 57 }
        guard b[0..<8].allSatisfy(isDigit) else { return nil }
        let s = { (r: Range<Int>) in String(decoding: b[r], as: UTF8.self) }
        var extended = s(0..<4) + "-" + s(4..<6) + "-" + s(6..<8)
        if b.count > 8 {
            guard b[8] == UInt8(ascii: "T"), b[9..<15].allSatisfy(isDigit), b.count == 15 || b[15] == UInt8(ascii: "Z") else { return nil }
            extended += "T" + s(9..<11) + ":" + s(11..<13) + ":" + s(13..<15) + (b.count == 16 ? "Z" : "")
        }
        return parseISO8601(extended)
    }

    public static func parseISO8601(bytes b: UnsafeBufferPointer<UInt8>) -> Double? {
        isoParts(b).map { Double($0.minute + $0.second) + $0.fraction }
    }

    /// The ISO text `text` as SQLite's `julianday()` reads it, to the millisecond: a
    /// file's text dates are compared and sorted in SQL at that precision (Django writes
    /// microseconds, `2024-02-15 16:39:55.397015`), so an object read from the row holds
    /// the same instant, and `created_at >= o.created_at` finds `o`. SQLite rounds the
    /// seconds of the minute, with their fraction, half up to whole milliseconds.
    public static func parseISO8601Milliseconds(_ text: String) -> Double? {
        var text = text
        guard let parts = text.withUTF8({ isoParts($0) }) else { return nil }
        let milliseconds = Int64(parts.minute) * 1000 + Int64((Double(parts.second) + parts.fraction) * 1000 + 0.5)
        let rounded = Double(milliseconds) / 1000
        // The last instant of 9999 stays one: rounding must not carry into the year 10000.
        return dateRange.contains(rounded) ? rounded : Double(parts.minute + parts.second) + parts.fraction
    }

    /// The Unix seconds of the minute an ISO text names (its offset taken off), its
    /// seconds and their fraction; nil when the text is no such date.
    private static func isoParts(_ b: UnsafeBufferPointer<UInt8>) -> (minute: Int, second: Int, fraction: Double)? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                let d = Int(b[k]) - 48
                guard d >= 0, d <= 9 else { return nil }
                v = v * 10 + d
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2),
            (1...12).contains(month), day >= 1
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= monthDays[month - 1] else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        if i < b.count, b[i] == 84 || b[i] == 32 { // 'T' or ' '
            i += 1
            guard let h = digits(2), expect(58), let m = digits(2), h < 24, m < 60 else { return nil }
            hour = h
            minute = m
            if expect(58) {
                guard let s = digits(2), s < 61 else { return nil }
                second = s
                if expect(46) {
                    let start = i
                    while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
                    guard i > start, let f = Double("0." + String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)) else {
                        return nil
                    }
                    fraction = f
                }
            }
        }
        var offset = 0
        if i < b.count {
            if b[i] == 90 {
                i += 1
            } // 'Z'
            else if b[i] == 43 || b[i] == 45 { // '+' or '-'
                let sign = b[i] == 45 ? -1 : 1
                i += 1
                guard let h = digits(2) else { return nil }
                // `+08:00`, ISO 8601's basic `+0800`, or the hours alone, `+08` (after a
                // time only: `2021-01-01-12` is no date).
                var m = 0
                if i < b.count || b[10] != 84 && b[10] != 32 {
                    _ = expect(58)
                    guard let minutes = digits(2) else { return nil }
                    m = minutes
                }
                offset = sign * (h * 3600 + m * 60)
            }
        }
        guard i == b.count else { return nil }
        // Days from 1970-01-01 to the date (proleptic Gregorian; Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return (days * 86400 + hour * 3600 + minute * 60 - offset, second, fraction)
    }
}
