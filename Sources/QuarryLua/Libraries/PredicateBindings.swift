import CLua
import CQuarryShim
import QuarryFetch
import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarryStore
import QuarrySwiftReading

/// The Lua side of predicate(), explain() and predicates' methods: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum PredicateBindings {
    /// Globals, also fields of `quarry`.
    static let predicateLibrary: [LuaBinding] = [
        LuaBinding("predicate", luaPredicate),
        LuaBinding("explain", luaExplain)
    ]

    /// For the prelude only (set in `quarry`, not a global): `.explain on`'s text.
    static let explainHook: [LuaBinding] = [LuaBinding("__explained", luaExplained)]

    /// Methods, found through `__index`.
    static let predicateMethods: [LuaBinding] = [
        LuaBinding("swift", luaPredicateSwift),
        LuaBinding("matches", luaPredicateMatches)
    ]

    static func luaPredicate(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let format = try call.string(1)
        // `predicate(text, nil)`: a #Predicate with no captured values, as `predicate(text)`.
        let noCaptures = call.argumentCount == 2 && call.type(2) == LUA_TNIL && SwiftPredicateReader.isSwift(format)
        let (arguments, captures) = noCaptures ? ([], [:]) : try runtime.predicateInputs(call, format: format, from: 2)
        guard let (predicate, swift) = try runtime.parsePredicateAndType(format, arguments, captures, entity: nil) else { return call.pushNil() }
        pushSwiftObject(call.state, PredicateHandle(predicate, swift: swift), kind: .predicate)
        return 1
    }

    /// `explain(r)`: results, or the rows of a dictionary fetch (properties, group), whose
    /// request is compiled again in QuarryFetch for its SQL.
    static func luaExplain(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let text = try explanation(runtime, call.state, 1) else {
            throw call.typeError(1, expected: "results or dictionary rows")
        }
        return call.push(text)
    }

    /// The prelude's quarry.show prints this above what it shows under `.explain on`
    /// (nil: a value with no request behind it).
    static func luaExplained(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let text = try explanation(runtime, call.state, 1) else { return call.pushNil() }
        return call.push(text)
    }

    /// What `explain` shows for the value at `index`: results, or dictionary rows that
    /// remember their request; nil for anything else (sql() rows included: their SQL is
    /// the caller's own).
    private static func explanation(_ runtime: QuarryRuntime, _ state: OpaquePointer, _ index: Int32) throws -> String? {
        let text: String
        if let handle = swiftObject(state, index, kind: .results, as: ResultsHandle.self) {
            text = try handle.results.explain()
        } else if let query = rememberedQuery(state, index), case .dictionaries(let request) = query.source {
            text = try request.explain(in: runtime.context)
        } else {
            return nil
        }
        // Lines for a terminal: names from a file keep no control character in them.
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { ErrorRendering.escaped(String($0)) }.joined(separator: "\n")
    }

    /// `p:swift()`, `p:swift(style)`, `p:swift(entity)`, `p:swift(style, entity)`: the style
    /// is "predicate" (`#Predicate`) or "nspredicate" (`NSPredicate(format:)`); with none,
    /// an entity given alone prints both, and no argument what fits the store (`#Predicate`
    /// for SwiftData and Quarry's own, `NSPredicate` for Core Data). The entity is the one
    /// given, else the `#Predicate<T>`'s.
    static func luaPredicateSwift(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.predicateHandle(call, 1)
        var style: String?
        var entityArgument: Int32 = 2
        if call.type(2) == LUA_TSTRING, let text = try? call.string(2), ["predicate", "nspredicate"].contains(text) {
            style = text
            entityArgument = 3
        }
        let name: String
        if let entity = swiftObject(call.state, entityArgument, kind: .entity, as: EntityHandle.self) {
            name = entity.name
        } else if call.argumentCount >= entityArgument, call.type(entityArgument) != LUA_TNIL {
            name = try call.string(entityArgument)
        } else if let typeName = handle.swift?.typeName, (try? runtime.context.entity(named: typeName)) != nil {
            name = typeName
        } else {
            throw call.argumentError(
                entityArgument, "p:swift needs the entity its keys are of: p:swift(\"Item\"), p:swift(\"predicate\", \"Item\"), or a #Predicate<Item>"
            )
        }
        if style == nil, call.argumentCount < 2 {
            let capabilities = runtime.context.capabilities
            style = !capabilities.contains(.appModel) || capabilities.contains(.swiftData) ? "predicate" : "nspredicate"
        }
        let entity = try runtime.context.entity(named: name)
        let bound = try BoundPredicate(handle.predicate, entity: entity, context: runtime.context)
        let code = bound.swiftCode(names: SwiftNames(model: CoreDataModel(of: runtime.context)))
        guard let style else { return call.push(code) }
        // The NSPredicate line is the first; the #Predicate, its lets, or the comment saying why not, the rest.
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let isNSPredicate = { (line: String) in line.hasPrefix("let predicate = NSPredicate(") }
        let picked = style == "nspredicate" ? lines.filter(isNSPredicate) : lines.filter { !isNSPredicate($0) }
        return call.push(picked.isEmpty ? code : picked.joined(separator: "\n"))
    }

    static func luaPredicateMatches(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let handle = try runtime.predicateHandle(call, 1)
        let object = try runtime.object(call, 2)
        return call.push(
            try BoundPredicate(handle.predicate, entity: runtime.context.currentEntityDescription(of: object), context: runtime.context)
                .checkedMatches(object))
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
        throw LuaError("predicates have no method '\(key)' (methods: matches, swift)", suggestion: closestMatch(to: key, in: ["matches", "swift"]))
    }
}
