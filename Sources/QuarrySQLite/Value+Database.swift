import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

extension Value {
    /// A value read from SQLite, by storage class. GRDB has read text as a `String`
    /// already, bytes that are not UTF-8 replaced: a read that must keep them reads the
    /// statement's columns (`SQLiteCursor.value`) instead.
    public init(_ databaseValue: DatabaseValue) {
        switch databaseValue.storage {
        case .null: self = .null
        case .int64(let i): self = .integer(i)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        case .blob(let data): self = .blob([UInt8](data))
        }
    }

    /// The value as SQLite stores it: booleans as 0/1, dates as seconds since 1970.
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        // GRDB's text is a `String`, which cannot hold these bytes: they stand as a blob
        // here, and every bind of Quarry's values binds them again as TEXT, byte for byte
        // (`SQLiteArguments`, `SQLiteCursor.bind(values:)`). A bind that forgot would
        // still keep the bytes, not U+FFFD in their place.
        case .textBytes(let b): return Data(b).databaseValue
        case .blob(let b): return Data(b).databaseValue
        case .bool(let b): return (b ? 1 : 0).databaseValue
        case .date(let d): return d.databaseValue
        // As its nearest double, which is what a decimal attribute's REAL (or Core Data's
        // NUMERIC) column keeps: bound as text, SQLite's own conversion could round the
        // last digit otherwise than the double memory compares (`Binder.constant`), and
        // as a predicate argument text never equals a REAL. A save refuses a decimal no
        // double holds (`ObjectContext.inexactDecimal`).
        case .decimal(let s): return DecimalText.double(s).databaseValue
        }
    }
}
