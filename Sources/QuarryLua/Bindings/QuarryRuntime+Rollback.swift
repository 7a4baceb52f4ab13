import CLua
import QuarryFetch
import QuarryStore

/// What observers hear of `rollback()`. Nothing stored changed, so each hears only what
/// it was told of the unsaved changes, going back: results whose contents were read with
/// them (at `observe`, or at a reconfiguration) hear the difference from what they last
/// heard, as after a save; object, binding and entity observers hear the values that went
/// back to the stored ones. At most one event per observer (an object observer: one per
/// key, as for a save), in the order they were registered.
extension QuarryRuntime {
    func rolledBack(_ discarded: RolledBack) {
        guard let registry = observerRegistryStorage, !registry.observers.isEmpty else { return }
        let known = knownObjects(discarded.deleted + discarded.reverted.map(\.object))
        let changedKeys = Set(discarded.reverted.compactMap(\.object.primaryKey))
        var diffed: [ObjectIdentifier: ResultsChange] = [:]
        for observer in registry.observers where !observer.cancelled {
            switch observer.target {
            case .results(let handle):
                let id = ObjectIdentifier(handle)
                if diffed[id] == nil, let tracker = registry.trackers[id], tracker.holdsPendingChanges {
                    // The contents they were last told of included unsaved changes: read again.
                    diffed[id] = try? tracker.reload(changed: changedKeys)
                }
                guard let change = diffed[id], !change.isEmpty else { continue }
                enqueue { [unowned self] in self.invoke(observer) { self.pushEvent(change, handle, known) } }
            case .object(let object, let keys):
                guard let entry = discarded.reverted.first(where: { $0.object === object }) else { continue }
                // A to-one kept in a column set directly went back too, as noted.
                let related = registry.relationshipsBefore[ObjectIdentifier(object)]?.map(\.key) ?? []
                for key in Set(entry.values.keys).union(related).sorted() where keys.isEmpty || keys.contains(key) {
                    // What goes back is the noted change reversed: its new members are the old.
                    let observed = observedChange(key, of: object)
                    if case .unchanged = observed { continue }
                    let value = entry.values[key] ?? (old: .null, new: .null)
                    enqueue { [unowned self] in
                        self.invoke(observer) {
                            _ = self.pushObject(object)
                            pushString(self.state, key)
                            if case .relationship(let change) = observed {
                                self.pushMembers(change.new, isToMany: change.isToMany)
                                self.pushMembers(change.old, isToMany: change.isToMany)
                            } else {
                                pushValue(self.state, value.old)
                                pushValue(self.state, value.new)
                            }
                            return 4
                        }
                    }
                }
            case .binding(let object, let key):
                guard let value = discarded.reverted.first(where: { $0.object === object })?.values[key] else { continue }
                enqueue { [unowned self] in
                    self.invoke(observer) {
                        pushValue(self.state, value.new)
                        pushValue(self.state, value.old)
                        return 2
                    }
                }
            case .entity(let name):
                // Only values went back: no row was inserted or deleted in the store.
                let updated = discarded.reverted.map(\.object).filter { self.context.isKind($0.entity.name, of: name) }
                guard !updated.isEmpty else { continue }
                enqueue { [unowned self] in
                    self.invoke(observer) {
                        lua_createtable(self.state, 0, 3)
                        for (field, objects) in [("inserted", []), ("updated", updated), ("deleted", [])] {
                            LuaTable.pushList(self.state, objects) { _ = self.pushObject($0) }
                            LuaTable.setField(self.state, -2, field)
                        }
                        return 1
                    }
                }
            case .state:
                continue
            }
        }
        deliver()
    }
}
