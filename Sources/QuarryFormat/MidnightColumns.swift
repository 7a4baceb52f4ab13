import QuarryModel

/// A date column whose every value shown is midnight UTC holds days (a CSV's `2003-07-01`
/// imported as a date): a table shows them as their days, as a file's column of days
/// shows (`DayAttributes`), not as `2003-07-01T00:00:00Z` cut to the column's width.
/// Decided over the rows a table shows, as pandas shows a column of midnights as dates;
/// one value with a time of day keeps the whole column as instants. The values stay
/// dates (Lua, comparisons, exports).
public enum MidnightColumns {
    /// `rows` with the cells of each of `columns` shown as days, where every value of the
    /// column is a date at midnight UTC (nil aside) and at least one is.
    public static func shownAsDays(_ rows: [[Value]], columns: [Int]) -> [[Value]] {
        let days = columns.filter { column in
            var seen = false
            for row in rows where column < row.count {
                switch row[column] {
                case .null: continue
                case .date(let seconds) where Value.dayText(seconds) != nil: seen = true
                default: return false
                }
            }
            return seen
        }
        guard !days.isEmpty else { return rows }
        return rows.map { row in
            var row = row
            for column in days where column < row.count { row[column] = row[column].shownAsDay() }
            return row
        }
    }
}
