import CQuarryShim
import Foundation
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

    /// What reading Swift source costs per byte of it (swift-syntax's tree, then Quarry's
    /// predicate), at most: measured 175 bytes a byte for a `#Predicate` of 10,000 and of
    /// 100,000 `||` terms (it grows linearly), 130 of them swift-syntax's.
    static let perSwiftSourceByte = 200

    /// Refuses Swift source (a `#Predicate`, a sort key) whose reading would not fit
    /// the limit, before swift-syntax reads it: its memory is not Lua's, and no error may
    /// stop it halfway.
    static func reserveSwiftSource(_ state: OpaquePointer, _ text: String, what: String) throws {
        let (bytes, over) = text.utf8.count.multipliedReportingOverflow(by: perSwiftSourceByte)
        try reserve(
            state, over ? Int.max : bytes, for: "reading \(what) of \(max(1, text.utf8.count >> 10)) KB",
            remedy: "write it as a format string, which reads in far less, or raise --memory")
    }

    /// Throws the one-line memory error when `bytes` more would take the heap past the
    /// limit, naming what was asked for; nothing when there is no limit.
    static func reserve(_ state: OpaquePointer, _ bytes: Int, for what: @autoclosure () -> String, remedy: String? = nil) throws {
        let limit = quarry_memory_limit(state)
        guard limit > 0 else { return }
        let room = quarry_memory_room(state)
        guard bytes > 0, UInt(bytes) > UInt(room) else { return }
        throw LuaError(
            "not enough memory: \(what()) needs about \(megabytes(bytes)) MB of the Lua heap, over the --memory limit (\(limit >> 20) MB)",
            remedy: remedy)
    }

    /// The most a result read without `--memory` may hold: a quarter of the machine's
    /// memory, as it is held twice while Lua's copy is made (Swift's rows, then Lua's).
    static let unlimitedResultBytes = Int(clamping: ProcessInfo.processInfo.physicalMemory / 4)

    /// Refuses rows as a query reads them, once their Lua size (slots, and the bytes of
    /// their text and blobs) would pass the limit, or without `--memory` a quarter of the
    /// machine's memory: the Swift rows are never all built first, and a row of big
    /// values is refused before it is copied. `remedy` says how to ask for less.
    static func rowAdmission(_ state: OpaquePointer, remedy: String) -> RowAdmission {
        RowAdmission { rows, columns, bytes in
            let (slots, over) = rows.multipliedReportingOverflow(by: perRow + columns * perColumn)
            let size = over ? Int.max : slots.addingReportingOverflow(bytes).overflow ? Int.max : slots + bytes
            let what = "a result of \(rows) row\(rows == 1 ? "" : "s") or more"
            if quarry_memory_limit(state) > 0 { return try reserve(state, size, for: what, remedy: remedy) }
            guard size > unlimitedResultBytes else { return }
            throw LuaError(
                "not enough memory: \(what) needs about \(megabytes(size)) MB, over a quarter of this machine's memory (\(unlimitedResultBytes >> 20) MB)",
                remedy: remedy)
        }
    }

    private static func megabytes(_ bytes: Int) -> Int { max(1, (bytes + (1 << 20) - 1) >> 20) }
}
