import CLua
import CQuarryShim

/// A Swift function callable from Lua. It reads its arguments, pushes its results and
/// returns how many; to fail it throws, and the C trampoline raises the Lua error after
/// this Swift frame has returned.
public typealias LuaFunctionBody = (LuaCall) throws -> Int32

/// An error to raise in Lua: the message a person reads.
public struct LuaError: Error, CustomStringConvertible {
    public var message: String
    /// False when the message already carries its position (a re-raised Lua error).
    public var addsPosition: Bool
    public init(_ message: String, addsPosition: Bool = true) {
        self.message = message
        self.addsPosition = addsPosition
    }
    public var description: String { message }
}

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
    } catch let error as LuaError {
        lua_settop(state, 0)
        pushString(state, oneLine(error.message))
        return error.addsPosition ? Int32(QUARRY_RAISE) : Int32(QUARRY_RERAISE)
    } catch {
        lua_settop(state, 0)
        pushString(state, oneLine(String(describing: error)))
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

/// Messages are one line: control characters from names or values are escaped, and a
/// message made huge by a name or value (a 1 MB key path, say) keeps its start and end
/// (where the position is said) with the middle left out.
public func oneLine(_ message: String) -> String {
    let message = shortened(message)
    guard message.unicodeScalars.contains(where: { $0.value < 0x20 }) else { return message }
    var out = ""
    for scalar in message.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 { out += "\\" + String(scalar.value) } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out
}

/// At most about 1,000 characters: the first 600 and the last 300, and how many were cut.
func shortened(_ message: String) -> String {
    guard message.utf8.count > 1_000 else { return message }
    let scalars = message.unicodeScalars
    guard scalars.count > 1_000 else { return message }
    let head = String(String.UnicodeScalarView(scalars.prefix(600)))
    let tail = String(String.UnicodeScalarView(scalars.suffix(300)))
    return head + " ... (\(scalars.count - 900) characters left out) ... " + tail
}
