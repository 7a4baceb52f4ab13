import CLua
import QuarryLua
import QuarryPredicates
import QuarryShell
import QuarryStore
import Testing

/// A runtime over an in-memory store, with helpers that run Lua and read back values.
final class Harness {
    let context: ObjectContext
    let runtime: QuarryRuntime

    init(memoryLimit: Int = 0) throws {
        context = try StoreOpener.open(nil)
        runtime = try QuarryRuntime(context: context, memoryLimit: memoryLimit)
    }

    /// A runtime over `context` (a file, say).
    init(context: ObjectContext, memoryLimit: Int = 0) throws {
        self.context = context
        runtime = try QuarryRuntime(context: context, memoryLimit: memoryLimit)
    }

    /// Runs code that must succeed.
    func run(_ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let failure = runtime.run(code, chunkName: "=t")
        #expect(failure == nil, "unexpected Lua error: \(failure?.message ?? "")", sourceLocation: sourceLocation)
    }

    /// Runs code that must fail, returning the error message.
    func error(_ code: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        guard let failure = runtime.run(code, chunkName: "=t") else {
            Issue.record("expected a Lua error from: \(code)", sourceLocation: sourceLocation)
            return ""
        }
        return failure.message
    }

    /// The value of a Lua expression, via tostring.
    func string(_ expression: String) -> String? {
        run("__result = tostring(\(expression))")
        lua_getglobal(runtime.state, "__result")
        defer { lua_settop(runtime.state, -2) }
        guard let chars = lua_tolstring(runtime.state, -1, nil) else { return nil }
        return String(cString: chars)
    }

    var stackTop: Int32 { lua_gettop(runtime.state) }
}
