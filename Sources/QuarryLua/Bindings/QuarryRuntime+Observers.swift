import CLua
import CQuarryShim
import CQuarrySignals
import Foundation
import QuarryFetch
import QuarryModel
import QuarryStore

/// One registered observer: what it watches, and its Lua callback (kept in the registry
/// table `quarry.callbacks` under `callback`).
final class ObserverHandle {
    enum Target {
        case results(ResultsHandle)
        case object(ManagedObject, keys: Set<String>)
        case entity(String)
        case state(StateHandle)
        case binding(ManagedObject, key: String)
    }
    let target: Target
    let callback: Int
    var cancelled = false
    weak var runtime: QuarryRuntime?
    init(target: Target, callback: Int, runtime: QuarryRuntime) {
        self.target = target
        self.callback = callback
        self.runtime = runtime
    }
    func cancel() {
        guard !cancelled else { return }
        cancelled = true
        runtime?.forget(self)
    }
}

/// `namespace()`: observers grouped so one call ends them all.
final class NamespaceHandle {
    var members: [ObserverHandle] = []
}

/// `state(v)`: a reactive Lua value.
final class StateHandle {
    var valueRef: Int
    let namespace: NamespaceHandle?
    init(valueRef: Int, namespace: NamespaceHandle?) {
        self.valueRef = valueRef
        self.namespace = namespace
    }
}

/// `bind(o, key)`: one attribute of one object as a reactive value.
final class BindingHandle {
    let object: ManagedObject
    let key: String
    let namespace: NamespaceHandle?
    init(object: ManagedObject, key: String, namespace: NamespaceHandle?) {
        self.object = object
        self.key = key
        self.namespace = namespace
    }
}

/// Observer state kept per runtime.
final class ObserverRegistry {
    var observers: [ObserverHandle] = []
    var trackers: [ObjectIdentifier: ResultsTracker] = [:]
    /// Events waiting to be delivered; a callback that saves adds to the end, never
    /// runs reentrantly.
    var queue: [() -> Void] = []
    var delivering = false
    var token: ChangeListenerToken?
    var nextReference = 0
    /// The relationship changes of watched objects, noted before the save or rollback
    /// that observers hear next (`noteObservedRelationships`).
    var relationshipsBefore: [ObjectIdentifier: [RelationshipChange]] = [:]
}

extension QuarryRuntime {
    var observerRegistry: ObserverRegistry {
        if let registry = observerRegistryStorage { return registry }
        let registry = ObserverRegistry()
        observerRegistryStorage = registry
        return registry
    }

    // MARK: Callback references

    /// Stores the value at `index` in the registry; returns its reference.
    func reference(_ index: Int32) -> Int {
        // One numbering for every store's registry: the callbacks share one table.
        let registry = defaultStore.observerRegistry ?? within(nil) { observerRegistry }
        registry.nextReference += 1
        let absolute = lua_absindex(state, index)
        pushRegistryField(state, "quarry.callbacks")
        if lua_type(state, -1) != LUA_TTABLE {
            quarry_pop(state, 1)
            lua_createtable(state, 0, 8)
            lua_pushvalue(state, -1)
            setRegistryField(state, "quarry.callbacks")
        }
        lua_pushvalue(state, absolute)
        lua_rawseti(state, -2, lua_Integer(registry.nextReference))
        quarry_pop(state, 1)
        return registry.nextReference
    }

    func pushReference(_ ref: Int) {
        pushRegistryField(state, "quarry.callbacks")
        if lua_type(state, -1) == LUA_TTABLE { lua_rawgeti(state, -1, lua_Integer(ref)) } else { lua_pushnil(state) }
        quarry_remove(state, -2)
    }

    func release(_ ref: Int) {
        pushRegistryField(state, "quarry.callbacks")
        if lua_type(state, -1) == LUA_TTABLE {
            lua_pushnil(state)
            lua_rawseti(state, -2, lua_Integer(ref))
        }
        quarry_pop(state, 1)
    }

    func forget(_ observer: ObserverHandle) {
        // In the store whose registry holds it: `h:cancel()` names no store.
        if let store = ([defaultStore] + otherStores).first(where: { $0.observerRegistry?.observers.contains { $0 === observer } == true }),
            store !== focusedStore
        {
            return within(store.isDefault ? nil : store) { forget(observer) }
        }
        let registry = observerRegistry
        registry.observers.removeAll { $0 === observer }
        release(observer.callback)
        if case .results(let handle) = observer.target,
            !registry.observers.contains(where: { if case .results(let h) = $0.target { return h === handle } else { return false } })
        {
            registry.trackers[ObjectIdentifier(handle)] = nil
        }
        switch observer.target {
        case .entity, .results: try? context.watchRows(of: watchedEntityNames)
        default: break
        }
    }

    /// The entities whose rows live observers watch for other connections' changes: an
    /// entity observer's, and observed results' (a row they hold that another session
    /// updates is an `updated` entry, with the keys that changed).
    var watchedEntityNames: Set<String> {
        Set(
            observerRegistry.observers.compactMap { observer in
                switch observer.target {
                case .entity(let name): return name
                case .results(let handle): return handle.results.entity.name
                default: return nil
                }
            })
    }

    // MARK: Delivery

    /// Calls a callback under pcall; an error is reported and stops nothing else.
    func invoke(_ observer: ObserverHandle, _ pushArguments: () -> Int32) {
        guard !observer.cancelled else { return }
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        pushReference(observer.callback)
        let count = pushArguments()
        // A timeout or Ctrl-C that stopped the observer stops the script too, which says
        // so once; only the observer's own errors are noticed here.
        if let failure = call(argumentCount: count, resultCount: 0), quarry_should_stop() == 0 {
            writeNotice("observer: " + failure.message)
            // Counted, not raised: the save (and the other observers) finish; the shell
            // decides what the failure means for the run's status.
            observerFailures += 1
        }
    }

    func enqueue(_ event: @escaping () -> Void) {
        // Delivered later, perhaps while another store is in focus: run in this one's.
        let store = focus
        observerRegistry.queue.append { [unowned self] in within(store, event) }
    }

    func deliver() {
        let registry = observerRegistry
        guard !registry.delivering else { return }
        registry.delivering = true
        defer { registry.delivering = false }
        while !registry.queue.isEmpty {
            let event = registry.queue.removeFirst()
            event()
        }
    }

    func listenToSaves() {
        let registry = observerRegistry
        guard registry.token == nil else { return }
        noteUnheardCommits()
        let store = focus
        registry.token = context.addChangeListener { [unowned self] changes in
            self.within(store) { self.changed(changes) }
        }
    }

    /// Says once, where the store misses some outside commits, that observers hear them
    /// only at `refresh()` (a PostgreSQL schema without Quarry's triggers).
    func noteUnheardCommits() {
        if let note = context.takeUnheardCommitsNote() { writeNotice("note: " + note) }
    }

    /// After a save: each observer hears at most one event, queued in registration order.
    func changed(_ changes: ChangeSet) {
        let registry = observerRegistry
        let known = knownObjects(changes.inserted + changes.deleted + changes.updated.map(\.object))
        let gone = GoneObjects(context)
        var diffed: [ObjectIdentifier: ResultsChange] = [:]
        for observer in registry.observers where !observer.cancelled {
            switch observer.target {
            case .results(let handle):
                let id = ObjectIdentifier(handle)
                if diffed[id] == nil { diffed[id] = try? registry.trackers[id]?.apply(changes) }
                guard let change = diffed[id], !change.isEmpty else { continue }
                enqueue { [unowned self] in self.invoke(observer) { self.pushEvent(change, handle, known, gone) } }
            case .object(let object, let keys):
                guard let entry = changes.updated.first(where: { $0.object === object }) else { continue }
                let old = changes.oldValues[ObjectIdentifier(object)] ?? [:]
                // A to-one kept in a column set directly (`a.ArtistId = 3`) changed too, as
                // `o:changes()` tells, though the save names only the column.
                let related = changes.isExternal ? [] : registry.relationshipsBefore[ObjectIdentifier(object)]?.map(\.key) ?? []
                for key in Set(entry.keys).union(related).sorted() where keys.isEmpty || keys.contains(key) {
                    var observed = changes.isExternal ? .attribute : observedChange(key, of: object)
                    if changes.isExternal, let change = outsideToOneChange(key, of: object, old: old) { observed = change }
                    if case .unchanged = observed { continue }
                    let new = (try? object.value(forKey: key)) ?? .null
                    enqueue { [unowned self] in
                        self.invoke(observer) {
                            _ = self.pushObject(object)
                            pushString(self.state, key)
                            if case .relationship(let change) = observed {
                                self.pushMembers(change.old, isToMany: change.isToMany)
                                self.pushMembers(change.new, isToMany: change.isToMany)
                            } else {
                                pushValue(self.state, old[key] ?? .null)
                                pushValue(self.state, new)
                            }
                            return 4
                        }
                    }
                }
            case .entity(let name):
                // A sub-entity's objects are the entity's too.
                let inserted = changes.inserted.filter { self.context.isKind($0.entity.name, of: name) }
                var updated = changes.updated.filter { self.context.isKind($0.object.entity.name, of: name) }.map(\.object)
                var deleted = changes.deleted.filter { self.context.isKind($0.entity.name, of: name) }
                // Batch changes also name rows no object held: load those that still exist,
                // and tell of those deleted by their IDs.
                for (entity, keys) in changes.batchUpdated.sorted(by: { $0.key < $1.key }) where self.context.isKind(entity, of: name) {
                    for key in keys.sorted()
                    where !updated.contains(where: { $0.primaryKey == key && self.context.isKind($0.entity.name, of: entity) }) {
                        if let object = try? self.context.object(entityName: entity, primaryKey: key) { updated.append(object) }
                    }
                }
                for (entity, keys) in changes.batchDeleted.sorted(by: { $0.key < $1.key }) where self.context.isKind(entity, of: name) {
                    let held = Set(deleted.filter { $0.entity.name == entity }.compactMap(\.primaryKey))
                    for key in keys.sorted() where !held.contains(key) {
                        if let object = gone.object(entity, key) { deleted.append(object) }
                    }
                }
                guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { continue }
                enqueue { [unowned self] in
                    self.invoke(observer) {
                        lua_createtable(self.state, 0, 3)
                        for (field, objects) in [("inserted", inserted), ("updated", updated), ("deleted", deleted)] {
                            LuaTable.pushList(self.state, objects) { _ = self.pushObject($0) }
                            LuaTable.setField(self.state, -2, field)
                        }
                        return 1
                    }
                }
            case .binding(let object, let key):
                guard let entry = changes.updated.first(where: { $0.object === object }), entry.keys.contains(key) else { continue }
                let old = changes.oldValues[ObjectIdentifier(object)]?[key] ?? .null
                let new = (try? object.value(forKey: key)) ?? .null
                enqueue { [unowned self] in
                    self.invoke(observer) {
                        pushValue(self.state, new)
                        pushValue(self.state, old)
                        return 2
                    }
                }
            case .state:
                continue
            }
        }
    }

    /// The objects a change names, for its results events to hand out, by their root
    /// entity and key: a key alone names rows of several entities.
    func knownObjects(_ objects: [ManagedObject]) -> [String: ManagedObject] {
        var known: [String: ManagedObject] = [:]
        for object in objects {
            if let key = object.primaryKey { known["\(context.rootName(of: object.entity.name))/\(key)"] = object }
        }
        return known
    }

    /// Pushes the event table for a change of results.
    func pushEvent(_ change: ResultsChange, _ handle: ResultsHandle, _ known: [String: ManagedObject], _ gone: GoneObjects? = nil) -> Int32 {
        let s = state
        let sectioned = handle.results.isSectioned
        // One object for each gone row of this event, when the caller holds none to share.
        let gone = gone ?? GoneObjects(context)
        let entity = handle.results.entity.name
        let root = context.rootName(of: entity)
        func object(_ key: Int64) -> ManagedObject? {
            known["\(root)/\(key)"] ?? context.registeredObject(entity: entity, primaryKey: key)
                ?? (try? context.object(entityName: entity, primaryKey: key))
        }
        func position(_ p: RowPosition, _ field: String) {
            if sectioned {
                lua_pushinteger(s, lua_Integer(p.section + 1))
                LuaTable.setField(s, -2, "section")
                lua_pushinteger(s, lua_Integer(p.row + 1))
                LuaTable.setField(s, -2, "row")
            } else {
                lua_pushinteger(s, lua_Integer(p.row + 1))
                LuaTable.setField(s, -2, field)
            }
        }
        func pair(_ p: RowPosition) {
            if sectioned {
                lua_createtable(s, 2, 0)
                lua_pushinteger(s, lua_Integer(p.section + 1))
                lua_rawseti(s, -2, 1)
                lua_pushinteger(s, lua_Integer(p.row + 1))
                lua_rawseti(s, -2, 2)
            } else {
                lua_pushinteger(s, lua_Integer(p.row + 1))
            }
        }
        func pushKeys(_ keys: Set<String>) {
            let names = keys.sorted()
            lua_createtable(s, Int32(names.count), 0)
            for (j, name) in names.enumerated() {
                pushValue(s, .text(name))
                lua_rawseti(s, -2, lua_Integer(j + 1))
            }
            LuaTable.setField(s, -2, "keys")
        }
        func list(_ name: String, _ count: Int, _ fill: (Int) -> Void) {
            lua_createtable(s, Int32(count), 0)
            for i in 0..<count {
                lua_createtable(s, 0, 4)
                fill(i)
                lua_rawseti(s, -2, lua_Integer(i + 1))
            }
            LuaTable.setField(s, -2, name)
        }
        lua_createtable(s, 0, 5)
        list("deleted", change.deleted.count) { i in
            position(change.deleted[i].at, "index")
            // A row gone before anything here read it: its ID, as the entity it was.
            let key = change.deleted[i].key
            _ = pushObject(object(key) ?? gone.object(change.deletedEntities[key] ?? entity, key))
            LuaTable.setField(s, -2, "object")
        }
        list("inserted", change.inserted.count) { i in
            position(change.inserted[i].at, "index")
            _ = pushObject(object(change.inserted[i].key))
            LuaTable.setField(s, -2, "object")
        }
        list("moved", change.moved.count) { i in
            let m = change.moved[i]
            pair(m.from)
            LuaTable.setField(s, -2, "from")
            pair(m.to)
            LuaTable.setField(s, -2, "to")
            _ = pushObject(object(m.key))
            LuaTable.setField(s, -2, "object")
            // A row that moved because its own attributes changed says which (the contract's
            // `keys` on a moved entry); one moved by others' changes carries none.
            if let names = change.changedKeys[m.key], !names.isEmpty { pushKeys(names) }
        }
        list("updated", change.updated.count) { i in
            let key = change.updated[i].key
            position(change.updated[i].at, "index")
            _ = pushObject(object(key))
            LuaTable.setField(s, -2, "object")
            // The keys that changed, as the contract gives them (empty where the change
            // does not say, as a batch change of rows no object holds).
            pushKeys(change.changedKeys[key] ?? [])
        }
        if sectioned {
            lua_createtable(s, 0, 2)
            for (field, entries) in [("deleted", change.deletedSections), ("inserted", change.insertedSections)] {
                lua_createtable(s, Int32(entries.count), 0)
                for (i, entry) in entries.enumerated() {
                    lua_createtable(s, 0, 2)
                    lua_pushinteger(s, lua_Integer(entry.index + 1))
                    LuaTable.setField(s, -2, "index")
                    pushValue(s, entry.id)
                    LuaTable.setField(s, -2, "id")
                    lua_rawseti(s, -2, lua_Integer(i + 1))
                }
                LuaTable.setField(s, -2, field)
            }
            LuaTable.setField(s, -2, "sections")
        }
        return 1
    }

    /// Checks for commits by other connections; when there were some, observers hear
    /// them between `beforeOutput` and `afterOutput` (the REPL clears and redraws its line).
    /// A server session found lost meanwhile is said in one line (`sayConnectionLoss`,
    /// between the two as well), made again and read again (`reconnectWhileWaiting`), so
    /// observers and watches go on hearing.
    public func noticeOutsideChanges(beforeOutput: () -> Void = {}, afterOutput: () -> Void = {}) {
        // Every open store's other programs are heard, the session's own first.
        noticeOutsideChangesInFocus(beforeOutput: beforeOutput, afterOutput: afterOutput)
        guard focus == nil else { return }
        for store in otherStores {
            within(store) { noticeOutsideChangesInFocus(beforeOutput: beforeOutput, afterOutput: afterOutput) }
        }
    }

    private func noticeOutsideChangesInFocus(beforeOutput: () -> Void, afterOutput: () -> Void) {
        let changed: Bool
        do {
            changed = try context.refreshFromStore()
        } catch {
            changed = withoutActuallyEscaping(beforeOutput) { before in
                withoutActuallyEscaping(afterOutput) { after in
                    aroundNotes = (before, after)
                    defer { aroundNotes = nil }
                    return context.reconnectWhileWaiting()
                }
            }
        }
        guard changed else { return }
        guard !observerRegistry.queue.isEmpty else { return }
        beforeOutput()
        deliver()
        fflush(nil)
        afterOutput()
    }

    /// A lost server session's one line, wherever the engine found the loss: on standard
    /// error in a script, at the prompt in the REPL (its line cleared and redrawn around
    /// it while the REPL waits: `aroundNotes`).
    func sayConnectionLoss(_ note: String) {
        aroundNotes?.before()
        writeNotice("note: " + note)
        aroundNotes?.after()
    }

    // MARK: Lua functions

    /// After `r.predicate = ...` and friends: observers of `r` hear the difference.
    func resultsReconfigured(_ handle: ResultsHandle) {
        let registry = observerRegistry
        guard let tracker = registry.trackers[ObjectIdentifier(handle)], let change = try? tracker.reload(), !change.isEmpty else { return }
        for observer in registry.observers where !observer.cancelled {
            guard case .results(let h) = observer.target, h === handle else { continue }
            enqueue { [unowned self] in self.invoke(observer) { self.pushEvent(change, handle, [:]) } }
        }
        deliver()
    }

    func namespaceOption(_ call: LuaCall, _ index: Int32) -> NamespaceHandle? {
        defer { quarry_pop(call.state, 1) }
        LuaTable.field(call.state, index, "namespace")
        return swiftObject(call.state, -1, kind: .namespace, as: NamespaceHandle.self)
    }

    /// `b:observe(fn)` / `s:observe(fn)`: the callback is argument 2.
    func addObserver(_ call: LuaCall, _ target: ObserverHandle.Target, namespace: NamespaceHandle?) throws -> Int32 {
        guard call.type(2) == LUA_TFUNCTION else { throw call.typeError(2, expected: "function") }
        let observer = ObserverHandle(target: target, callback: reference(2), runtime: self)
        observerRegistry.observers.append(observer)
        namespace?.members.append(observer)
        listenToSaves()
        pushSwiftObject(call.state, observer, kind: .observer)
        return 1
    }
}

/// Objects for rows another program deleted before anything here read them, made once per
/// change: every observer that hears one row gets the same object, and so the same Lua
/// value, as for a row that had been read.
final class GoneObjects {
    private let context: ObjectContext
    private var made: [String: ManagedObject] = [:]

    init(_ context: ObjectContext) { self.context = context }

    func object(_ entity: String, _ key: Int64) -> ManagedObject? {
        let id = "\(entity)/\(key)"
        if let object = made[id] { return object }
        let object = context.deletedObject(entityName: entity, primaryKey: key)
        made[id] = object
        return object
    }
}
