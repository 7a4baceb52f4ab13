/// A part of a date that a key path names after a date attribute (`start.year`,
/// `time_hour.date`), in UTC, as `tostring` shows dates and Lua's `d.year` reads them.
/// Weekdays are numbered as Foundation's `Calendar` numbers them: 1 is Sunday, 7 Saturday.
/// A part reads the date's whole second (rounded down), so 23:59:59.9999 is still that day,
/// as `Calendar` and Lua's `d.day` read it; a date outside the years 0001 to 9999 has no
/// parts (nil). The SQL of each store computes the same (`SQLDialect.datePart`).
public enum DatePart: String, CaseIterable, Sendable {
    case year, month, day, hour, weekday
    /// The day, as a date: its midnight, UTC.
    case date

    /// The type of its values.
    public var type: AttributeType { self == .date ? .date : .int64 }

    /// The first and last whole seconds (since 1970) whose parts are read: 0001-01-01 and
    /// 9999-12-31T23:59:59, as SQL reads them too (SQLite's calendar before year 1 is not
    /// the proleptic Gregorian one Swift's is).
    public static let seconds: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// The part of `value` (a date; nil for anything else).
    public func value(of value: Value) -> Value {
        guard case .date(let seconds) = value else { return .null }
        return self.value(ofSeconds: seconds)
    }

    /// The part of the date `seconds` after 1970-01-01T00:00:00Z.
    public func value(ofSeconds seconds: Double) -> Value {
        // Compared as a double first: NaN and infinities fail, and no conversion traps.
        guard seconds >= Double(Self.seconds.lowerBound), seconds < Double(Self.seconds.upperBound) + 1 else { return .null }
        let whole = Int64(seconds.rounded(.down))
        var days = whole / 86_400
        var rest = whole % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        switch self {
        case .date: return .date(Double(days * 86_400))
        case .hour: return .integer(rest / 3600)
        // 1970-01-01 was a Thursday, day 5 when Sunday is 1.
        case .weekday: return .integer(((days % 7 + 7) % 7 + 4) % 7 + 1)
        default: break
        }
        let (year, month, day) = CivilDate.fromDays(days)
        switch self {
        case .month: return .integer(month)
        case .day: return .integer(day)
        default: return .integer(year)
        }
    }
}
