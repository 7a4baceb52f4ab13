import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

/// What a script asks to open with `open(location [, options])`; the shell decides how
/// (which engine, read-only under `--readonly`, what `--safe` allows), so the Lua layer
/// names no engine.
public struct StoreOpening {
    public let location: String
    public let readOnly: Bool
    /// A Core Data model file for a store that carries none (`model =`).
    public let model: String?
}

/// A store the session holds: the one it started with (`isDefault`, whose context `.open`
/// may replace) or one a script opened with `open()`. Each keeps what is its own: its
/// entities' handles, its observers, its watches, and the scope its rows' Lua identities
/// live in (the same key names unrelated rows in two stores).
final class OpenedStore {
    let isDefault: Bool
    /// The context of a store `open()` made (nil for the default, which the runtime holds).
    let opened: ObjectContext?
    /// How scripts and messages name a store `open()` opened: the location, any password
    /// left out (see `QuarryRuntime.name(of:)` for the default).
    let name: String
    /// Prefixes its entities' names in the row identity tables ("" for the default).
    let identityScope: String
    var entityHandles: [String: EntityHandle] = [:]
    var observerRegistry: ObserverRegistry?
    var stateWatch = 0
    var outsideChangeWatch = 0
    private(set) var isClosed = false

    init(default: Void) {
        isDefault = true
        opened = nil
        name = "the session's store"
        identityScope = ""
    }

    init(context: ObjectContext, name: String, number: Int) {
        isDefault = false
        opened = context
        self.name = name
        identityScope = "\u{1}\(number)\u{1}"
    }

    func markClosed() { isClosed = true }
}

extension QuarryRuntime {
    /// How messages name a store: the session's by its file (no password), else
    /// "the session's store" (in memory); another by the location it was opened with.
    func name(of store: OpenedStore) -> String {
        guard store.isDefault else { return store.name }
        guard let path = openedDefaultContext?.path, !path.isEmpty, path != ":memory:" else { return store.name }
        return URLSecrets.withoutPasswords(in: path)
    }

    /// The store a context belongs to, among those `open()` made (closed since or not);
    /// nil for the default store (or one `.open` closed).
    func openedStore(of context: ObjectContext?) -> OpenedStore? {
        guard let context else { return nil }
        return otherStores.first { $0.opened === context } ?? closedStores.first { $0.opened === context }
    }

    /// The store a call is about, from its first argument: a store handle, or a value that
    /// belongs to a store (an object, results, a section, a set, an entity handle, a
    /// binding, dictionary rows). Nil: the default store.
    func storeOfArgument(_ state: OpaquePointer, _ index: Int32) -> OpenedStore? {
        switch userdataKind(state, index) {
        case UserdataKind.store.rawValue:
            guard let store = swiftObject(state, index, kind: .store, as: OpenedStore.self), !store.isDefault else { return nil }
            return store
        case UserdataKind.object.rawValue:
            if userdataPayload(state, index, kind: .object) == 0 {
                // A row not yet made an object: the store its batch was read from.
                defer { quarry_pop(state, 1) }
                guard lua_getiuservalue(state, index, 1) == LUA_TUSERDATA,
                    let batch = swiftObject(state, -1, kind: .rows, as: RowBatch.self)
                else { return nil }
                return openedStore(of: batch.owningContext)
            }
            return openedStore(of: swiftObject(state, index, kind: .object, as: ManagedObject.self)?.managedObjectContext)
        case UserdataKind.results.rawValue:
            return openedStore(of: swiftObject(state, index, kind: .results, as: ResultsHandle.self)?.results.context)
        case UserdataKind.section.rawValue:
            return openedStore(of: swiftObject(state, index, kind: .section, as: SectionHandle.self)?.results.results.context)
        case UserdataKind.set.rawValue:
            return openedStore(of: swiftObject(state, index, kind: .set, as: RelationshipSet.self)?.object.managedObjectContext)
        case UserdataKind.entity.rawValue:
            return swiftObject(state, index, kind: .entity, as: EntityHandle.self)?.store
        case UserdataKind.binding.rawValue:
            return openedStore(of: swiftObject(state, index, kind: .binding, as: BindingHandle.self)?.object.managedObjectContext)
        default:
            guard lua_type(state, index) == LUA_TTABLE, let query = rememberedQuery(state, index) else { return nil }
            return openedStore(of: query.context)
        }
    }

    /// Runs `body` with `store` the store that `context` and the per-store state mean
    /// (nil: the default), then puts back the one before.
    func within<T>(_ store: OpenedStore?, _ body: () throws -> T) rethrows -> T {
        let outer = focus
        focus = store
        defer { focus = outer }
        return try body()
    }

    /// Sets which store a bound call works on, before it runs (see `storeOfArgument`). A
    /// global that takes a store first (`fetch(b, "Item")`) has it taken off the stack, so
    /// it reads its arguments as it always did; a closed store's handle refuses the call.
    func focusCall(_ function: BoundFunction, _ call: LuaCall) throws {
        guard storesWereOpened, call.argumentCount >= 1 else {
            focus = nil
            return
        }
        let state = call.state
        if userdataKind(state, 1) == UserdataKind.store.rawValue, let store = swiftObject(state, 1, kind: .store, as: OpenedStore.self) {
            if store.isClosed, !StoreBindings.worksOnClosedStores.contains(function.name) {
                throw LuaError(
                    "\(name(of: store)) is closed: open() it again to use it", operation: function.name.hasPrefix("__") ? nil : function.name)
            }
            focus = store.isDefault ? nil : store
            if function.takesStore { quarry_remove(state, 1) }
            return
        }
        focus = storeOfArgument(state, 1)
        // Results, objects and sets of a store b:close() closed refuse as its handle does.
        if let store = focus, store.isClosed, !StoreBindings.worksOnClosedStores.contains(function.name) {
            throw LuaError(
                "\(name(of: store)) is closed: open() it again and fetch there", operation: function.name.hasPrefix("__") ? nil : function.name)
        }
        // `p:matches(o)`: a predicate is of no store; the object it is asked of is.
        if focus == nil, call.argumentCount >= 2, userdataKind(state, 1) == UserdataKind.predicate.rawValue {
            focus = storeOfArgument(state, 2)
        }
    }
}
