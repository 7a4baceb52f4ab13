import CQuarrySQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// SQLite's own heap, bounded by `--memory` as the Lua heap is: a statement that would
/// build more (`printf('%.*c', 900000000, 'x')`, a sort's buffers) fails with
/// SQLITE_NOMEM, which reads as one line naming the limit, instead of growing the
/// process past it. One bound for every connection of the process (SQLite's is global).
public enum SQLiteHeap {
    /// Sets the bound (0: none). Called once, before any connection runs a statement:
    /// SQLite applies a hard limit to allocations made after it is set.
    public static func limit(bytes: Int) {
        _ = quarry_sqlite_limit_heap(sqlite3_int64(max(0, bytes)))
        SQLiteResultCode.heapLimit = Self.bytes
    }

    /// The bound in force, in bytes; 0 when there is none.
    public static var bytes: Int { Int(quarry_sqlite_limit_heap(-1)) }
}
