import CLua
import Foundation
import QuarryLua
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import Testing

/// A runtime over an in-memory store, with helpers that run Lua and read back values.
final class Harness {
    let context: ObjectContext
    let runtime: QuarryRuntime

    init(memoryLimit: Int = 0, console: any Console = PlainConsole()) throws {
        context = try StoreOpener.open(nil)
        runtime = try QuarryRuntime(context: context, memoryLimit: memoryLimit, console: console, swiftReader: InProcessSwiftReader())
    }

    /// A runtime over `context` (a file, say).
    init(context: ObjectContext, memoryLimit: Int = 0, console: any Console = PlainConsole()) throws {
        self.context = context
        runtime = try QuarryRuntime(context: context, memoryLimit: memoryLimit, console: console, swiftReader: InProcessSwiftReader())
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

    /// What `help(argument)` prints, as a person reads it (the harness must have been made
    /// with a `RecordingConsole`); nil when it failed. It returns nothing, which is checked.
    func help(_ argument: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let console = runtime.console as? ConsoleAndFailureTests.RecordingConsole else {
            Issue.record("help() is read from a RecordingConsole; this harness has none", sourceLocation: sourceLocation)
            return nil
        }
        console.written = []
        guard runtime.run("__helped = select('#', help(\(argument)))", chunkName: "=t") == nil else { return nil }
        #expect(string("__helped") == "0", "help(\(argument)) returned a value", sourceLocation: sourceLocation)
        return console.written.joined().trimmingCharacters(in: .newlines)
    }

    var stackTop: Int32 { lua_gettop(runtime.state) }
}
