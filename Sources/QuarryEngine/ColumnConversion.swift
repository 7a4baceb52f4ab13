/// What a read of a column must convert, where the value stored is not yet the value the
/// attribute reads or compares: said by the layout that knows the column
/// (`EntityStorage`), spelled by the engine's dialect (`SQLReads.converted`), so no SQL
/// of one engine is written outside it.
public enum ColumnConversion: Equatable, Sendable {
    /// A column of a type of the engine's own (a server's `date`, `json`, an enum,
    /// `char(n)` without its padding) read and compared as its text.
    case text
    /// A uuid column read as Quarry writes a UUID: its text, upper-case.
    case uuidText
    /// A column of another number type (`money`) read as the exact number it holds.
    case number
    /// An interval read as its seconds, as the engine compares intervals.
    case intervalSeconds
    /// A column of days compared with an instant as its midnight (UTC, the session's zone).
    case dayInstant
    /// A boolean column of a database whose columns keep any value: texts that read as
    /// booleans (`booleanTexts`) and numbers compared as 1 and 0 (any number but 0 true),
    /// anything else as stored.
    case looseBoolean
    /// A date column of a database whose columns keep any value: ISO 8601 text read as
    /// Unix seconds (to the millisecond), a number as `scale` reads it (Unix seconds when
    /// none), a blob as no date.
    case looseDate(NumericDateScale?)
    /// `looseDate` where it reads a date, else text as stored: text that reads as no date
    /// (`2025-05-2025`) is a value, not nil, as the object holds it in memory, to a test
    /// for nil and to summarize (which counts it as text).
    case looseDatePresence(NumericDateScale?)
    /// A number column of dates (`scale`) read as Unix seconds where it holds a number,
    /// anything else as stored.
    case numbersAsDate(NumericDateScale)
    /// A number or date column (as statistics read it) of a database whose columns keep
    /// any value: its numbers, nil for anything else (a SQLite file's INTEGER column may
    /// hold '' or 'n/a'), which is no number to a mean, an extreme or a quartile.
    case numbersOnly
}
