import QuarryEngine
import QuarryModel

/// How PostgreSQL reads a column of a type Quarry reads as another (`ColumnConversion`):
/// through a cast. Its columns hold their types, so a boolean or a date is read as
/// stored, and a number column of dates as the server's own date type where it has one
/// (`numberTime`).
extension PostgreSQLDialect {
    public func converted(_ column: String, _ conversion: ColumnConversion) -> String {
        switch conversion {
        case .text: return "(\(column))::text"
        case .uuidText: return "upper((\(column))::text)"
        case .number: return "(\(column))::numeric"
        // As the server compares intervals (a month is 30 days, a day 24 hours):
        // `extract(epoch ...)` counts a year as 365.25 days, so each year's 5.25 days
        // more than twelve months of 30 are taken off (`'1 year' < '364 days'` holds in
        // psql, and so here). A float8, as a double attribute's column is.
        case .intervalSeconds: return "(extract(epoch from \(column)) - extract(year from \(column)) * 453600)::float8"
        // A parameter beside a bare `date` would be read as a day, its time dropped.
        case .dayInstant: return "(\(column))::timestamptz"
        case .looseBoolean: return column
        case .looseDate(let scale), .looseDatePresence(let scale): return scale?.typed?.filled(column) ?? column
        case .numbersAsDate(let scale): return (scale.typed ?? numberTime(scale, integerColumn: false))?.filled(column) ?? column
        // A typed column of numbers holds nothing else.
        case .numbersOnly: return column
        }
    }
}
