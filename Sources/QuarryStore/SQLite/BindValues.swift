import GRDB
import GRDBSQLite

private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// Binds `values` to parameters 1... of `handle` with SQLite's own calls (SQLite copies
/// texts and blobs).
func bind(_ values: [DatabaseValue], to handle: OpaquePointer) {
    for (i, value) in values.enumerated() {
        let index = Int32(i + 1)
        switch value.storage {
        case .null: sqlite3_bind_null(handle, index)
        case .int64(let v): sqlite3_bind_int64(handle, index, v)
        case .double(let v): sqlite3_bind_double(handle, index, v)
        case .string(let s): sqlite3_bind_text(handle, index, s, -1, transient)
        case .blob(let data):
            _ = data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient) }
        }
    }
}
