import CLua
import QuarryStore

/// The Lua side of model(path): tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum ModelBindings {
    /// Globals, also fields of `quarry`.
    static let modelLibrary: [LuaBinding] = [
        LuaBinding("model", luaModel)
    ]

    static func luaModel(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let path = try call.string(1)
        let names = try runtime.loadModel(path)
        LuaTable.pushList(call.state, names) { _ = runtime.pushEntity($0) }
        return 1
    }
}
