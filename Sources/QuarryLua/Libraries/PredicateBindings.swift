import CLua
import CQuarryShim
import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarryStore

/// The Lua side of predicate(), explain() and predicates' methods: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum PredicateBindings {
    /// Globals, also fields of `quarry`.
    static let predicateLibrary: [LuaBinding] = [
        LuaBinding("predicate", luaPredicate),
        LuaBinding("explain", luaExplain)
    ]

    /// Methods, found through `__index`.
    static let predicateMethods: [LuaBinding] = [
        LuaBinding("swift", luaPredicateSwift),
        LuaBinding("matches", luaPredicateMatches)
    ]

    static func luaPredicate(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let format = try call.string(1)
        let (arguments, captures) = try runtime.predicateInputs(call, format: format, from: 2)
        guard let (predicate, swift) = try runtime.parsePredicateAndType(format, arguments, captures, entity: nil) else { return call.pushNil() }
        pushSwiftObject(call.state, PredicateHandle(predicate, swift: swift), kind: .predicate)
        return 1
    }

    static func luaExplain(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.results(call, 1)
        // Lines for a terminal: names from a file keep no control character in them.
        return call.push(
            try handle.results.explain().split(separator: "\n", omittingEmptySubsequences: false)
                .map { ErrorRendering.escaped(String($0)) }.joined(separator: "\n"))
    }

    static func luaPredicateSwift(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.predicateHandle(call, 1)
        let name: String
        if let entity = swiftObject(call.state, 2, kind: .entity, as: EntityHandle.self) { name = entity.name } else { name = try call.string(2) }
        let entity = try runtime.context.entity(named: name)
        return call.push(
            try BoundPredicate(handle.predicate, entity: entity, context: runtime.context)
                .swiftCode(names: SwiftNames(model: CoreDataModel(of: runtime.context))))
    }

    static func luaPredicateMatches(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.predicateHandle(call, 1)
        let object = try runtime.object(call, 2)
        return call.push(
            try BoundPredicate(handle.predicate, entity: runtime.context.currentEntityDescription(of: object), context: runtime.context).matches(
                object))
    }

    static let predicateMetamethods: [LuaBinding] = [
        LuaBinding("__tostring", luaPredicateTostring),
        LuaBinding("__index", luaPredicateIndex)
    ]

    static func luaPredicateTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        call.push(try runtime.predicateHandle(call, 1).predicate.description)
    }

    static func luaPredicateIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        _ = try runtime.predicateHandle(call, 1)
        let key = try call.string(2)
        if runtime.pushMethod(.predicate, key) { return 1 }
        throw LuaError("predicates have no method '\(key)' (methods: matches, swift)")
    }
}
