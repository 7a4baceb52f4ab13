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
            // A BLOB is no date (nil), as in memory.
            // Text in the common forms read in C (`quarry_iso_seconds`: the same double,
            // NULL for any other value), before any test of the cell's type; the rest of
            // the text through julianday().
            return "coalesce(quarry_iso_seconds(\(column)), "
                + "(CASE WHEN typeof(\(column)) = 'text' THEN round((julianday(\(Self.colonOffset(column))) - 2440587.5) * 86400000.0) / 1000.0 "
                + "WHEN typeof(\(column)) = 'blob' THEN NULL ELSE \(number) END))"
        case .looseDatePresence(let scale):
            return "coalesce(\(converted(column, .looseDate(scale))), CASE WHEN typeof(\(column)) = 'text' THEN \(column) END)"
        case .numbersAsDate(let scale):
            return "(CASE WHEN typeof(\(column)) IN ('integer', 'real') THEN \(Self.seconds(column, scale)) ELSE \(column) END)"
        case .numbersOnly: return "(CASE WHEN typeof(\(column)) IN ('integer', 'real') THEN \(column) END)"
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

    /// ISO text whose offset is in ISO 8601's basic form, `+HHMM` or `+HH` (Trilium
    /// writes `2022-07-21 20:28:54.735+0800`), as `+HH:MM`, the one form SQLite's
    /// `julianday()` reads; `Value.parseISO8601` reads all three alike. Only text with a
    /// time (a colon) before the sign: `2024-01-22` ends in `-22` too.
    ///
    /// ISO 8601's basic form, `20180903` (GTFS) or `20180903T141500` with an optional `Z`,
    /// as the extended form `julianday()` reads (it takes eight digits for a Julian day
    /// number), as `Value.parseISO8601Basic` reads it in memory.
    ///
    /// Any other text not starting with a day (`YYYY-MM-DD`) is no date, as in memory:
    /// `julianday()` reads a number kept as text (a year alone, `2013`, as Spotify writes
    /// it) as a Julian day number, 4707 BC, and a time alone (`12:30`) as a time on
    /// 2000-01-01.
    static func colonOffset(_ column: String) -> String {
        let date = "substr(\(column), 1, 4) || '-' || substr(\(column), 5, 2) || '-' || substr(\(column), 7, 2)"
        let time = "'T' || substr(\(column), 10, 2) || ':' || substr(\(column), 12, 2) || ':' || substr(\(column), 14, 2)"
        let (days, clock) = (String(repeating: "[0-9]", count: 8), String(repeating: "[0-9]", count: 6))
        // The extended form most files hold is tested first, and an offset's pattern (a
        // leading `*`, tried at every position) only on text ending as one: six GLOBs a
        // cell before, each a scan, made a count over 336,776 ISO cells 5x julianday()'s.
        return "(CASE WHEN \(column) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN (CASE "
            + "WHEN substr(\(column), -5) GLOB '[+-][0-9][0-9][0-9][0-9]' AND \(column) GLOB '*:[0-9][0-9]*[+-][0-9][0-9][0-9][0-9]' "
            + "THEN substr(\(column), 1, length(\(column)) - 2) || ':' || substr(\(column), -2) "
            + "WHEN substr(\(column), -3) GLOB '[+-][0-9][0-9]' AND \(column) GLOB '*:[0-9][0-9]*[+-][0-9][0-9]' THEN \(column) || ':00' "
            + "ELSE \(column) END) "
            + "WHEN \(column) GLOB '\(days)' THEN \(date) "
            + "WHEN \(column) GLOB '\(days)T\(clock)' OR \(column) GLOB '\(days)T\(clock)Z' THEN \(date) || \(time) || substr(\(column), 16) "
            + "ELSE NULL END)"
    }
}
