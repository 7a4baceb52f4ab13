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
        LuaBinding("__walk", luaWalk),
        LuaBinding("swift", luaSwift)
    ]

    /// Methods, found through `__index`.
    static let resultsMethods: [LuaBinding] = [
        LuaBinding("configure", luaResultsConfigure),
        LuaBinding("first", luaResultsFirst),
        LuaBinding("ids", luaResultsIds),
        LuaBinding("totable", luaResultsTotable),
        LuaBinding("swift", luaSwift)
    ]

    static func luaFetch(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        try runtime.pushAnswer(try runtime.request(call, from: 1, entity: nil))
    }

    static func luaCount(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        // `count(r)`, as SQL's count() takes what it counts: Lua's `#` counts results.
        if swiftObject(call.state, 1, kind: .results, as: ResultsHandle.self) != nil {
            throw call.argumentError(
                1, "string expected, got results; #r counts the objects results hold, count(\"Entity\", ...) counts rows without fetching")
        }
        let request = try runtime.request(call, from: 1, entity: nil)
        if request.result == "dictionaries" { return call.push(try runtime.countRows(request)) }
        runtime.noteKeysCoreDataRefuses(request.request)
        let results = try request.request.execute(in: runtime.context)
        // `.explain on`: the COUNT's SQL and plan, as a printed fetch's are shown (a
        // number printed carries no request to explain afterwards).
        if runtime.explainsPrintedResults { runtime.console.write(try results.explainCount() + "\n") }
        let n = try results.count()
        runtime.noteTextCells(results)
        return call.push(n)
    }

    /// `r:swift(style)` and `swift(rows, style)`: the Swift for the request that made
    /// results or dictionary rows (`SwiftRequestExport`).
    static func luaSwift(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let export: SwiftRequestExport
        if let handle = swiftObject(call.state, 1, kind: .results, as: ResultsHandle.self) {
            export = try SwiftRequestExport(handle.results.request, in: runtime.context)
        } else if let query = rememberedQuery(call.state, 1), case .dictionaries(let request) = query.source {
            export = try SwiftRequestExport(request.base, dictionary: request, in: runtime.context)
        } else {
            throw call.argumentError(1, "expected results, or the rows of fetch{ ..., result = \"dictionaries\" }")
        }
        var style: SwiftRequestStyle?
        if let name = try call.optionalString(2) {
            guard let chosen = SwiftRequestStyle(rawValue: name.lowercased()) else {
                throw call.argumentError(
                    2, "style must be \(SwiftRequestStyle.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")), got '\(name)'")
            }
            style = chosen
        }
        return call.push(try export.code(style: style))
    }

    /// The flat i-th object of any results; the prelude wraps it as r:objects().
    static func luaObjectat(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        let i = try call.integer(2)
        guard i >= 1 else { return call.pushNil() }
        if let walk = handle.walk { return runtime.pushObject(try handle.results.object(at: Int(i - 1), in: walk)) }
        return runtime.pushObject(try handle.results.object(at: Int(i - 1)))
    }

    /// `r:objects()`'s walk (see the prelude): the objects `r` held when it began, in
    /// order, sectioned or not (`ResultsWalk`).
    static func luaWalk(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        let walk = ResultsHandle(results: handle.results, format: handle.format, arguments: handle.arguments, variables: handle.variables)
        walk.object = handle.object
        walk.walk = try handle.results.beginWalk()
        if handle.results.isSectioned { walk.walkSections = try runtime.sections(handle) }
        pushSwiftObject(call.state, walk, kind: .results)
        return 1
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
