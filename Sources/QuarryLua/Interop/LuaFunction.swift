import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

/// A Swift function callable from Lua. It reads its arguments, pushes its results and
/// returns how many; to fail it throws, and the C trampoline raises the Lua error after
/// this Swift frame has returned.
public typealias LuaFunctionBody = (LuaCall) throws -> Int32

/// What Lua's closure for a bound function points at (a light pointer, its one upvalue):
/// the function, its name for messages, and the runtime it runs with. The runtime is not
/// retained: it owns these entries and closes the Lua state before they go, and the
/// dispatcher reads it while the state closes (its `deinit`), when an `unowned` reference
/// would trap.
struct BoundFunction {
    let name: String
    /// A library's `LuaBinding.Function`, or a closure made at run time (`pushFunction`),
    /// which may hold the runtime's own state and so is not `Sendable`.
    let function: (QuarryRuntime, LuaCall) throws -> Int32
    unowned(unsafe) let runtime: QuarryRuntime
    /// A global that takes a store as its first argument (`fetch(b, "Item")`): the
    /// dispatcher works on that store and takes it off the stack (`focusCall`).
    var takesStore = false
}

/// A runtime's bound functions, in blocks that never move, since Lua holds pointers into
/// them. Over a hundred functions are bound at every start: a block of entries is one
/// allocation for all of them, where a box and two closures each were three allocations
/// a function to make and to release at exit (see docs/benchmarks.md, "Start-up").
final class BoundFunctions {
    private final class Block {
        static let capacity = 512
        let entries = UnsafeMutablePointer<BoundFunction>.allocate(capacity: Block.capacity)
        var count = 0
        let next: Block?
        init(next: Block?) { self.next = next }
        deinit {
            entries.deinitialize(count: count)
            entries.deallocate()
        }
    }
    private var last: Block?

    /// Keeps `function` for as long as this table lives; returns where it is.
    func add(_ function: BoundFunction) -> UnsafeMutableRawPointer {
        let block: Block
        if let last, last.count < Block.capacity {
            block = last
        } else {
            block = Block(next: last)
            last = block
        }
        let entry = block.entries + block.count
        entry.initialize(to: function)
        block.count += 1
        return UnsafeMutableRawPointer(entry)
    }
}

/// The last error a runtime's Swift functions raised in Lua, as a value: Lua carries only
/// its text, so the runtime keeps the value beside it, and a failure whose message is
/// exactly that text gets it back (`LuaFailure.error`). A script that caught the error
/// and raised another has a different message, so a stale value is never handed out.
final class RaisedErrors {
    private var last: (message: String, value: Error)?

    func record(_ value: Error, as message: String) {
        last = (message, value)
    }

    /// The value raised as `message`, if that is what reached the top; the record is cleared.
    /// A script that caught it and raised it again with `error(e)` adds the position of
    /// its own call (`t:3: t:1: predicate: ...`): still that error, so the REPL keeps its caret.
    func take(raisedAs message: String) -> Error? {
        defer { last = nil }
        guard let last, last.message == message || message.hasSuffix(": " + last.message) else { return nil }
        return last.value
    }

    func clear() { last = nil }
}

/// The one Swift function the C trampoline calls. Every Swift error stops here and
/// becomes a status: nothing below this frame may raise a Lua error. The message is
/// finished here, position included, so the value thrown is kept with the exact text
/// Lua raises (`RaisedErrors`).
let swiftDispatcher: quarry_dispatcher = { state, context in
    guard let state, let context else { return 0 }
    let entry = UnsafePointer(context.assumingMemoryBound(to: BoundFunction.self))
    let runtime = entry.pointee.runtime
    let call = LuaCall(state: state, functionName: entry.pointee.name)
    let thrown: Error
    do {
        return try runtime.run(entry, call)
    } catch {
        thrown = error
    }
    let text: String
    let addsPosition: Bool
    if let error = thrown as? LuaError, let numbered = numberedAsLuaDoes(error, state) {
        text = ErrorRendering.oneLine(numbered)
        addsPosition = numbered.addsPosition
    } else if let error = thrown as? any QuarryError {
        // Lua, store, predicate and fetch errors alike: one renderer, and the script
        // position in front unless the message carries it already.
        text = ErrorRendering.oneLine(error)
        addsPosition = (error as? LuaError)?.addsPosition != false
    } else {
        // Errors of no Quarry kind (Foundation's, say) are text already.
        text = ErrorRendering.oneLine(String(describing: thrown))
        addsPosition = true
    }
    lua_settop(state, 0)
    if addsPosition { pushScriptPosition(state) }
    pushString(state, text)
    if addsPosition { lua_concat(state, 2) }
    runtime.raisedErrors.record(thrown, as: luaString(state, -1))
    return Int32(QUARRY_RERAISE)
}

/// An argument error of a call written with a colon (`Track:updateall(...)`) numbered as
/// lauxlib's `luaL_argerror` numbers it: from the first argument after the colon, `self`
/// not counted (`("x"):rep()` is `#1`), and `self` itself is "calling 'f' on bad self".
/// Nil for any other error, or a call that is not a method call.
private func numberedAsLuaDoes(_ error: LuaError, _ state: OpaquePointer) -> LuaError? {
    guard case .badArgument(let index, let function) = error.kind else { return nil }
    var record = lua_Debug()
    guard lua_getstack(state, 0, &record) != 0, lua_getinfo(state, "n", &record) != 0, let namewhat = record.namewhat,
        String(cString: namewhat) == "method"
    else { return nil }
    var numbered = error
    if index <= 1 {
        numbered.kind = .other
        numbered.detail = "calling '\(function)' on bad self (\(error.detail))"
    } else {
        numbered.kind = .badArgument(index: index - 1, function: function)
    }
    return numbered
}

func pushString(_ state: OpaquePointer, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
            _ = lua_pushlstring(state, chars.baseAddress, chars.count)
        }
    }
}

/// Pushes where the script is (`t.lua:12: `), as luaL_where does but past Quarry's own
/// prelude (the position of its caller is the one a person can use); "" when no Lua
/// function with a line is on the stack. The C trampoline's `push_position` is the same
/// rule for the errors it raises itself (the memory limit).
func pushScriptPosition(_ state: OpaquePointer) {
    var record = lua_Debug()
    var level: Int32 = 1
    while lua_getstack(state, level, &record) != 0 {
        guard lua_getinfo(state, "Sl", &record) != 0 else { break }
        let isPrelude = record.source.map { String(cString: $0) == "=(quarry prelude)" } ?? false
        if record.currentline > 0, !isPrelude {
            withUnsafeBytes(of: &record.short_src) { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { lua_pushstring(state, $0.baseAddress) }
            }
            pushString(state, ":\(record.currentline): ")
            lua_concat(state, 2)
            return
        }
        level += 1
    }
    _ = lua_pushstring(state, "")
}
