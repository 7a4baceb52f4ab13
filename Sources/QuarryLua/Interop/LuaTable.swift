import CLua
import CQuarryShim

/// Table access that never calls metamethods, so it cannot raise across Swift frames.
enum LuaTable {
    /// Pushes `t[key]` (raw) and returns its type.
    @discardableResult
    static func field(_ state: OpaquePointer, _ table: Int32, _ key: String) -> Int32 {
        let table = lua_absindex(state, table)
        pushString(state, key)
        return lua_rawget(state, table)
    }

    /// Pushes `t[i]` (raw) and returns its type.
    @discardableResult
    static func element(_ state: OpaquePointer, _ table: Int32, _ i: Int) -> Int32 {
        lua_rawgeti(state, table, lua_Integer(i))
    }

    /// `#t` without `__len`.
    static func length(_ state: OpaquePointer, _ table: Int32) -> Int {
        Int(lua_rawlen(state, table))
    }

    /// Sets `t[key]` (raw) to the value on top of the stack, popping it.
    static func setField(_ state: OpaquePointer, _ table: Int32, _ key: String) {
        let table = lua_absindex(state, table)
        pushString(state, key)
        quarry_insert(state, -2)
        lua_rawset(state, table)
    }

    /// Whether a table has any string key; stops at the first, where `stringKeys` walks
    /// and sorts them all (a list argument of 100,000 values is checked on every call).
    static func hasStringKey(_ state: OpaquePointer, _ table: Int32) -> Bool {
        let table = lua_absindex(state, table)
        lua_pushnil(state)
        while lua_next(state, table) != 0 {
            let isString = lua_type(state, -2) == LUA_TSTRING
            quarry_pop(state, isString ? 2 : 1)
            if isString { return true }
        }
        return false
    }

    /// String keys of a table in a stable order, with the type of each value.
    static func stringKeys(_ state: OpaquePointer, _ table: Int32) -> (keys: [String], nonString: Bool) {
        let table = lua_absindex(state, table)
        var keys: [String] = []
        var nonString = false
        lua_pushnil(state)
        while lua_next(state, table) != 0 {
            if lua_type(state, -2) == LUA_TSTRING { keys.append(luaString(state, -2)) } else { nonString = true }
            quarry_pop(state, 1)
        }
        // One key (`new{ v = ... }`) needs no sort, which makes a new array.
        return (keys.count > 1 ? keys.sorted() : keys, nonString)
    }

    /// Pushes a new list of `items`, each pushed by `push` and stored at `t[1..n]`.
    static func pushList<T>(_ state: OpaquePointer, _ items: [T], _ push: (T) -> Void) {
        lua_createtable(state, Int32(items.count), 0)
        for (i, item) in items.enumerated() {
            push(item)
            lua_rawseti(state, -2, lua_Integer(i + 1))
        }
    }

    /// Values of `t[1..n]` converted by `read`, which sees each at the top of the stack.
    static func array<T>(_ state: OpaquePointer, _ table: Int32, _ read: (Int) throws -> T) rethrows -> [T] {
        let table = lua_absindex(state, table)
        var result: [T] = []
        var i = 1
        while element(state, table, i) != LUA_TNIL {
            defer { quarry_pop(state, 1) }
            result.append(try read(i))
            i += 1
        }
        quarry_pop(state, 1)
        return result
    }
}

/// Registry access is raw: a script with the debug library could give the registry a
/// metatable whose handlers raise, and these run in Swift outside any protected call.
func pushRegistryField(_ state: OpaquePointer, _ key: String) {
    pushString(state, key)
    lua_rawget(state, quarry_registryindex())
}

/// Pops the value on top into the registry under `key`.
func setRegistryField(_ state: OpaquePointer, _ key: String) {
    pushString(state, key)
    quarry_insert(state, -2)
    lua_rawset(state, quarry_registryindex())
}
