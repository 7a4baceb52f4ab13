import CLua
import CQuarryShim
import QuarryPredicates
import QuarryStore

/// A predicate made in Lua with `predicate(...)`, bound to an entity when first used.
final class PredicateHandle {
    let predicate: Predicate
    init(_ predicate: Predicate) { self.predicate = predicate }
}

extension QuarryRuntime {
    func installPredicateFunctions() {
        installNull()
        register(Self.predicateLibrary)
        registerMethods(.predicate, Self.predicateMethods)
    }

    /// `null` and `quarry.null`: nil where a Lua table cannot hold nil (`args = { null }`,
    /// `vars = { X = null }`). One shared table, recognised by identity.
    private func installNull() {
        let s = state
        lua_createtable(s, 0, 0)
        lua_createtable(s, 0, 2)
        pushFunction("__tostring") { call in call.push("null") }
        LuaTable.setField(s, -2, "__tostring")
        pushFunction("__newindex") { _ in throw LuaError("null holds no fields") }
        LuaTable.setField(s, -2, "__newindex")
        lua_setmetatable(s, -2)
        lua_pushvalue(s, -1)
        setRegistryField(s, nullRegistryKey)
        setGlobalAndQuarryField("null")
    }

    /// The predicate a `predicate(...)` object at `index` holds, or nil for any other value.
    func predicateObject(_ state: OpaquePointer, _ index: Int32) -> Predicate? {
        swiftObject(state, index, kind: .predicate, as: PredicateHandle.self)?.predicate
    }

    private func predicateHandle(_ call: LuaCall, _ index: Int32) throws -> PredicateHandle {
        guard let handle = swiftObject(call.state, index, kind: .predicate, as: PredicateHandle.self) else {
            throw call.typeError(index, expected: "predicate")
        }
        return handle
    }

    func predicateMetamethods() -> [(String, LuaFunctionBody)] {
        [
            ("__tostring", { [unowned self] call in call.push(try self.predicateHandle(call, 1).predicate.description) }),
            ("__index", { [unowned self] call in
                _ = try self.predicateHandle(call, 1)
                let key = try call.string(2)
                if self.pushMethod(.predicate, key) { return 1 }
                throw LuaError("predicates have no method '\(key)' (methods: matches, swift)")
            }),
        ]
    }

    /// Globals (also fields of `quarry`), registered as lua.c registers a library: name → function.
    static let predicateLibrary: [LuaBinding] = [
        LuaBinding("predicate", QuarryRuntime.luaPredicate),
        LuaBinding("explain", QuarryRuntime.luaExplain),
    ]

    /// Methods, found through `__index`.
    static let predicateMethods: [LuaBinding] = [
        LuaBinding("swift", QuarryRuntime.luaPredicateSwift),
        LuaBinding("matches", QuarryRuntime.luaPredicateMatches),
    ]

    // MARK: Bindings

    func luaPredicate(_ call: LuaCall) throws -> Int32 {
        let format = try call.string(1)
        let arguments = try call.predicateArguments(from: 2)
        guard let predicate = try self.parsePredicate(format, arguments, [:]) else { return call.pushNil() }
        pushSwiftObject(call.state, PredicateHandle(predicate), kind: .predicate)
        return 1
    }

    func luaExplain(_ call: LuaCall) throws -> Int32 {
        let handle = try self.results(call, 1)
        return call.push(try handle.results.explain())
    }

    func luaPredicateSwift(_ call: LuaCall) throws -> Int32 {
        let handle = try self.predicateHandle(call, 1)
        let name: String
        if let entity = swiftObject(call.state, 2, kind: .entity, as: EntityHandle.self) { name = entity.name }
        else { name = try call.string(2) }
        let entity = try self.context.entity(named: name)
        return call.push(try BoundPredicate(handle.predicate, entity: entity, context: self.context).swiftCode())
    }

    func luaPredicateMatches(_ call: LuaCall) throws -> Int32 {
        let handle = try self.predicateHandle(call, 1)
        let object = try self.object(call, 2)
        return call.push(try BoundPredicate(handle.predicate, entity: self.context.currentEntityDescription(of: object), context: self.context).matches(object))
    }
}
