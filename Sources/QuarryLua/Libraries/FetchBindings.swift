import CLua
import CQuarryShim
import QuarryFetch
import QuarryPredicates
import QuarryStore

/// The Lua side of fetch(), count() and the methods of results: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum FetchBindings {
    /// Globals, also fields of `quarry`.
    static let fetchLibrary: [LuaBinding] = [
        LuaBinding("fetch", luaFetch),
        LuaBinding("count", luaCount),
        LuaBinding("__objectat", luaObjectat),
    ]

    /// Methods, found through `__index`.
    static let resultsMethods: [LuaBinding] = [
        LuaBinding("configure", luaResultsConfigure),
        LuaBinding("first", luaResultsFirst),
        LuaBinding("ids", luaResultsIds),
        LuaBinding("totable", luaResultsTotable),
    ]

    static func luaFetch(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        try runtime.pushAnswer(try runtime.request(call, from: 1, entity: nil))
    }

    static func luaCount(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let request = try runtime.request(call, from: 1, entity: nil)
        runtime.noteKeysCoreDataRefuses(request.request)
        return call.push(try request.request.count(in: runtime.context))
    }

    /// The flat i-th object of any results; the prelude wraps it as r:objects().
    static func luaObjectat(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        let i = try call.integer(2)
        guard i >= 1 else { return call.pushNil() }
        return runtime.pushObject(try handle.results.object(at: Int(i - 1)))
    }

    static func luaResultsConfigure(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        try runtime.configure(call)
    }

    static func luaResultsFirst(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        return runtime.pushObject(try handle.results.object(at: 0))
    }

    static func luaResultsIds(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        try runtime.reserve(handle, LuaMemoryBudget.perID, "r:ids()")
        let objects = try runtime.allObjects(handle)
        LuaTable.pushList(call.state, objects) { pushString(call.state, $0.objectID) }
        return 1
    }

    static func luaResultsTotable(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        try runtime.reserve(handle, LuaMemoryBudget.perObject, "r:totable()")
        let objects = try runtime.allObjects(handle)
        LuaTable.pushList(call.state, objects) { _ = runtime.pushObject($0) }
        return 1
    }
}
