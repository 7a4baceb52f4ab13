import QuarryEngine
import QuarryModel
import QuarryStore

/// A date's parts in SQLite, where a date compares as seconds since 1970
/// (`EntityStorage.comparable`): `strftime` of its whole second (rounded down, as
/// `DatePart` reads it: `strftime` alone would round 23:59:59.9999 to the next day), nil
/// outside the years 0001 to 9999 (SQLite's calendar differs from Swift's before year 1).
extension SQLiteDialect {
    /// Date parts and seconds (`SQLDialect.function`); the other functions are
    /// `quarry_fn`'s.
    public func function(_ name: String, integer: Bool) -> SQLTemplate? {
        // Dates compare as seconds since 1970 already.
        if name == "seconds" { return SQLTemplate("⟨0⟩") }
        return DatePart(rawValue: name).map(datePart)
    }

    func datePart(_ part: DatePart) -> SQLTemplate {
        let whole = "(CAST(⟨0⟩ AS INTEGER) - (⟨0⟩ < CAST(⟨0⟩ AS INTEGER)))"
        let strftime = { (format: String, modifier: String) in "CAST(strftime('\(format)', \(whole), 'unixepoch'\(modifier)) AS INTEGER)" }
        let value: String
        switch part {
        case .year: value = strftime("%Y", "")
        case .month: value = strftime("%m", "")
        case .day: value = strftime("%d", "")
        case .hour: value = strftime("%H", "")
        // strftime's %w counts from 0 for Sunday; Foundation's Calendar from 1.
        case .weekday: value = "(\(strftime("%w", "")) + 1)"
        case .date: value = strftime("%s", ", 'start of day'")
        }
        let range = DatePart.seconds
        return SQLTemplate("(CASE WHEN ⟨0⟩ >= \(range.lowerBound) AND ⟨0⟩ < \(range.upperBound + 1) THEN \(value) END)")
    }
}
