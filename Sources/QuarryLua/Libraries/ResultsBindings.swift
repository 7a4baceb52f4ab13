import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryPredicates
import QuarryStore

/// The Lua side of results' metamethods (`#r`, `r[i]`, `r.key`, assignment): tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum ResultsBindings {
    static let resultsMetamethods: [LuaBinding] = [
        LuaBinding("__len", luaResultsLen),
        LuaBinding("__index", luaResultsIndex),
        LuaBinding("__newindex", luaResultsNewindex),
        LuaBinding("__tostring", luaResultsTostring),
        LuaBinding("__quarry_snapshot", luaResultsWalk)
    ]

    /// What `ipairs(r)` walks (see quarry_install_ipairs): results that go on over the
    /// objects `r` held when the loop began (`ResultsWalk`), so that a loop changing its
    /// objects out of `r` skips none. Until something changes, they are read as `r` is.
    /// Sectioned results walk their sections as they were, each walking its objects so.
    static func luaResultsWalk(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        try FetchBindings.luaWalk(runtime, call)
    }

    static func luaResultsLen(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        if handle.results.isSectioned { return call.push(try runtime.sections(handle).count) }
        let n = try handle.results.count()
        runtime.noteTextCells(handle.results)
        return call.push(n)
    }

    static func luaResultsIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        if call.type(2) == LUA_TNUMBER {
            let i = try call.integer(2)
            if handle.results.isSectioned { return try runtime.pushSection(handle, i) }
            guard i >= 1 else { return call.pushNil() }
            var walksSavedRows = false
            if let walk = handle.walk, handle.results.hasMoved(since: walk) {
                // A walk over the saved rows as they were (`walksSavedRows`) goes on over
                // its cached rows, then batches of rows as before anything changed: each
                // row made an object through Swift was two thirds of a loop changing
                // 20,000 objects (issue 84).
                guard handle.results.walksSavedRows(walk) else { return runtime.pushObject(try handle.results.object(at: Int(i - 1), in: walk)) }
                if pushCachedObject(call.state, results: 1, i) { return 1 }
                walksSavedRows = true
            }
            // A batch of rows, cached as the results' user value for C to answer from; a
            // walk's over the saved rows (moved or not) stands through changes to values
            // (`cacheBatchObjects`), so a loop changing each object reads on in C.
            if try walksSavedRows || handle.results.servesRows() {
                guard let (start, rows) = try handle.results.rows(around: Int(i - 1)) else { return call.pushNil() }
                let savedRows = walksSavedRows || handle.walk.map { handle.results.walksSavedRows($0) } ?? false
                cacheBatchObjects(call.state, results: 1, rows, window: 0..<rows.keys.count, first: start + 1, savedRows: savedRows)
                lua_rawgeti(call.state, -1, lua_Integer(Int(i) - start))
                return 1
            }
            return runtime.pushObject(try handle.results.object(at: Int(i - 1)))
        }
        let key = try call.string(2)
        if runtime.pushMethod(.results, key) { return 1 }
        return try runtime.pushConfiguration(handle, key, call)
    }

    static func luaResultsNewindex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        let key = try call.string(2)
        dropCachedObjects(call.state, results: 1)
        do { try runtime.reconfigure(handle, key: key, call) } catch let error as LuaError {
            // "bad argument #3 to '__newindex' (integer expected, ...)" names no key: say r.limit.
            guard error.kind == .badArgument(index: 3, function: "__newindex") else { throw error }
            throw LuaError(error.detail, operation: "r.\(key) = ...", suggestion: error.suggestion)
        }
        runtime.resultsReconfigured(handle)
        return 0
    }

    static func luaResultsTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        let text = try ResultsTable(handle.results, format: runtime.tableFormat).render()
        runtime.noteTextCells(handle.results)
        return call.push(text)
    }
}
