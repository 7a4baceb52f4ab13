import Foundation
import QuarryModel

/// A row as the context keeps it (an object's row, rows read ahead, a row compared with
/// an object's snapshot), whichever engine read it: Quarry's values in the five storage
/// classes of `CellType`, compared and hashed as SQLite compares what a row holds. Each
/// engine reads into `Value`; only the storage form is settled here, once for all.
extension Value {
    /// The value as a row of storage classes holds it: a boolean as 0 or 1, a date as its
    /// seconds, a decimal as its text. Objects decode these by their attributes' types
    /// (`AttributeType.decode`), so a row from PostgreSQL, whose cursor gives richer
    /// values, is kept and decoded as the same row read from a SQLite file is.
    public var storedForm: Value {
        switch self {
        case .bool(let b): return .integer(b ? 1 : 0)
        case .date(let seconds): return .real(seconds)
        case .decimal(let text): return .text(text)
        case .null, .integer, .real, .text, .textBytes, .blob: return self
        }
    }

    /// Whether two values are the same stored value, as SQLite's rows compare: an integer
    /// equals the real number that is exactly it; values of other storage classes differ.
    /// (Which entity a row is, by its entity column, is decided so: a tag read as 1.0 is 1.)
    package static func storedEqual(_ a: Value, _ b: Value) -> Bool {
        switch (a.storedForm, b.storedForm) {
        case (.null, .null): return true
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x == y
        case (.integer(let x), .real(let y)), (.real(let y), .integer(let x)): return Int64(exactly: y) == x
        case (.text(let x), .text(let y)): return x == y
        // Never equal to a `.text`: those bytes are UTF-8, these are not.
        case (.textBytes(let x), .textBytes(let y)): return x == y
        case (.blob(let x), .blob(let y)): return x == y
        default: return false
        }
    }

    /// Hashes the stored value so that `storedEqual` values hash alike (an integer as the
    /// real number it equals), for the row hashes observers compare (`RowHashes`). Each
    /// kind is told first: NULL hashed as the number 0 did (GRDB's hash), so another
    /// program changing a watched column from NULL to 0 was never heard.
    package func hashStored(into hasher: inout Hasher) {
        switch storedForm {
        case .null: hasher.combine(UInt8(0))
        case .integer(let integer):
            hasher.combine(UInt8(1))
            hasher.combine(Double(integer))
        case .real(let real):
            hasher.combine(UInt8(1))
            hasher.combine(real)
        case .text(let text):
            hasher.combine(UInt8(2))
            hasher.combine(text)
        case .textBytes(let bytes):
            hasher.combine(UInt8(2))
            hasher.combine(bytes)
        case .blob(let bytes):
            hasher.combine(UInt8(3))
            hasher.combine(Data(bytes))
        case .bool, .date, .decimal:
            hasher.combine(UInt8(4))
            hasher.combine(self)
        }
    }

    /// The value as a message quotes a stored value: NULL, a number, text in quotes.
    package var storedDescription: String {
        switch storedForm {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return String(reflecting: text)
        case .textBytes(let bytes): return "\"" + Value.escapingInvalidUTF8(bytes) + "\""
        case .blob(let bytes): return "Data(\(bytes.count) bytes)"
        case .bool, .date, .decimal: return displayString
        }
    }
}

/// Reads of a row kept as its values, for keys that must be integers: a file another
/// program wrote may hold anything there, which is an error naming the table and
/// column, never a crash.
extension Array where Element == Value {
    /// The integer at `index` (a real number within range, rounded toward zero, as
    /// `Value.storedInteger` takes one).
    package func storedInteger(at index: Int, table: String, column: String) throws -> Int64 {
        guard index >= 0, index < count else { throw StoreError.missingColumn(table: table, column: column) }
        return try self[index].storedForm.storedInteger(table: table, column: column)
    }

    /// The same for a column that may be NULL.
    package func storedIntegerIfPresent(at index: Int, table: String, column: String) throws -> Int64? {
        guard index >= 0, index < count else { throw StoreError.missingColumn(table: table, column: column) }
        if self[index].isNull { return nil }
        return try self[index].storedForm.storedInteger(table: table, column: column)
    }
}
