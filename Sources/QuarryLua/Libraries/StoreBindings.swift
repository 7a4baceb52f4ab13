import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

/// The Lua side of several stores at once: `open()`, `stores()`, `copy()` and a store
/// handle's methods, tables of name → function (`LuaBinding`) as the other libraries.
enum StoreBindings {
    /// Globals, also fields of `quarry`.
    static let storeLibrary: [LuaBinding] = [
        LuaBinding("open", luaOpen),
        LuaBinding("stores", luaStores),
        LuaBinding("copy", luaCopy)
    ]

    /// The globals that take a store as their first argument (`fetch(b, "Item")`), working
    /// on it as they work on the session's store without one.
    static let storeTakingFunctions: Set<String> = [
        "fetch", "count", "save", "rollback", "haschanges", "refresh", "historytoken", "sql", "export", "import",
        "watch", "observe", "summarize", "entities", "entity", "relate", "format", "model"
    ]

    /// What a closed store's handle still answers.
    static let worksOnClosedStores: Set<String> = ["__tostring", "__gc", "__eq", "__close", "typeof", "stores"]

    /// Methods, found through `__index`.
    static let storeMethods: [LuaBinding] = [
        LuaBinding("close", luaClose)
    ]

    static let storeMetamethods: [LuaBinding] = [
        LuaBinding("__index", luaStoreIndex),
        LuaBinding("__tostring", luaStoreTostring)
    ]

    /// `open(location [, { readonly = true, model = "App.momd" }])`.
    static func luaOpen(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let location = try call.string(1)
        guard !location.isEmpty else { throw call.argumentError(1, "a location is needed (a file, :memory: or a postgres:// URL)") }
        var readOnly = false
        var model: String?
        if !call.isNoneOrNil(2) {
            try call.table(2)
            try QuarryRuntime.checkOptions(call, 2, allowed: ["readonly", "model"], operation: "open")
            switch LuaTable.field(call.state, 2, "readonly") {
            case LUA_TNIL: break
            case LUA_TBOOLEAN: readOnly = lua_toboolean(call.state, -1) != 0
            default:
                quarry_pop(call.state, 1)
                throw OptionError("readonly", mustBe: "true or false", got: call.typeName(-1), operation: "open")
            }
            quarry_pop(call.state, 1)
            switch LuaTable.field(call.state, 2, "model") {
            case LUA_TNIL: break
            case LUA_TSTRING: model = luaString(call.state, -1)
            default:
                quarry_pop(call.state, 1)
                throw OptionError("model", mustBe: "the path of a model file", got: call.typeName(-1), operation: "open")
            }
            quarry_pop(call.state, 1)
        }
        guard let opener = runtime.settings.openStore else {
            throw LuaError("this session opens no other store", operation: "open")
        }
        let (context, name) = try opener(StoreOpening(location: location, readOnly: readOnly, model: model))
        let store = runtime.adopt(context, named: name)
        // A model for a store that does not carry one in its own layout defines its entities.
        if let model, !context.capabilities.contains(.appModel) {
            do { _ = try runtime.within(store) { try runtime.loadModel(model) } } catch {
                runtime.close(store)
                throw error
            }
        }
        pushSwiftObject(call.state, store, kind: .store)
        return 1
    }

    /// `stores()`: the open stores, the session's own first.
    static func luaStores(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        LuaTable.pushList(call.state, [runtime.defaultStore] + runtime.otherStores) { pushSwiftObject(call.state, $0, kind: .store) }
        return 1
    }

    /// `b:close()`: refused while it has changes not saved, as `.open` refuses.
    static func luaClose(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let store = swiftObject(call.state, 1, kind: .store, as: OpenedStore.self) else { throw call.typeError(1, expected: "store") }
        guard !store.isDefault else {
            throw LuaError("the session's store stays open (.open replaces it; it closes at exit)", operation: "close")
        }
        if let pending = store.opened?.pendingChangesSummary {
            throw LuaError("\(pending): save(b) or rollback(b) first", operation: "close \(store.name)")
        }
        runtime.close(store)
        return 0
    }

    /// `b.Item`: the entity of that store (its methods as any entity's: `b.Item:fetch()`);
    /// `b:close()` through the methods.
    static func luaStoreIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let store = swiftObject(call.state, 1, kind: .store, as: OpenedStore.self) else { throw call.typeError(1, expected: "store") }
        let key = try call.string(2)
        if runtime.pushMethod(.store, key) { return 1 }
        let name = runtime.resolvedEntityName(key)
        guard runtime.context.entities.contains(where: { $0.name == name }) else {
            let names = runtime.context.entities.map(\.name)
            throw LuaError(
                "\(runtime.name(of: store)) has no entity '\(key)'", suggestion: closestMatch(to: key, in: names),
                remedy: names.isEmpty ? "it has no entities yet: entity(b, \"\(key)\", { ... }) defines one" : nil)
        }
        return runtime.pushEntity(name)
    }

    static func luaStoreTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let store = swiftObject(call.state, 1, kind: .store, as: OpenedStore.self) else { throw call.typeError(1, expected: "store") }
        return call.push(ErrorRendering.escaped("store \(runtime.name(of: store))" + (store.isClosed ? " (closed)" : "")))
    }

    /// `copy(objects, b [, entity])`: copies of the objects (results, a list of objects or
    /// one object) made in store `b` (see `QuarryRuntime.copy`); returns them and the keys
    /// left out.
    static func luaCopy(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let sources: [ManagedObject]
        if let handle = swiftObject(call.state, 1, kind: .results, as: ResultsHandle.self) {
            sources = try runtime.allObjects(handle)
        } else if userdataKind(call.state, 1) == UserdataKind.object.rawValue {
            sources = [try runtime.object(call, 1)]
        } else if call.type(1) == LUA_TTABLE {
            sources = try LuaTable.array(call.state, 1) { i in
                guard userdataKind(call.state, -1) == UserdataKind.object.rawValue, let object = try? runtime.object(call, -1) else {
                    throw call.argumentError(1, "item \(i) is \(call.typeName(-1)), not an object")
                }
                return object
            }
        } else {
            throw call.typeError(1, expected: "results, an object or a list of objects")
        }
        guard let target = swiftObject(call.state, 2, kind: .store, as: OpenedStore.self) else { throw call.typeError(2, expected: "store") }
        if target.isClosed { throw LuaError("\(target.name) is closed: open() it again to use it", operation: "copy") }
        let entity = try call.optionalString(3)
        let copied: (copies: [ManagedObject], leftOut: [String])
        do {
            copied = try runtime.within(target.isDefault ? nil : target) {
                try runtime.copy(sources, as: entity.map(runtime.resolvedEntityName))
            }
        } catch StoreError.unknownEntity(let name, _) {
            // Said of the target: the objects' own store has the entity.
            throw LuaError(
                "\(target.name) has no entity '\(name)' to copy into: define it there first, or name one of its entities, as copy(objects, store, \"Entity\")",
                operation: "copy")
        }
        let (copies, leftOut) = copied
        LuaTable.pushList(call.state, copies) { _ = runtime.pushObject($0) }
        LuaTable.pushList(call.state, leftOut) { pushString(call.state, $0) }
        return 2
    }
}
