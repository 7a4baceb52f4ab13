import CLua
import CQuarryShim

/// Quarry's own value kinds as Lua userdata. Swift objects are retained by their
/// userdata and released by `__gc`; a weak-valued registry table maps each Swift object
/// to its one userdata, so the same row is the same Lua value while Lua references it.
enum UserdataKind: String, CaseIterable {
    case object, results, section, entity, date, predicate

    var metatableKey: String { "quarry.kind." + rawValue }
    /// Dates are plain numbers in a userdata; everything else holds a Swift object.
    var holdsSwiftObject: Bool { self != .date }
}

private let kindField = "__quarry_kind"
private let identityKey = "quarry.identity"

/// Creates the registry tables the functions below rely on; `configure` fills each
/// kind's metatable with its metamethods.
func installUserdataSupport(_ state: OpaquePointer, configure: (UserdataKind) -> Void) {
    lua_createtable(state, 0, 0)
    lua_createtable(state, 0, 1)
    pushString(state, "v")
    lua_setfield(state, -2, "__mode")
    lua_setmetatable(state, -2)
    lua_setfield(state, quarry_registryindex(), identityKey)
    for kind in UserdataKind.allCases {
        lua_createtable(state, 0, 8)
        pushString(state, kind.rawValue)
        lua_setfield(state, -2, kindField)
        // Keeps getmetatable() from exposing (and letting scripts break) the metatable.
        pushString(state, "quarry " + kind.rawValue)
        lua_setfield(state, -2, "__metatable")
        configure(kind)
        lua_setfield(state, quarry_registryindex(), kind.metatableKey)
    }
}

/// The kind of Quarry userdata at `index`, or nil for any other value.
func userdataKind(_ state: OpaquePointer, _ index: Int32) -> String? {
    guard lua_type(state, index) == LUA_TUSERDATA, lua_getmetatable(state, index) != 0 else { return nil }
    pushString(state, kindField)
    lua_rawget(state, -2)
    let kind = lua_type(state, -1) == LUA_TSTRING ? luaString(state, -1) : nil
    quarry_pop(state, 2)
    return kind
}

/// Pushes the userdata for `object`, reusing the one Lua already has.
func pushSwiftObject(_ state: OpaquePointer, _ object: AnyObject, kind: UserdataKind) {
    let key = Unmanaged.passUnretained(object).toOpaque()
    lua_getfield(state, quarry_registryindex(), identityKey)
    if lua_rawgetp(state, -1, key) == LUA_TUSERDATA {
        quarry_remove(state, -2)
        return
    }
    quarry_pop(state, 1)
    let block = lua_newuserdatauv(state, MemoryLayout<UnsafeMutableRawPointer>.size, 0)!
    block.storeBytes(of: Unmanaged.passRetained(object).toOpaque(), as: UnsafeMutableRawPointer?.self)
    lua_getfield(state, quarry_registryindex(), kind.metatableKey)
    lua_setmetatable(state, -2)
    lua_pushvalue(state, -1)
    lua_rawsetp(state, -3, key)
    quarry_remove(state, -2)
}

/// The Swift object held by the userdata at `index` when it is of `kind`.
func swiftObject<T: AnyObject>(_ state: OpaquePointer, _ index: Int32, kind: UserdataKind, as type: T.Type) -> T? {
    guard userdataKind(state, index) == kind.rawValue, let block = lua_touserdata(state, index),
          let pointer = block.load(as: UnsafeMutableRawPointer?.self) else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? T
}

/// `__gc`: releases the Swift object and clears the pointer, so a resurrected userdata
/// reads as gone instead of dangling.
func releaseSwiftObject(_ state: OpaquePointer, _ index: Int32) {
    guard let block = lua_touserdata(state, index),
          let pointer = block.load(as: UnsafeMutableRawPointer?.self) else { return }
    block.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}

func pushDate(_ state: OpaquePointer, _ seconds: Double) {
    let block = lua_newuserdatauv(state, MemoryLayout<Double>.size, 0)!
    block.storeBytes(of: seconds, as: Double.self)
    lua_getfield(state, quarry_registryindex(), UserdataKind.date.metatableKey)
    lua_setmetatable(state, -2)
}

func dateValue(_ state: OpaquePointer, _ index: Int32) -> Double? {
    guard userdataKind(state, index) == UserdataKind.date.rawValue, let block = lua_touserdata(state, index) else { return nil }
    return block.load(as: Double.self)
}
