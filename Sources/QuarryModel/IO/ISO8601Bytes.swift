/// Dates written as ISO 8601 bytes for exports. A whole second (every imported
/// timestamp, most stored ones) is written from its day number by arithmetic: formatting
/// through `String(format:)` cost more than a microsecond a date, as long as SQLite takes
/// to read the row. Anything else goes through `Value.exactISO8601`, which keeps as many
/// fractional digits as reading back exactly needs.
enum ISO8601Bytes {
    package static func append(_ seconds: Double, into out: inout [UInt8]) {
        guard seconds == seconds.rounded(), Value.dateRange.contains(seconds) else {
            out.append(contentsOf: Value.exactISO8601(seconds).utf8)
            return
        }
        let whole = Int64(seconds)
        var days = whole / 86_400
        var rest = whole % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        // Howard Hinnant's civil_from_days: the proleptic Gregorian date of a day number.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int64) {
            out.append(UInt8(48 + n / 10))
            out.append(UInt8(48 + n % 10))
        }
        two(year / 100)
        two(year % 100)
        out.append(45)
        two(month)
        out.append(45)
        two(day)
        out.append(84)
        two(rest / 3600)
        out.append(58)
        two(rest / 60 % 60)
        out.append(58)
        two(rest % 60)
        out.append(90)
    }
}
