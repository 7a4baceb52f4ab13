import QuarryEngine
import QuarryModel
import QuarryStore

/// The number a row of a table without a rowid (`WITHOUT ROWID`, keyed by text or by
/// several columns) is known by, as an object: Quarry knows each object by an integer, so
/// the number is made from the row's key, as a PostgreSQL table keyed alike is
/// (`PostgresStore+KeyedTables`). `quarry_key_number(k1, k2, ...)` hashes the key's
/// values as SQLite stores them (each one's storage class and bytes), so the number is
/// the same in every session and on every machine, and unchanged by writes to the row's
/// other columns; a 63-bit FNV-1a hash mixed by SplitMix64's finalizer, its sign bit
/// dropped (a positive number, as a rowid is). Installed on every connection Quarry
/// opens, which alone reads such a table through it; nothing is written to the file.
enum KeyNumber {
    static let name = "quarry_key_number"
    /// `quarry_key_part(number, i)`: the `i`th value of the key whose number is `number`,
    /// as the connection last computed it (`KeyNumbers`); NULL when it has not.
    static let partName = "quarry_key_part"

    /// The two functions of one connection, sharing what it learned of numbers and keys.
    static var functions: [SQLFunction] {
        let known = KeyNumbers()
        return [
            SQLFunction(name, argumentCount: -1, deterministic: true) { arguments in
                let key = (0..<arguments.count).map { arguments[$0] }
                let number = number(of: key)
                known.remember(number, key)
                return .integer(number)
            },
            SQLFunction(partName, argumentCount: 2, deterministic: false) { arguments in
                guard case .integer(let number) = arguments[0], case .integer(let index) = arguments[1] else { return .null }
                return known.part(index, of: number)
            }
        ]
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

    /// The number of a row, in SQL over its key `columns` (unquoted), optionally qualified.
    static func sql(of columns: [String], qualifier: String? = nil) -> String {
        let prefix = qualifier.map { $0 + "." } ?? ""
        return "\(name)(\(columns.map { prefix + quoteIdentifier($0) }.joined(separator: ", ")))"
    }
}
