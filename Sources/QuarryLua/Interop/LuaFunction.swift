import CLua
import CQuarryShim
import QuarryStore

/// A Swift function callable from Lua. It reads its arguments, pushes its results and
/// returns how many; to fail it throws, and the C trampoline raises the Lua error after
/// this Swift frame has returned.
public typealias LuaFunctionBody = (LuaCall) throws -> Int32

/// Keeps a bound Swift closure alive; Lua holds only a light pointer to it.
final class LuaFunctionBox {
    let name: String
    let body: LuaFunctionBody
    /// Where the dispatcher keeps what this function threw, for the runtime it belongs to.
    let raised: RaisedErrors
    init(name: String, raised: RaisedErrors, body: @escaping LuaFunctionBody) {
        self.name = name
        self.raised = raised
        self.body = body
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
    let box = Unmanaged<LuaFunctionBox>.fromOpaque(context).takeUnretainedValue()
    let call = LuaCall(state: state, functionName: box.name)
    let thrown: Error
    do {
        return try box.body(call)
    } catch {
        thrown = error
    }
    let text: String
    let addsPosition: Bool
    if let error = thrown as? any QuarryError {
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
    box.raised.record(thrown, as: luaString(state, -1))
    return Int32(QUARRY_RERAISE)
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
