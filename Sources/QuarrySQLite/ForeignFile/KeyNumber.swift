import Foundation
import QuarryEngine
import QuarryModel
import QuarryStore

/// The number a row of a table without a rowid (`WITHOUT ROWID`, keyed by text or by
/// several columns) is known by, as an object: Quarry knows each object by an integer, so
/// the number is made from the row's key, as a PostgreSQL table keyed alike is
/// (`PostgresStore+KeyedTables`). `quarry_key_number(table, k1, k2, ...)` hashes the key's
/// values as SQLite stores them (each one's storage class and bytes), so the number is
/// the same in every session and on every machine, and unchanged by writes to the row's
/// other columns; a 63-bit FNV-1a hash mixed by SplitMix64's finalizer, its sign bit
/// dropped (a positive number, as a rowid is). Installed on every connection Quarry
/// opens, which alone reads such a table through it; nothing is written to the file.
enum KeyNumber {
    static let name = "quarry_key_number"
    /// `quarry_key_part(table, number, i)`: the `i`th value of the key of `table` whose
    /// number is `number`, as the connection last computed it (`KeyNumbers`); NULL when
    /// it has not.
    static let partName = "quarry_key_part"

    /// `quarry_key_number(table, k1, k2, ...)`: the number of the key `k1, k2, ...` of
    /// `table` (named so that a clash can say where; the name is not hashed). Two keys of
    /// one table met with one number fail the statement, naming both (`KeyNumbers`).
    static func number(_ arguments: some SQLFunctionArguments, _ known: KeyNumbers) -> Result<Value, KeyNumbers.Clash> {
        guard arguments.count > 1 else { return .success(.null) }
        guard case .text(let table) = arguments[0] else { return .success(.null) }
        let key = (1..<arguments.count).map { arguments[$0] }
        let number = testNumbers.number(of: table) ?? number(of: key)
        return known.remember(table, number, key).map { .integer(number) }
    }

    /// `quarry_key_part(table, number, i)`.
    static func part(_ arguments: some SQLFunctionArguments, _ known: KeyNumbers) -> Value {
        guard case .text(let table) = arguments[0], case .integer(let number) = arguments[1], case .integer(let index) = arguments[2]
        else { return .null }
        return known.part(index, of: number, in: table)
    }

    /// For tests only: tables (by name) every key of which has the number given, so that
    /// a clash of numbers, which no real file is likely to show, can be made.
    static let testNumbers = TestNumbers()

    /// Unchecked: its dictionary is read and written under `lock` only.
    final class TestNumbers: @unchecked Sendable {
        private let lock = NSLock()
        private var numbers: [String: Int64] = [:]
        /// Read once per row: an empty table of them costs a lock and no lookup.
        func number(of table: String) -> Int64? { lock.withLock { numbers.isEmpty ? nil : numbers[table] } }
        func set(_ number: Int64?, for table: String) { lock.withLock { numbers[table] = number } }
    }

    /// The number of a row whose key's values are `values`, in key order.
    static func number(of values: [Value]) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        func add(_ word: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: word >> UInt64(shift))) } }
        func add(_ bytes: some Collection<UInt8>) {
            // The length first: ("ab", "c") and ("a", "bc") are other keys.
            add(UInt64(bytes.count))
            for byte in bytes { add(byte) }
        }
        for value in values {
            switch value {
            case .integer(let integer):
                add(UInt8(1))
                add(UInt64(bitPattern: integer))
            case .real(let real):
                add(UInt8(2))
                add(real.bitPattern)
            case .text(let text):
                add(UInt8(3))
                add(Array(text.utf8))
            case .textBytes(let bytes):
                add(UInt8(3))
                add(bytes)
            case .blob(let bytes):
                add(UInt8(4))
                add(bytes)
            default:
                // NULL, which no key of a table without a rowid holds; other cases are
                // never an argument's (`SQLiteFunctionArguments`).
                add(UInt8(0))
            }
        }
        // SplitMix64's finalizer: FNV alone leaves short keys' numbers close together.
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Int64(bitPattern: hash & UInt64(Int64.max))
    }

    /// `text` as a SQL string literal.

    /// The number of a row of `table`, in SQL over its key `columns` (unquoted),
    /// optionally qualified.
    static func sql(of columns: [String], in table: String, qualifier: String? = nil) -> String {
        let prefix = qualifier.map { $0 + "." } ?? ""
        return "\(name)(\(quoteLiteral(table)), \(columns.map { prefix + quoteIdentifier($0) }.joined(separator: ", ")))"
    }
}
