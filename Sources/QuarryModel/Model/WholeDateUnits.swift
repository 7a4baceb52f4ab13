/// Dates kept as a whole number of units since 1970 (a foreign file's column of Unix
/// seconds or milliseconds): rounded to the nearest unit, but never out of the years
/// Quarry reads (`Value.dateRange`, 0001 to 9999).
///
/// Issue 61, item 6: 9999-12-31T23:59:59.999Z in whole seconds rounds to 253402300800,
/// 10000-01-01, which no reader takes for a date; written so, the row read back as "date
/// out of range". Such a date is refused (nil), as an ISO text layout refuses it
/// (`ColumnFormat.ISOLayout.text`), so the writer can say so in one line before writing.
public enum WholeDateUnits {
    /// `seconds` since 1970 as a whole number of `unitsPerSecond` (1 for seconds, 1,000
    /// for milliseconds), rounded to the nearest. Nil when a date within the years 0001 to
    /// 9999 would round out of them, or when the count is no 64-bit integer (NaN, an
    /// infinity, or past 2^63). A date already outside those years is counted as it is.
    public static func count(_ seconds: Double, unitsPerSecond: Double) -> Int64? {
        let units = (seconds * unitsPerSecond).rounded()
        if Value.dateRange.contains(seconds), !Value.dateRange.contains(units / unitsPerSecond) { return nil }
        return Int64(exactly: units)
    }
}
