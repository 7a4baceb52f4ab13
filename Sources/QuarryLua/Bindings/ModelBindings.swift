import CLua
import QuarryStore

/// The Lua functions of `QuarryRuntime+Model.swift`, as lua.c keeps a library: tables of
/// name → function that the runtime registers with one loop, and the functions, each
/// given the runtime it runs in.
enum ModelBindings {
    /// Globals (also fields of `quarry`), registered as lua.c registers a library: name → function.
    static let modelLibrary: [LuaBinding] = [
        LuaBinding("model", luaModel),
    ]

    static func luaModel(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let path = try call.string(1)
        let names = try runtime.loadModel(path)
        LuaTable.pushList(call.state, names) { _ = runtime.pushEntity($0) }
        return 1
    }
}
