import QuarryModel

/// One function of a library, as a `luaL_Reg` entry is in Lua's own libraries: the name
/// Lua sees and the Swift function that runs it. Each `Libraries/` file lists its
/// functions in such tables (an enum per file, `ContextBindings`, `SchemaBindings`, ...),
/// and the runtime registers a table with one loop (`register`, `pushMethods`), so a
/// binding is a named function, not a closure inside a long install function, and not a
/// member of the runtime either.
struct LuaBinding: Sendable {
    typealias Function = @Sendable (QuarryRuntime, LuaCall) throws -> Int32

    let name: String
    /// Given the runtime at each call, so a registered function holds no reference to it
    /// (the Lua state it lives in does).
    let function: Function

    init(_ name: String, _ function: @escaping Function) {
        self.name = name
        self.function = function
    }
}
