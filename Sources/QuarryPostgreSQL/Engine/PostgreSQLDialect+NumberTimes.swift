import QuarryEngine
import QuarryStore

/// A number column that `format()` declared to hold times, read as a `timestamptz`: the
/// type the server's date parameters, sorts, groups and statistics already meet, so the
/// column is a date in every statement as a `timestamptz` column is.
extension PostgreSQLDialect {
    /// The seconds since 1970 as SQLite's dialect computes them (`SQLiteDialect.seconds`) (an
    /// integer count past 2^53 divided as integers, its remainder added as a fraction),
    /// made a `timestamptz` (to the microsecond, as the server keeps one). A count past
    /// the dates a `timestamptz` holds reads as infinity rather than failing every read
    /// of the table: the row is still read, and the stored number is left as it is.
    public func numberTime(_ scale: EntityStorage.NumericDateScale, integerColumn: Bool) -> SQLTemplate? {
        let c = "(⟨0⟩)"
        let seconds: String
        switch scale.unit {
        case .julianDay: seconds = "(round((\(c)::float8 - 2440587.5) * 86400000.0) / 1000.0)"
        case .count(1, let epoch): seconds = "(\(c)::float8 + \(epoch))"
        case .count(let n, let epoch) where integerColumn: seconds = "((\(c) / \(n) + \(epoch))::float8 + (\(c) % \(n))::float8 / \(n))"
        case .count(let n, let epoch): seconds = "(\(c)::float8 / \(n) + \(epoch))"
        }
        let range = PostgresValue.timestampRange
        let time =
            "(CASE WHEN \(seconds) < \(Int64(range.lowerBound)) THEN '-infinity'::timestamptz "
            + "WHEN \(seconds) > \(Int64(range.upperBound)) THEN 'infinity'::timestamptz ELSE to_timestamp(\(seconds)) END)"
        guard let never = scale.never else { return SQLTemplate(time) }
        return SQLTemplate("(CASE WHEN \(c) = \(never) THEN NULL ELSE \(time) END)")
    }
}
