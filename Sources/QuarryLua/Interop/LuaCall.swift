import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

/// One call from Lua into Swift: its arguments, read without raising, and the stack to
/// push results on. Argument errors read as lauxlib's ("bad argument #1 to 'fetch'
/// (string expected, got nil)").
public struct LuaCall {
    public let state: OpaquePointer
    public let functionName: String

    public var argumentCount: Int32 { lua_gettop(state) }

    public func type(_ index: Int32) -> Int32 { lua_type(state, index) }
    public func isNoneOrNil(_ index: Int32) -> Bool { lua_type(state, index) <= LUA_TNIL }

    public func typeName(_ index: Int32) -> String {
        if lua_type(state, index) == LUA_TNONE { return "no value" }
        if let kind = userdataKind(state, index) { return kind }
        return String(cString: lua_typename(state, lua_type(state, index)))
    }

    public func argumentError(_ index: Int32, _ message: String, suggestion: String? = nil) -> LuaError {
        .badArgument(index, to: functionName, message, suggestion: suggestion)
    }

    public func typeError(_ index: Int32, expected: String) -> LuaError {
        argumentError(index, "\(expected) expected, got \(typeName(index))")
    }

    public func string(_ index: Int32) throws -> String {
        guard lua_type(state, index) == LUA_TSTRING else { throw typeError(index, expected: "string") }
        return luaString(state, index)
    }

    public func optionalString(_ index: Int32) throws -> String? {
        isNoneOrNil(index) ? nil : try string(index)
    }

    public func integer(_ index: Int32) throws -> Int64 {
        var isNumber: Int32 = 0
        let value = quarry_tointeger(state, index, &isNumber)
        guard isNumber != 0, lua_type(state, index) == LUA_TNUMBER else {
            if lua_type(state, index) == LUA_TNUMBER { throw argumentError(index, "number has no integer representation") }
            throw typeError(index, expected: "integer")
        }
        return value
    }

    public func table(_ index: Int32) throws {
        guard lua_type(state, index) == LUA_TTABLE else { throw typeError(index, expected: "table") }
    }

    /// Pushes a store value; returns 1 for convenience.
    @discardableResult
    public func push(_ value: Value) -> Int32 {
        pushValue(state, value)
        return 1
    }

    public func pushNil() -> Int32 {
        lua_pushnil(state)
        return 1
    }
    public func push(_ text: String) -> Int32 {
        pushString(state, text)
        return 1
    }
    public func push(_ flag: Bool) -> Int32 {
        lua_pushboolean(state, flag ? 1 : 0)
        return 1
    }
    public func push(_ number: Int) -> Int32 {
        lua_pushinteger(state, lua_Integer(number))
        return 1
    }
}

/// Calls `body` with the bytes of the string at `index` where Lua keeps them (valid while
/// the value is on the stack); no bytes for a value that is no string or number.
func withLuaBytes<R>(_ state: OpaquePointer, _ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    var length = 0
    guard let chars = lua_tolstring(state, index, &length) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    return chars.withMemoryRebound(to: UInt8.self, capacity: length) { body(UnsafeBufferPointer(start: $0, count: length)) }
}

/// The string at `index` (bytes decoded as UTF-8, invalid sequences repaired).
func luaString(_ state: OpaquePointer, _ index: Int32) -> String {
    withLuaBytes(state, index) { String(decoding: $0, as: UTF8.self) }
}

/// The raw bytes of the string at `index`.
func luaBytes(_ state: OpaquePointer, _ index: Int32) -> [UInt8] {
    withLuaBytes(state, index) { Array($0) }
}

/// A Lua value as a store value, or nil when it has no store form (a function, a table).
func luaValue(_ state: OpaquePointer, _ index: Int32) -> Value? {
    switch lua_type(state, index) {
    case LUA_TNIL, LUA_TNONE: return .null
    case LUA_TBOOLEAN: return .bool(lua_toboolean(state, index) != 0)
    case LUA_TNUMBER:
        if quarry_isinteger(state, index) != 0 { return .integer(quarry_tointeger(state, index, nil)) }
        return .real(quarry_tonumber(state, index, nil))
    // Lua strings are bytes: those that are not UTF-8 are text still (a hash read from a
    // TEXT column, given back to a predicate or an attribute), kept byte for byte.
    case LUA_TSTRING: return withLuaBytes(state, index) { Value(storedText: $0) }
    case LUA_TUSERDATA:
        if let seconds = dateValue(state, index) { return .date(seconds) }
        if let text = decimalText(state, index) { return .decimal(text) }
        return nil
    // `null` (quarry.null) is nil where a table cannot hold nil: new{}, updateall, args.
    case LUA_TTABLE where isNullMarker(state, index): return .null
    default: return nil
    }
}

func pushValue(_ state: OpaquePointer, _ value: Value) {
    switch value {
    case .null: lua_pushnil(state)
    case .integer(let i): lua_pushinteger(state, lua_Integer(i))
    case .real(let d): lua_pushnumber(state, d)
    case .text(let s): pushString(state, s)
    case .textBytes(let bytes), .blob(let bytes):
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(state, $0.baseAddress, $0.count) }
        }
    case .bool(let b): lua_pushboolean(state, b ? 1 : 0)
    case .date(let seconds): pushDate(state, seconds)
    case .decimal(let text): pushDecimal(state, text)
    }
}
