import QuarryEngine
import QuarryModel

/// How SQLite reads a column whose values are not yet the attribute's: a SQLite file's
/// column keeps any value, so booleans kept as text and dates kept as ISO text, as
/// numbers of other units or as blobs are told apart by `typeof`, as Quarry reads them in
/// memory. The casts a server's types need do not arise in a SQLite file; they are
/// answered in standard SQL.
extension SQLiteDialect {
    public var columnsHoldTheirTypes: Bool { false }

    public func converted(_ column: String, _ conversion: ColumnConversion) -> String {
        switch conversion {
        case .text: return "CAST(\(column) AS TEXT)"
        case .uuidText: return "upper(CAST(\(column) AS TEXT))"
        case .number: return "CAST(\(column) AS NUMERIC)"
        // No interval or day type: a number of seconds, or a date, is read as it is.
        case .intervalSeconds, .dayInstant: return column
        case .looseBoolean:
            let cases = booleanTexts.keys.sorted().map { "WHEN '\($0)' THEN \(booleanTexts[$0] == true ? 1 : 0)" }.joined(separator: " ")
            // Any number but 0 is true, as in memory (a file may keep true as -1 or 2).
            return "(CASE typeof(\(column)) WHEN 'text' THEN (CASE lower(\(column)) \(cases) ELSE \(column) END) "
                + "WHEN 'integer' THEN (\(column) <> 0) WHEN 'real' THEN (\(column) <> 0) ELSE \(column) END)"
        case .looseDate(let scale):
            let number = scale.map { Self.seconds(column, $0) } ?? column
            // A number by its scale; text read in C exactly as memory reads it
            // (`quarry_iso_seconds`: NULL for text that is no date); a BLOB is no date (nil),
            // as in memory. Told apart by SQLite's order (every number before every text,
            // every text before every blob), not by `typeof`, whose text result cost more
            // than the rest of a histogram of a Unix-time column (trial 22).
            return "(CASE WHEN \(column) < '' THEN \(number) WHEN \(column) < x'' THEN \(SQLFunctions.isoSeconds)(\(column)) END)"
        case .looseDatePresence(let scale):
            return "coalesce(\(converted(column, .looseDate(scale))), CASE WHEN \(column) >= '' AND \(column) < x'' THEN \(column) END)"
        case .numbersAsDate(let scale):
            return "(CASE WHEN typeof(\(column)) IN ('integer', 'real') THEN \(Self.seconds(column, scale)) ELSE \(column) END)"
        case .numbersOnly: return "(CASE WHEN \(column) < '' THEN \(column) END)"
        }
    }

    /// SQL reading the number `column` as Unix seconds, as `scale` keeps dates: to the
    /// millisecond for Julian days; for a count, its whole seconds by integer division
    /// (exact, and no overflow, for any 64-bit count) plus the remaining units' fraction,
    /// as `NumericDateScale.seconds(_:)` computes it in memory.
    static func seconds(_ column: String, _ scale: NumericDateScale) -> String {
        let seconds: String
        switch scale.unit {
        case .julianDay: seconds = "(round((\(column) - 2440587.5) * 86400000.0) / 1000.0)"
        case .count(1, 0): seconds = column
        case .count(1, let epoch): seconds = "(\(column) + \(epoch))"
        case .count(let n, let epoch) where !NumericDateScale.dividesAsIntegers(perSecond: n, epoch: epoch):
            seconds = "(\(column) / \(n).0)"
        case .count(let n, let epoch):
            // A real count: the epoch's units taken off first, exactly for doubles of
            // one magnitude, and only then divided.
            seconds =
                "(CASE WHEN typeof(\(column)) = 'integer' THEN (\(column) / \(n) + \(epoch)) + (\(column) % \(n)) / \(n).0 "
                + "ELSE (\(column) + \(epoch * n).0) / \(n).0 END)"
        }
        guard let never = scale.never else { return seconds }
        return "(CASE WHEN \(column) = \(never) THEN NULL ELSE \(seconds) END)"
    }
}
