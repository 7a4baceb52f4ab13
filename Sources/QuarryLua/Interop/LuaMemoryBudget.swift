import CQuarryShim
import QuarryFetch

/// Values Quarry builds for Lua in one call (a `totable()` of every row, a big list of
/// dictionaries or ids) are paid for from `--memory` as Lua's own allocations are. Swift
/// cannot be refused memory halfway (no error may unwind its frames), so a value that
/// cannot fit is refused before it is built, from an estimate of its Lua size; the
/// trampoline also checks the heap after every call (see shim.c), for what the estimate
/// leaves out.
enum LuaMemoryBudget {
    /// Lua bytes per element, at least (measured on Lua 5.4, 64-bit): a table slot, and
    /// for an object its userdata (block and user value) and its entry in the weak table
    /// that keeps rows' identities.
    static let perObject = 120
    /// A string of an id ("Entity/123") and its slot.
    static let perID = 48
    /// A dictionary row: its table, and a slot per column.
    static let perRow = 64
    static let perColumn = 32

    /// Throws the one-line memory error when `bytes` more would take the heap past the
    /// limit, naming what was asked for; nothing when there is no limit.
    static func reserve(_ state: OpaquePointer, _ bytes: Int, for what: @autoclosure () -> String) throws {
        let limit = quarry_memory_limit(state)
        guard limit > 0 else { return }
        let room = quarry_memory_room(state)
        guard bytes > 0, UInt(bytes) > UInt(room) else { return }
        throw LuaError("not enough memory: \(what()) needs about \(megabytes(bytes)) MB of the Lua heap, over the --memory limit (\(limit >> 20) MB)")
    }

    /// Refuses rows as a query reads them, once their Lua size would pass the limit
    /// (nil without a limit): the Swift rows are never all built first.
    static func rowAdmission(_ state: OpaquePointer) -> RowAdmission? {
        guard quarry_memory_limit(state) > 0 else { return nil }
        return RowAdmission { rows, columns in
            try reserve(state, rows * (perRow + columns * perColumn), for: "a result of \(rows) rows or more")
        }
    }

    private static func megabytes(_ bytes: Int) -> Int { max(1, (bytes + (1 << 20) - 1) >> 20) }
}
