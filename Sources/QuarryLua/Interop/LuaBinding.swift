/// One function of a library, as a `luaL_Reg` entry is in Lua's own libraries: the name
/// Lua sees and the runtime's method that runs it. Each `Bindings/` file lists its
/// functions in such tables, and the runtime registers a table with one loop
/// (`register`, `registerMethods`), so a binding is a named method, not a closure
/// inside a long install function.
struct LuaBinding {
    let name: String
    /// Unapplied (`QuarryRuntime.luaSave`): the runtime is supplied at each call, so a
    /// registered function holds no reference to it (the state it lives in does).
    let function: (QuarryRuntime) -> LuaFunctionBody

    init(_ name: String, _ function: @escaping (QuarryRuntime) -> LuaFunctionBody) {
        self.name = name
        self.function = function
    }
}
