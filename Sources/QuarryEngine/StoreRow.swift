import QuarryModel

/// The row a statement is on, lent to the body of a read for the time of one step
/// (`StoreConnection.forEachRow`): it reads the statement's columns in place, so walking
/// a million rows makes no array or object per row. It is valid only inside that body;
/// kept past it, it would read whatever row the statement is on by then.
/// Reads past the last column give NULL (SQLite's answer), never a crash.
public struct StoreRow {
    package let statement: any RowCursor

    package init(statement: any RowCursor) { self.statement = statement }

    /// How many columns the row has.
    public var count: Int { statement.columnCount }

    public func isNull(at index: Int) -> Bool { statement.type(Int32(truncatingIfNeeded: index)) == .null }

    /// The value at `index` by its storage class, as the engine reads one to keep it
    /// (`Value(rowText:)` for text; a blob copied), so reads agree whichever way they go.
    public func value(at index: Int) -> Value { statement.value(Int32(truncatingIfNeeded: index)) }

    /// The value at `index` as SQLite converts it to an integer (NULL is 0, text is read
    /// as a number): the cheap read of a column known to hold integers, such as a key.
    public func int64(at index: Int) -> Int64 { statement.int64(Int32(truncatingIfNeeded: index)) }

    /// The value at `index` as SQLite converts it to a real number.
    public func double(at index: Int) -> Double { statement.double(Int32(truncatingIfNeeded: index)) }

    /// An integer a file holds where Quarry expects one (a key, a count): a real number is
    /// taken when it converts, as GRDB took it; anything else is an error naming the table
    /// and column, never a crash.
    public func storedInt64(at index: Int, table: String, column: String) throws -> Int64 {
        guard index >= 0, index < count else { throw StoreError.missingColumn(table: table, column: column) }
        return try value(at: index).storedInteger(table: table, column: column)
    }

    /// The bytes of the row's text and blobs, counted before any is copied (see
    /// `RowCursor.valueBytes`): a caller with a budget refuses a huge row before it holds it.
    public var valueBytes: Int { statement.valueBytes }
}

extension Value {
    /// The integer a stored value gives: an integer, or a real number within range
    /// rounded toward zero, as GRDB converted one; nil for anything else.
    public var storedInteger: Int64? {
        switch self {
        case .integer(let integer): return integer
        case .real(let real):
            // NaN fails both tests.
            guard real >= Double(Int64.min), real < Double(Int64.max) else { return nil }
            return Int64(real)
        case .decimal(let text):
            guard let real = Double(text), real >= Double(Int64.min), real < Double(Int64.max) else { return nil }
            return Int64(real)
        default: return nil
        }
    }

    /// The real number a stored value gives: a real number, or an integer converted, as
    /// GRDB converted one; nil for NULL, text and blobs.
    public var storedReal: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        case .decimal(let text): return Double(text)
        default: return nil
        }
    }

    /// `storedInteger`, or an error naming where the value is stored.
    package func storedInteger(table: String, column: String) throws -> Int64 {
        if let integer = storedInteger { return integer }
        throw StoreError.unexpectedValue(table: table, column: column, found: storageDescription, expected: "an integer")
    }

    /// The storage class a stored value has, as a message names it.
    public var storageDescription: String {
        switch self {
        case .null: return "NULL"
        case .integer, .bool: return "an integer"
        case .real, .date: return "a real number"
        case .text, .textBytes: return "text"
        case .blob: return "a blob"
        case .decimal: return "a decimal"
        }
    }
}
