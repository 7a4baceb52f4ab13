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
        let value: String
        switch part {
        case .year: value = "CAST(strftime('%Y', \(whole), 'unixepoch') AS INTEGER)"
        case .month: value = "CAST(strftime('%m', \(whole), 'unixepoch') AS INTEGER)"
        case .day: value = "CAST(strftime('%d', \(whole), 'unixepoch') AS INTEGER)"
        case .hour: value = "CAST(strftime('%H', \(whole), 'unixepoch') AS INTEGER)"
        // strftime's %w counts from 0 for Sunday; Foundation's Calendar from 1.
        case .weekday: value = "(CAST(strftime('%w', \(whole), 'unixepoch') AS INTEGER) + 1)"
        case .date: value = "CAST(strftime('%s', \(whole), 'unixepoch', 'start of day') AS INTEGER)"
        }
        let range = DatePart.seconds
        return SQLTemplate("(CASE WHEN ⟨0⟩ >= \(range.lowerBound) AND ⟨0⟩ < \(range.upperBound + 1) THEN \(value) END)")
    }
}
