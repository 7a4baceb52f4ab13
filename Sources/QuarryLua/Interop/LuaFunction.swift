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
    init(name: String, body: @escaping LuaFunctionBody) { self.name = name; self.body = body }
}

/// The one Swift function the C trampoline calls. Every Swift error stops here and
/// becomes a status: nothing below this frame may raise a Lua error.
let swiftDispatcher: quarry_dispatcher = { state, context in
    guard let state, let context else { return 0 }
    let box = Unmanaged<LuaFunctionBox>.fromOpaque(context).takeUnretainedValue()
    let call = LuaCall(state: state, functionName: box.name)
    do {
        return try box.body(call)
    } catch let error as any QuarryError {
        // Lua, store, predicate and fetch errors alike: one renderer, and Lua puts the
        // script position in front unless the message carries it already.
        lua_settop(state, 0)
        pushString(state, ErrorRendering.oneLine(error))
        return (error as? LuaError)?.addsPosition == false ? Int32(QUARRY_RERAISE) : Int32(QUARRY_RAISE)
    } catch {
        // Errors of no Quarry kind (Foundation's, say) are text already.
        lua_settop(state, 0)
        pushString(state, ErrorRendering.oneLine(String(describing: error)))
        return Int32(QUARRY_RAISE)
    }
}

func pushString(_ state: OpaquePointer, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
            _ = lua_pushlstring(state, chars.baseAddress, chars.count)
        }
    }
}
