import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// GRDB's row subscripts stop the process when a value does not convert (`row[1] as
/// Double` on the text "x"). Any value that comes from a file another program may have
/// written (Quarry's model and history tables, a foreign file's keys) is read through
/// here instead, so a changed file is an error naming the table and column, not a crash.
extension Row {
    /// The value at `index` as `T` (an optional `T` takes NULL); `table` and `column`
    /// name where it came from in the message.
    public func stored<T: DatabaseValueConvertible>(_ index: Int, table: String, column: String) throws -> T {
        guard index >= 0, index < count else {
            throw StoreError.missingColumn(table: table, column: column)
        }
        return try Self.converted(self[index], table: table, column: column)
    }

    /// `value` as `T`, or the error naming where it came from.
    static func converted<T: DatabaseValueConvertible>(_ value: DatabaseValue, table: String, column: String) throws -> T {
        if let converted = T.fromDatabaseValue(value) { return converted }
        throw StoreError.unexpectedValue(table: table, column: column, found: Self.describe(value), expected: Self.expected(T.self))
    }

    /// The same for a value that may be NULL.
    public func storedIfPresent<T: DatabaseValueConvertible>(_ index: Int, table: String, column: String) throws -> T? {
        guard index >= 0, index < count else {
            throw StoreError.missingColumn(table: table, column: column)
        }
        let value: DatabaseValue = self[index]
        if value.isNull { return nil }
        return try Self.converted(value, table: table, column: column) as T
    }

    private static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64: return "an integer"
        case .double: return "a real number"
        case .string: return "text"
        case .blob: return "a blob"
        }
    }

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is Int64.Type, is Int.Type, is Int32.Type: return "an integer"
        case is Double.Type: return "a number"
        case is String.Type: return "text"
        default: return "\(type)"
        }
    }
}
