import CLua
import CQuarryShim
import CQuarrySignals
import Foundation
import QuarryFetch
import QuarryFormat
import QuarryStore

/// The Lua side of watch(): tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum WatchBindings {
    /// Globals, also fields of `quarry`.
    static let watchLibrary: [LuaBinding] = [
        LuaBinding("watch", luaWatch)
    ]

    static func luaWatch(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        // watch(r, { marks = seconds }): how long changed rows stay marked.
        var markSeconds = WatchView.markSeconds
        if call.argumentCount >= 2, call.type(2) == LUA_TTABLE {
            try QuarryRuntime.checkOptions(call, 2, allowed: ["marks"], operation: "watch")
            _ = LuaTable.field(call.state, 2, "marks")
            if lua_type(call.state, -1) == LUA_TNUMBER { markSeconds = max(0, lua_tonumberx(call.state, -1, nil)) }
            quarry_pop(call.state, 1)
        }
        // Dictionary rows and sql() rows: their query runs again at each change.
        if let query = rememberedQuery(call.state, 1) {
            try runtime.watch(query, markSeconds: markSeconds)
            return 0
        }
        guard let handle = swiftObject(call.state, 1, kind: .results, as: ResultsHandle.self) else {
            if isQuarryRows(call.state, 1) {
                throw LuaError(
                    "these rows have no query to run again (summarize's); watch results, fetch{ ..., result = \"dictionaries\" } or sql(...)",
                    operation: "watch")
            }
            throw call.typeError(1, expected: "results, dictionary results or sql() rows")
        }
        try runtime.watch(handle.results, markSeconds: markSeconds)
        return 0
    }
}
