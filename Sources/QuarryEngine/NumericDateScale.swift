import QuarryModel

/// How a date column keeps its dates as numbers, when not as plain Unix seconds: a
/// count of units since an epoch (Unix milliseconds, Apple's seconds since 2001,
/// Chrome's microseconds since 1601), or Julian days; and the number that means
/// "never" (Chrome's 0), which reads as nil. A column's, as the engine's dialect reads
/// it (`SQLComputations.numberTime`); `EntityStorage.numericDates` keeps them by column.
public struct NumericDateScale: Equatable, Sendable {
    public enum Unit: Equatable, Sendable {
        /// `perSecond` units a second, counted from `epoch` (in Unix seconds).
        case count(perSecond: Int64, epoch: Int64)
        /// Julian days, as SQLite's `julianday()` gives them.
        case julianDay
    }
    public var unit: Unit
    /// The stored number that means no date.
    public var never: Int64?
    /// The engine's SQL reading the column as its own date type (`SQLDialect.numberTime`:
    /// a server's `timestamptz`), which every read and comparison says instead of a count's seconds.
    public var typed: SQLTemplate?
    /// Whether the column holds whole counts (an integer column): a comparison with a
    /// date may then also bound the raw column (`NumberTimeRange`), which its index serves.
    public var wholeCounts = false

    public init(_ unit: Unit, never: Int64? = nil) {
        self.unit = unit
        self.never = never
    }

    public static let unixSeconds = NumericDateScale(.count(perSecond: 1, epoch: 0))
    public static let milliseconds = NumericDateScale(.count(perSecond: 1000, epoch: 0))
    public static let julianDay = NumericDateScale(.julianDay)

    /// Counts of more units than this are past 2^53 for today's dates (Chrome's 1.3e16
    /// microseconds), so no double holds them exactly: SQL divides them as integers.
    static let exactAsDouble: Int64 = 1_000_000

    /// Whether a count is read by integer division, its whole seconds and the rest's
    /// fraction apart: when it has more units than a double holds for today's dates,
    /// or when units are counted from another epoch (Chrome's 1.3e16 microseconds since
    /// 1601 divided first are 1.3e10 seconds, a double too coarse there by 2 µs).
    package static func dividesAsIntegers(perSecond n: Int64, epoch: Int64) -> Bool {
        n > exactAsDouble || (n > 1 && epoch != 0)
    }

    /// The real `value` as Unix seconds, as SQLite's dialect computes it in SQL (`ColumnConversion.numbersAsDate`); nil for "never".
    public func seconds(_ value: Double) -> Double? {
        if let never, value == Double(never) { return nil }
        switch unit {
        case .julianDay: return ((value - 2_440_587.5) * 86_400_000.0).rounded() / 1000.0
        case .count(1, let epoch): return value + Double(epoch)
        case .count(let n, let epoch) where Self.dividesAsIntegers(perSecond: n, epoch: epoch):
            return (value + Double(epoch * n)) / Double(n)
        case .count(let n, _): return value / Double(n)
        }
    }

    /// The integer `value` as Unix seconds, operation for operation as SQLite's
    /// dialect computes it in SQL, so a value written reads back as the row reads; nil for "never".
    public func seconds(_ value: Int64) -> Double? {
        if value == never { return nil }
        switch unit {
        case .count(let n, let epoch) where Self.dividesAsIntegers(perSecond: n, epoch: epoch):
            return Double(value / n + epoch) + Double(value % n) / Double(n)
        default: return seconds(Double(value))
        }
    }

    /// Why `count` gave nil for `value`, after "keeps dates as <format>, which ": one
    /// wording for every engine. A date past what a 64-bit count of the unit holds
    /// (nanoseconds: 1677-09-21 to 2262-04-11) says those bounds; one the unit rounds out
    /// of the years 0001 to 9999 says so.
    public func countRefusal(_ value: Value) -> String {
        guard case .date(let seconds) = value, Value.dateRange.contains(seconds) else {
            return "counts \(value.displayString) past a 64-bit integer"
        }
        if case .count(let n, let epoch) = unit {
            let first = Double(epoch) + Double(Int64.min / n)
            let last = Double(epoch) + Double(Int64.max / n)
            if seconds < first || seconds > last {
                let day = { (s: Double) in String(Value.iso8601(s).prefix(10)) }
                return "holds only the dates from \(day(max(first, Value.dateRange.lowerBound))) to \(day(min(last, Value.dateRange.upperBound))) "
                    + "in its 64-bit count: \(value.displayString) is past them"
            }
        }
        return "rounds \(value.displayString) into the year 10000, past the dates any reader takes"
    }

    /// `seconds` (Unix) as a whole count of units, rounded to the nearest unit: the
    /// whole seconds and their fraction counted apart, so that a count past 2^53
    /// (nanoseconds) is exact to what the date holds. Nil when the count is no 64-bit
    /// integer, or for Julian days.
    public func count(_ seconds: Double) -> Int64? {
        guard case .count(let n, let epoch) = unit, seconds.isFinite else { return nil }
        let whole = seconds.rounded(.down)
        guard let wholeSeconds = Int64(exactly: whole) else { return nil }
        let fraction = Int64(((seconds - whole) * Double(n)).rounded())
        let (since, o1) = wholeSeconds.subtractingReportingOverflow(epoch)
        let (units, o2) = since.multipliedReportingOverflow(by: n)
        let (total, o3) = units.addingReportingOverflow(fraction)
        guard !(o1 || o2 || o3) else { return nil }
        // A date in the years 0001 to 9999 that the unit rounds out of them (cocoa's
        // whole seconds: 9999-12-31T23:59:59.999Z is 10000-01-01) is refused, as
        // `WholeDateUnits` refuses it for Unix counts (issue 81).
        let back = Double(epoch) + Double(total) / Double(n)
        if Value.dateRange.contains(seconds), !Value.dateRange.contains(back) { return nil }
        return total
    }
}
