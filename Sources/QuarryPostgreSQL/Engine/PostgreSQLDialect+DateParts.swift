import QuarryEngine
import QuarryModel
import QuarryStore

/// A date's parts on the server, from its `timestamptz` (a `timestamp` or `date` column
/// cast to one in the session's zone, UTC, as Quarry reads it) read in UTC whatever the
/// session's zone, as `DatePart` reads them: nil outside the years 0001 to 9999.
extension PostgreSQLDialect {
    /// A date's part, or its seconds since 1970 (`SQLDialect.function`); nil for any
    /// other name.
    func dateFunction(_ name: String) -> SQLTemplate? {
        // A `timestamptz` minus another is an interval: seconds are subtracted instead.
        if name == "seconds" { return SQLTemplate("extract(epoch from (⟨0⟩)::timestamptz)::float8") }
        return DatePart(rawValue: name).map(datePart)
    }

    func datePart(_ part: DatePart) -> SQLTemplate {
        let utc = "((⟨0⟩)::timestamptz AT TIME ZONE 'UTC')"
        let value: String
        switch part {
        // EXTRACT's DOW counts from 0 for Sunday; Foundation's Calendar from 1.
        case .weekday: value = "(extract(dow from \(utc))::bigint + 1)"
        case .date: value = "(date_trunc('day', \(utc)) AT TIME ZONE 'UTC')"
        default: value = "extract(\(part.rawValue) from \(utc))::bigint"
        }
        return SQLTemplate(
            "(CASE WHEN \(utc) BETWEEN '0001-01-01 00:00:00'::timestamp AND '9999-12-31 23:59:59.999999'::timestamp THEN \(value) END)")
    }
}
