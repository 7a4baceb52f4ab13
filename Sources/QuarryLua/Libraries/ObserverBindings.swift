import CLua
import CQuarryShim
import CQuarrySignals
import Foundation
import QuarryFetch
import QuarryModel
import QuarryStore

/// The Lua side of observe(), bind(), state(), namespace() and their methods: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum ObserverBindings {
    /// Globals, also fields of `quarry`.
    static let observerLibrary: [LuaBinding] = [
        LuaBinding("observe", luaObserve),
        LuaBinding("bind", luaBind),
        LuaBinding("state", luaState),
        LuaBinding("namespace", luaNamespace)
    ]

    /// Methods, found through `__index`.
    static let bindingMethods: [LuaBinding] = [
        LuaBinding("observe", luaBindingObserve)
    ]

    /// Methods, found through `__index`.
    static let stateMethods: [LuaBinding] = [
        LuaBinding("observe", luaStateObserve)
    ]

    /// Methods, found through `__index`.
    static let observerMethods: [LuaBinding] = [
        LuaBinding("cancel", luaObserverCancel)
    ]

    /// Methods, found through `__index`.
    static let namespaceMethods: [LuaBinding] = [
        LuaBinding("cancel", luaNamespaceCancel)
    ]

    static func luaObserve(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let observer: ObserverHandle
        var last = call.argumentCount
        var namespace: NamespaceHandle?
        if last >= 2, call.type(last) == LUA_TTABLE {
            if LuaTable.field(call.state, last, "namespace") == LUA_TUSERDATA {
                namespace = swiftObject(call.state, -1, kind: .namespace, as: NamespaceHandle.self)
            }
            quarry_pop(call.state, 1)
            if namespace != nil { last -= 1 }
        }
        guard call.type(last) == LUA_TFUNCTION else { throw call.typeError(last, expected: "function") }
        let callback = runtime.reference(last)
        if let results = swiftObject(call.state, 1, kind: .results, as: ResultsHandle.self) {
            if runtime.observerRegistry.trackers[ObjectIdentifier(results)] == nil {
                do { runtime.observerRegistry.trackers[ObjectIdentifier(results)] = try ResultsTracker(results.results) } catch {
                    runtime.release(callback)
                    throw error
                }
            }
            observer = ObserverHandle(target: .results(results), callback: callback, runtime: runtime)
            // Another process's update of a row the results hold, which changes neither
            // what they hold nor its order, reaches it too.
            do { try runtime.context.watchRows(of: runtime.watchedEntityNames.union([results.results.entity.name])) } catch {
                runtime.release(callback)
                throw error
            }
        } else if let object = swiftObject(call.state, 1, kind: .object, as: ManagedObject.self) {
            // An object of a store `.open` closed would never be heard of again.
            if object.isForeign(to: runtime.context) {
                runtime.release(callback)
                throw StoreError.closed
            }
            var keys: Set<String> = []
            if last == 3 {
                guard call.type(2) == LUA_TTABLE else {
                    runtime.release(callback)
                    throw call.typeError(2, expected: "table of keys")
                }
                keys = Set(LuaTable.array(call.state, 2) { _ in luaString(call.state, -1) })
            }
            observer = ObserverHandle(target: .object(object, keys: keys), callback: callback, runtime: runtime)
        } else if call.type(1) == LUA_TSTRING || swiftObject(call.state, 1, kind: .entity, as: EntityHandle.self) != nil {
            let name = swiftObject(call.state, 1, kind: .entity, as: EntityHandle.self)?.name ?? luaString(call.state, 1)
            do { _ = try runtime.context.entity(named: name) } catch {
                runtime.release(callback)
                throw error
            }
            observer = ObserverHandle(target: .entity(name), callback: callback, runtime: runtime)
            // Another process's changes to rows no object holds reach it too.
            do { try runtime.context.watchRows(of: runtime.watchedEntityNames.union([name])) } catch {
                runtime.release(callback)
                throw error
            }
        } else {
            runtime.release(callback)
            throw call.typeError(1, expected: "results, object or entity name")
        }
        runtime.observerRegistry.observers.append(observer)
        namespace?.members.append(observer)
        runtime.listenToSaves()
        pushSwiftObject(call.state, observer, kind: .observer)
        return 1
    }

    static func luaBind(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let object = try runtime.currentObject(call, 1)
        let key = try call.string(2)
        guard object.entity.attribute(named: key) != nil else {
            if object.entity.relationship(named: key) != nil {
                throw LuaError("\(object.entity.name).\(key) is a relationship; bind takes an attribute", operation: "bind")
            }
            throw object.entity.unknownKey(key)
        }
        let namespace = call.type(3) == LUA_TTABLE ? runtime.namespaceOption(call, 3) : nil
        pushSwiftObject(call.state, BindingHandle(object: object, key: key, namespace: namespace), kind: .binding)
        return 1
    }

    static func luaState(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let namespace = call.type(2) == LUA_TTABLE ? runtime.namespaceOption(call, 2) : nil
        if call.argumentCount == 0 { lua_pushnil(call.state) }
        let ref = runtime.reference(1)
        pushSwiftObject(call.state, StateHandle(valueRef: ref, namespace: namespace), kind: .state)
        return 1
    }

    static func luaBindingObserve(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let binding = swiftObject(call.state, 1, kind: .binding, as: BindingHandle.self) else { throw call.typeError(1, expected: "binding") }
        return try runtime.addObserver(call, .binding(binding.object, key: binding.key), namespace: binding.namespace)
    }

    static func luaStateObserve(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let state = swiftObject(call.state, 1, kind: .state, as: StateHandle.self) else { throw call.typeError(1, expected: "state") }
        return try runtime.addObserver(call, .state(state), namespace: state.namespace)
    }

    static func luaNamespace(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        pushSwiftObject(call.state, NamespaceHandle(), kind: .namespace)
        return 1
    }

    static func luaObserverCancel(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        swiftObject(call.state, 1, kind: .observer, as: ObserverHandle.self)?.cancel()
        return 0
    }

    static func luaNamespaceCancel(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let ns = swiftObject(call.state, 1, kind: .namespace, as: NamespaceHandle.self) else { throw call.typeError(1, expected: "namespace") }
        for member in ns.members { member.cancel() }
        ns.members = []
        return 0
    }

    static let bindingMetamethods: [LuaBinding] = [
        LuaBinding("__index", luaBindingIndex),
        LuaBinding("__newindex", luaBindingNewindex),
        LuaBinding("__tostring", luaBindingTostring)
    ]

    static let stateMetamethods: [LuaBinding] = [
        LuaBinding("__index", luaStateIndex),
        LuaBinding("__newindex", luaStateNewindex),
        LuaBinding("__tostring", luaStateTostring)
    ]

    static func luaBindingIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let binding = swiftObject(call.state, 1, kind: .binding, as: BindingHandle.self) else { throw call.typeError(1, expected: "binding") }
        let key = try call.string(2)
        if key == "value" {
            pushAttributeValue(
                call.state, try binding.object.value(forKey: binding.key), of: binding.object.entity.attribute(named: binding.key),
                day: binding.object.keepsDays(binding.key))
            return 1
        }
        if runtime.pushMethod(.binding, key) { return 1 }
        throw LuaError("bindings have .value and :observe(fn), not '\(key)'")
    }

    static func luaBindingNewindex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let binding = swiftObject(call.state, 1, kind: .binding, as: BindingHandle.self) else { throw call.typeError(1, expected: "binding") }
        guard try call.string(2) == "value" else { throw LuaError("bindings have only .value to assign") }
        guard let value = try attributeValue(call.state, 3, for: binding.object.entity.attribute(named: binding.key)) else {
            throw LuaError.cannotHold(binding.object.entity.name, binding.key, call.typeName(3))
        }
        try binding.object.setValue(value, forKey: binding.key)
        return 0
    }

    static func luaBindingTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let binding = swiftObject(call.state, 1, kind: .binding, as: BindingHandle.self) else { throw call.typeError(1, expected: "binding") }
        return call.push("binding \(binding.object.objectID).\(binding.key)")
    }

    static func luaStateIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let handle = swiftObject(call.state, 1, kind: .state, as: StateHandle.self) else { throw call.typeError(1, expected: "state") }
        let key = try call.string(2)
        if key == "value" {
            runtime.pushReference(handle.valueRef)
            return 1
        }
        if runtime.pushMethod(.state, key) { return 1 }
        throw LuaError("states have .value and :observe(fn), not '\(key)'")
    }

    static func luaStateNewindex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        guard let handle = swiftObject(call.state, 1, kind: .state, as: StateHandle.self) else { throw call.typeError(1, expected: "state") }
        guard try call.string(2) == "value" else { throw LuaError("states have only .value to assign") }
        let oldRef = handle.valueRef
        handle.valueRef = runtime.reference(3)
        let newRef = handle.valueRef
        for observer in runtime.observerRegistry.observers where !observer.cancelled {
            guard case .state(let s) = observer.target, s === handle else { continue }
            runtime.enqueue { [unowned runtime] in
                runtime.invoke(observer) {
                    runtime.pushReference(newRef)
                    runtime.pushReference(oldRef)
                    return 2
                }
            }
        }
        // The old value stays referenced until its events are delivered.
        runtime.enqueue { [unowned runtime] in runtime.release(oldRef) }
        runtime.deliver()
        return 0
    }

    static func luaStateTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        call.push("state")
    }

    /// Observers and namespaces: their methods, and their kind as their text.
    static func simpleMetamethods(_ kind: UserdataKind) -> [LuaBinding] {
        [
            LuaBinding("__index") { runtime, call in
                let key = try call.string(2)
                if runtime.pushMethod(kind, key) { return 1 }
                throw LuaError("\(kind.rawValue)s have no field or method '\(key)' (methods: cancel)")
            },
            LuaBinding("__tostring") { _, call in call.push(kind.rawValue) }
        ]
    }
}
