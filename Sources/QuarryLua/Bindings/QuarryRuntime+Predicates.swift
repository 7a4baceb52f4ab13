import CLua
import CQuarryShim
import QuarryPredicates
import QuarryStore

/// A predicate made in Lua with `predicate(...)`, bound to an entity when first used.
final class PredicateHandle {
    let predicate: Predicate
    init(_ predicate: Predicate) { self.predicate = predicate }
}

extension QuarryRuntime {
    /// `null` and `quarry.null`: nil where a Lua table cannot hold nil (`args = { null }`,
    /// `vars = { X = null }`). One shared table, recognised by identity.
    func installNull() {
        let s = state
        lua_createtable(s, 0, 0)
        lua_createtable(s, 0, 2)
        pushFunction("__tostring") { call in call.push("null") }
        LuaTable.setField(s, -2, "__tostring")
        pushFunction("__newindex") { _ in throw LuaError("null holds no fields") }
        LuaTable.setField(s, -2, "__newindex")
        lua_setmetatable(s, -2)
        lua_pushvalue(s, -1)
        setRegistryField(s, nullRegistryKey)
        setGlobalAndQuarryField("null")
    }

    /// The predicate a `predicate(...)` object at `index` holds, or nil for any other value.
    func predicateObject(_ state: OpaquePointer, _ index: Int32) -> Predicate? {
        swiftObject(state, index, kind: .predicate, as: PredicateHandle.self)?.predicate
    }

    func predicateHandle(_ call: LuaCall, _ index: Int32) throws -> PredicateHandle {
        guard let handle = swiftObject(call.state, index, kind: .predicate, as: PredicateHandle.self) else {
            throw call.typeError(index, expected: "predicate")
        }
        return handle
    }
}
