import Foundation
import QuarryModel
import QuarryStore

/// Values between Quarry and PostgreSQL's wire format: arguments as text (a blob as
/// binary), results read by their column's type. Dates are Quarry's seconds since 1970;
/// as arguments they go as `timestamptz` text, which the server reads in any time zone.
package enum PostgresValue {
    /// An argument as libpq sends it.
    enum Parameter: Equatable {
        case none
        case text(String)
        case binary([UInt8])
    }

    static func parameter(_ value: Value) throws -> Parameter {
        switch value {
        case .null: return .none
        case .integer(let i): return .text(String(i))
        // Shortest text that reads back as the same double; the server reads Infinity as
        // float8 does. NaN is nil, as SQLite binds and stores it.
        case .real(let d) where d.isNaN: return .none
        case .real(let d): return .text(d.isInfinite ? (d < 0 ? "-Infinity" : "Infinity") : "\(d)")
        // libpq takes text as a C string: a NUL would end it early and send less.
        case .text(let s):
            guard !s.utf8.contains(0) else { throw argumentError("text containing a NUL character, which PostgreSQL's text cannot hold") }
            return .text(s)
        // The session's client encoding is UTF-8 (`PostgresConnection`), which the server
        // checks every text against, a SQL_ASCII database's too: refused here, in one line
        // with the value, rather than by the server at the first byte.
        case .textBytes(let bytes):
            throw argumentError(textBytesRefusal(bytes, "takes"))
        case .blob(let bytes):
            guard bytes.count <= Int(Int32.max) else { throw argumentError("a blob of \(bytes.count) bytes, more than libpq sends in one value") }
            return .binary(bytes)
        case .bool(let b): return .text(b ? "true" : "false")
        case .decimal(let s): return .text(s)
        case .date(let seconds):
            if let word = infinityWord(seconds) { return .text(word) }
            guard seconds.isFinite, timestampRange.contains(seconds) else {
                throw argumentError("the date \(seconds) seconds since 1970, outside PostgreSQL's 4714 BC to 294276 AD")
            }
            return .text(timestamp(seconds))
        }
    }

    /// The instants `timestamptz` holds: 4714-11-24 BC as PostgreSQL numbers years (Julian day 0) through 294276-12-31.
    package static let timestampRange: ClosedRange<Double> = -210_866_803_200...9_224_318_015_999

    /// Why PostgreSQL cannot hold `bytes` (a Lua string that is no plain text), after
    /// "the text … ": UTF-8 with a NUL byte, which a server's text cannot hold, or bytes
    /// that are not UTF-8. `verb` is what the server does with UTF-8 text ("takes", "stores").
    package static func textBytesRefusal(_ bytes: [UInt8], _ verb: String) -> String {
        let text = "the text \"\(Value.escapingInvalidUTF8(bytes))\", which "
        if String(validating: bytes, as: UTF8.self) != nil {
            return text + "holds a NUL byte, which PostgreSQL's text cannot hold"
        }
        return text + "is not UTF-8: PostgreSQL \(verb) only UTF-8 text from Quarry"
    }

    private static func argumentError(_ what: String) -> StoreError {
        .postgres(sqlState: nil, sql: nil, message: "cannot send \(what)")
    }

    /// `seconds` since 1970 (within `timestampRange`) as a `timestamptz` literal in UTC, microseconds kept. The
    /// calendar is the proleptic Gregorian one PostgreSQL uses (Foundation's Gregorian
    /// calendar turns Julian before 1582, which would move old dates by days). An
    /// infinity is the server's word for it (`infinity`).
    package static func timestamp(_ seconds: Double) -> String {
        if let word = infinityWord(seconds) { return word }
        let t = parts(seconds)
        // Year 0 is 1 BC, year -1 is 2 BC: PostgreSQL writes them so.
        let (shown, era) = t.year > 0 ? (t.year, "") : (1 - t.year, " BC")
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d.%06d+00", shown, t.month, t.day, t.second / 3600, t.second / 60 % 60,
            t.second % 60, t.micro) + era
    }

    /// A `date` as the server writes it with DateStyle ISO (`2013-01-01`, `0044-03-15 BC`):
    /// how a statement a person wrote shows a day, as psql does, not as a midnight.
    package static func day(_ seconds: Double) -> String {
        if let word = infinityWord(seconds) { return word }
        let t = parts(seconds)
        let (shown, era) = t.year > 0 ? (t.year, "") : (1 - t.year, " BC")
        return String(format: "%04d-%02d-%02d", shown, t.month, t.day) + era
    }

    /// The same text appended as bytes, without a `String` for the years 1 to 9999 (an
    /// import writes one per date cell).
    package static func appendTimestamp(_ seconds: Double, to out: inout [UInt8]) {
        let t = parts(seconds)
        guard t.year > 0, t.year < 10_000 else { return out.append(contentsOf: timestamp(seconds).utf8) }
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(48 + value / divisor % 10))
                divisor /= 10
            }
        }
        digits(t.year, 4)
        out.append(45)
        digits(t.month, 2)
        out.append(45)
        digits(t.day, 2)
        out.append(32)
        digits(t.second / 3600, 2)
        out.append(58)
        digits(t.second / 60 % 60, 2)
        out.append(58)
        digits(t.second % 60, 2)
        out.append(46)
        digits(t.micro, 6)
        out.append(43)
        out.append(48)
        out.append(48)
    }

    /// `seconds` as a day of the proleptic Gregorian calendar, the second of that day and
    /// the microsecond, rounded to microseconds as PostgreSQL keeps them.
    /// The microsecond is the one of the fewest fraction digits that read back as the same
    /// double: past the year 2255 a double holds no whole microseconds, and a date read
    /// from the server (`23:59:59.9999` of 9999) is sent back as it came, not as its
    /// double's nearest microsecond (`.999908`), which the row does not equal.
    private static func parts(_ seconds: Double) -> (year: Int, month: Int, day: Int, second: Int, micro: Int) {
        var totalSeconds = seconds.rounded(.down)
        let fraction = seconds - totalSeconds
        var micro = Int((fraction * 1_000_000).rounded())
        for digits in 0..<6 {
            let scale = pow(10, Double(digits))
            let shorter = (fraction * scale).rounded() / scale
            if totalSeconds + shorter == seconds {
                micro = Int((shorter * 1_000_000).rounded())
                break
            }
        }
        if micro == 1_000_000 {
            totalSeconds += 1
            micro = 0
        }
        let days = Int((totalSeconds / 86_400).rounded(.down))
        let second = Int(totalSeconds - Double(days) * 86_400)
        let (year, month, day) = CivilDate.fromDays(Int64(days))
        return (Int(year), Int(month), Int(day), second, micro)
    }

    /// `CivilDate.fromDays`' inverse, Howard Hinnant's `days_from_civil`.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The OIDs of the built-in types Quarry reads as more than text (pg_type.dat).
    enum TypeOID {
        package static let bool: UInt32 = 16, bytea: UInt32 = 17, int8: UInt32 = 20, int2: UInt32 = 21, int4: UInt32 = 23
        package static let oid: UInt32 = 26, float4: UInt32 = 700, float8: UInt32 = 701, numeric: UInt32 = 1700
        package static let timestamp: UInt32 = 1114, timestamptz: UInt32 = 1184, date: UInt32 = 1082
    }

    /// `bytes` as an integer when they are an optional minus and 1 to 18 ASCII digits
    /// (within Int64 whatever they are); nil for anything else, which `Int64(_:)` reads.
    static func plainInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = negative ? bytes.count - 1 : bytes.count
        guard digits >= 1, digits <= 18 else { return nil }
        var n: Int64 = 0
        for byte in bytes[(negative ? 1 : 0)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return negative ? -n : n
    }

    /// A result column's text (libpq's text format) as a value of its type.
    package static func value(_ bytes: UnsafeRawBufferPointer, type: UInt32, column: String) throws -> Value {
        // An integer read from its digits, without making its text first (each row a save
        // of 20,000 new objects reads back has its key); anything else as below.
        if type == TypeOID.int8 || type == TypeOID.int4 || type == TypeOID.int2 || type == TypeOID.oid, let i = plainInteger(bytes) {
            return .integer(i)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        func unexpected(_ expected: String) -> StoreError {
            .postgres(sqlState: nil, sql: nil, message: "column \(column): '\(text.prefix(40))' is not \(expected)")
        }
        switch type {
        case TypeOID.bool:
            return .bool(text == "t")
        case TypeOID.int2, TypeOID.int4, TypeOID.int8, TypeOID.oid:
            guard let i = Int64(text) else { throw unexpected("an integer") }
            return .integer(i)
        // numeric is exact: its text as the server writes it (scale kept: 195.10), which a
        // double would round and print otherwise.
        case TypeOID.numeric where DecimalText.isDecimal(text):
            return .decimal(text)
        case TypeOID.float4, TypeOID.float8, TypeOID.numeric:
            switch text {
            // No value of Quarry's is NaN: SQLite stores it as nil, and so it reads here.
            case "NaN": return .null
            case "Infinity": return .real(.infinity)
            case "-Infinity": return .real(-.infinity)
            default:
                guard let d = Double(text) else { throw unexpected("a number") }
                return .real(d)
            }
        case TypeOID.bytea:
            guard let bytes = hexBytes(text) else { throw unexpected("bytea in hex") }
            return .blob(bytes)
        // A day: its midnight in UTC, as the session's time zone (UTC) casts it.
        case TypeOID.date:
            if let infinite = infinity(text) { return infinite }
            let midnight = text.hasSuffix(" BC") ? text.dropLast(3) + " 00:00:00 BC" : text + " 00:00:00"
            guard let seconds = seconds(midnight) else { throw unexpected("a date") }
            return .date(seconds)
        case TypeOID.timestamptz, TypeOID.timestamp:
            if let infinite = infinity(text) { return infinite }
            guard let seconds = seconds(text) else { throw unexpected("a timestamp") }
            return .date(seconds)
        // A SQL_ASCII database hands back text as it was stored, whatever its bytes: kept
        // as they are, as a SQLite file's are.
        default:
            return Value(storedText: [UInt8](bytes))
        }
    }

    /// 'infinity' and '-infinity' (of a date or timestamp, or a count of other units
    /// past the dates `timestamptz` holds, which `PostgreSQLDialect+NumberTimes` reads
    /// so) as the date of infinite seconds: it orders after (before) every date in
    /// memory as the server orders it, prints as the server writes it, and is sent back
    /// as the same word (`parameter`). Nil for any other text.
    static func infinity(_ text: String) -> Value? {
        switch text {
        case "infinity": return .date(.infinity)
        case "-infinity": return .date(-.infinity)
        default: return nil
        }
    }

    /// The server's word for an infinite date (`infinity`); nil for a finite one.
    static func infinityWord(_ seconds: Double) -> String? {
        guard seconds.isInfinite else { return nil }
        return seconds < 0 ? "-infinity" : "infinity"
    }

    /// bytea's hex output (`\x0102ff`), the server's default since 9.0.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2 - 1)
        var i = 2
        while i < utf8.count {
            guard let high = nibble(utf8[i]), let low = nibble(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        return bytes
    }

    /// A timestamp as the server writes it with DateStyle ISO (`2021-01-01 00:00:00.25+00`,
    /// or without an offset for `timestamp`, read as UTC) in seconds since 1970.
    package static func seconds(_ text: String) -> Double? {
        var text = text
        if let common = text.withUTF8({ commonSeconds($0) }) { return common }
        var body = Substring(text)
        var bc = false
        if body.hasSuffix(" BC") {
            bc = true
            body = body.dropLast(3)
        }
        // The offset: +HH, +HH:MM or +HH:MM:SS after the time.
        var offset = 0.0
        if let sign = body.lastIndex(where: { $0 == "+" || $0 == "-" }), let space = body.firstIndex(of: " "), sign > space {
            let parts = body[body.index(after: sign)...].split(separator: ":").map { Double($0) }
            guard !parts.contains(where: { $0 == nil }), !parts.isEmpty else { return nil }
            let values = parts.compactMap { $0 }
            offset = values.enumerated().reduce(0) { $0 + $1.element * [3600, 60, 1][min($1.offset, 2)] }
            if body[sign] == "-" { offset = -offset }
            body = body[..<sign]
        }
        guard (-86_400...86_400).contains(offset) else { return nil }
        let halves = body.split(separator: " ")
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: "-").compactMap { Int($0) }
        let time = halves[1].split(separator: ":")
        // Fields in their ranges, so no arithmetic below can overflow; the seconds are
        // digits (Double() would also take "nan" and "inf").
        guard day.count == 3, (0...300_000).contains(day[0]), (1...12).contains(day[1]), (1...31).contains(day[2]),
            time.count == 3, let hour = Int(time[0]), (0...24).contains(hour), let minute = Int(time[1]), (0...59).contains(minute),
            time[2].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let second = Double(time[2]), second < 61
        else { return nil }
        let year = bc ? 1 - day[0] : day[0]
        let dayCount = Double(days(year: year, month: day[1], day: day[2]))
        return dayCount * 86_400 + Double(hour * 3600 + minute * 60) + second - offset
    }

    /// `seconds` of the shape the server writes for years 1000 to 9999 AD,
    /// `2021-01-01 00:00:00[.25][+00[:00[:00]]]`, read on its bytes (a table of timestamps
    /// reads one per cell); nil for any other shape, which `seconds` reads field by field
    /// to the same value.
    private static func commonSeconds(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for c in b[start..<start + count] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        func isByte(_ at: Int, _ c: Unicode.Scalar) -> Bool { at < b.count && b[at] == UInt8(ascii: c) }
        guard let year = digits(0, 4), year >= 1000, isByte(4, "-"), let month = digits(5, 2), (1...12).contains(month), isByte(7, "-"),
            let day = digits(8, 2), (1...31).contains(day), isByte(10, " "), let hour = digits(11, 2), hour <= 24, isByte(13, ":"),
            let minute = digits(14, 2), minute <= 59, isByte(16, ":"), digits(17, 2) != nil
        else { return nil }
        var end = 19
        if isByte(end, ".") {
            end += 1
            let first = end
            while end < b.count, b[end] >= 48 && b[end] <= 57 { end += 1 }
            guard end > first else { return nil }
        }
        guard let second = Double(String(decoding: b[17..<end], as: UTF8.self)), second < 61 else { return nil }
        var offset = 0
        if end < b.count {
            guard isByte(end, "+") || isByte(end, "-"), let hours = digits(end + 1, 2) else { return nil }
            offset = hours * 3600
            var at = end + 3
            for scale in [60, 1] where at < b.count {
                guard isByte(at, ":"), let part = digits(at + 1, 2) else { return nil }
                offset += part * scale
                at += 3
            }
            guard at == b.count, offset <= 86_400 else { return nil }
            if isByte(end, "-") { offset = -offset }
        }
        let dayCount = Double(days(year: year, month: month, day: day))
        return dayCount * 86_400 + Double(hour * 3600 + minute * 60) + second - Double(offset)
    }
}
