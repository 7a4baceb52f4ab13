import CLua
import CQuarryShim
import Foundation
import QuarryModel
import QuarryStore

/// Stores `open()` opened beside the session's own: taking one in, closing it, and
/// copying objects into one.
extension QuarryRuntime {
    /// Takes in a context the shell opened for `open()`: its rows get their own identity
    /// scope, and it is watched as the session's store is.
    func adopt(_ context: ObjectContext, named name: String) -> OpenedStore {
        storesOpened += 1
        storesWereOpened = true
        let store = OpenedStore(context: context, name: name, number: storesOpened)
        otherStores.append(store)
        setIdentityScope(state, of: context, store.identityScope)
        watch(context, for: store)
        context.sayConnectionLoss { [link] note in link.runtime?.sayConnectionLoss(note) }
        try? context.startNoticingOtherConnections()
        return store
    }

    /// Closes a store `open()` opened: its observers end, its rows forget their Lua
    /// values, and its handle refuses every use after.
    func close(_ store: OpenedStore) {
        guard let context = store.opened, !store.isClosed else { return }
        store.observerRegistry?.token?.cancel()
        store.observerRegistry = nil
        stopWatching(context, for: store)
        context.close()
        resetRowIdentities(state, scope: store.identityScope)
        setIdentityScope(state, of: context, "")
        store.markClosed()
        otherStores.removeAll { $0 === store }
        closedStores.append(store)
    }

    /// The stores `open()` opened that hold unsaved changes, by name, for what the end of
    /// a run says of them.
    public var otherStoresWithChanges: [(name: String, context: ObjectContext)] {
        otherStores.compactMap { store in
            guard let context = store.opened, context.hasChanges else { return nil }
            return (name(of: store), context)
        }
    }

    /// At the end of a run: every store `open()` opened is closed, unsaved changes
    /// dropped as the session's own are.
    public func closeOpenedStores() {
        for store in otherStores { close(store) }
    }

    /// Copies `sources` (objects of any store) into the store in focus, each as an object
    /// of the entity of its own name (or `entityName`): the attributes both entities have
    /// by name and type (integers of any width count as one type), and the relationships
    /// whose targets are copied in the same call, matched by the object they copy. Returns
    /// the copies in order and what was left out (`Entity.key: why`, naming the source and
    /// the target, store and entity: `birds.id: the target entity birds in owls.db has no
    /// attribute id`), which a note says.
    /// All or nothing: a copy that fails takes back the ones made before it.
    func copy(_ sources: [ManagedObject], as entityName: String?) throws -> ([ManagedObject], [String]) {
        var copies: [ManagedObject] = []
        var copyOf: [ObjectIdentifier: ManagedObject] = [:]
        var leftOut: [String] = []
        func leave(_ text: String) { if !leftOut.contains(text) { leftOut.append(text) } }
        let targetStore = storeLabel(context)
        do {
            for source in sources {
                guard let from = source.managedObjectContext, !source.isDeleted else {
                    throw LuaError("\(source.objectID) is deleted: there is nothing to copy", operation: "copy")
                }
                let sourceEntity = from.currentEntityDescription(of: source)
                let target = try context.entity(named: entityName ?? targetEntityName(of: sourceEntity, in: from))
                var values: [String: Value] = [:]
                for attribute in sourceEntity.attributes {
                    let label = "\(declaring(attribute.name, sourceEntity, from)).\(attribute.name)"
                    guard let there = target.attribute(named: attribute.name) else {
                        leave("\(label): the target entity \(target.name) in \(targetStore) has no attribute \(attribute.name)")
                        continue
                    }
                    guard Self.sameType(attribute.type, there.type) else {
                        leave(
                            "\(label): \(attribute.type.rawValue) in \(storeLabel(from)), \(there.type.rawValue) in the target entity \(target.name) in \(targetStore)"
                        )
                        continue
                    }
                    let value = try source.value(forKey: attribute.name)
                    if !value.isNull { values[attribute.name] = value }
                }
                let copy: ManagedObject
                do { copy = try context.insert(into: target, values: values, linking: []) } catch {
                    throw explainingDateText(error, target, values)
                }
                copies.append(copy)
                copyOf[ObjectIdentifier(source)] = copy
            }
            for (source, copy) in zip(sources, copies) {
                guard let from = source.managedObjectContext else { continue }
                let sourceEntity = from.currentEntityDescription(of: source)
                let target = context.currentEntityDescription(of: copy)
                for relationship in sourceEntity.relationships {
                    let label = "\(declaring(relationship.name, sourceEntity, from)).\(relationship.name)"
                    guard let there = target.relationship(named: relationship.name), there.isToMany == relationship.isToMany else {
                        leave(
                            "\(label): the target entity \(target.name) in \(targetStore) has no \(relationship.isToMany ? "to-many" : "to-one") \(relationship.name)"
                        )
                        continue
                    }
                    let members =
                        relationship.isToMany
                        ? try from.relatedObjects(relationship.name, of: source)
                        : try from.relatedObject(relationship.name, of: source).map { [$0] } ?? []
                    let copied = members.compactMap { copyOf[ObjectIdentifier($0)] }
                    if copied.count < members.count { leave("\(label): \(members.count == 1 ? "its target was" : "its targets were") not copied") }
                    if !relationship.isToMany {
                        if let member = copied.first { try context.setRelatedObject(member, there.name, of: copy) }
                        continue
                    }
                    let held = try context.relatedObjects(there.name, of: copy)
                    for member in copied where !held.contains(where: { $0 === member }) {
                        try context.addRelated(member, to: there.name, of: copy)
                    }
                }
            }
        } catch {
            for copy in copies { try? context.delete(copy) }
            throw error
        }
        if !leftOut.isEmpty { writeNotice("note: copy: left out " + leftOut.joined(separator: "; ")) }
        return (copies, leftOut)
    }

    /// How a copy's note names the store `context` is: a file by its name (`owls.db`), a
    /// server by its location without a password, the session's in memory as such.
    private func storeLabel(_ context: ObjectContext) -> String {
        let name = name(of: openedStore(of: context) ?? defaultStore)
        guard !name.contains("://"), !name.contains("="), name.contains("/") else { return name }
        return (name as NSString).lastPathComponent
    }

    /// The entity of `entity`'s hierarchy that declares `key` (its farthest ancestor with
    /// it), so a key left out is named once for every sub-entity that inherits it.
    private func declaring(_ key: String, _ entity: EntityDescription, _ from: ObjectContext) -> String {
        var name = entity.name
        var next = entity.parent.flatMap { try? from.entity(named: $0) }
        var seen: Set<String> = [name]
        while let parent = next, seen.insert(parent.name).inserted, parent.attribute(named: key) != nil || parent.relationship(named: key) != nil {
            name = parent.name
            next = parent.parent.flatMap { try? from.entity(named: $0) }
        }
        return name
    }

    /// The entity a copy of an object of `entity` is made as: the one of the same name,
    /// else of its nearest parent's (a `SportCar` fetched as a `Car` goes where `Car`
    /// does), else the name as it is, which the store then refuses by name.
    private func targetEntityName(of entity: EntityDescription, in from: ObjectContext) -> String {
        var next: EntityDescription? = entity
        var seen: Set<String> = []
        while let current = next, seen.insert(current.name).inserted {
            let name = resolvedEntityName(current.name)
            if context.entities.contains(where: { $0.name == name }) { return name }
            next = current.parent.flatMap { try? from.entity(named: $0) }
        }
        return entity.name
    }

    /// Whether a value of type `a` is copied into an attribute of type `b`.
    static func sameType(_ a: AttributeType, _ b: AttributeType) -> Bool {
        let integers: Set<AttributeType> = [.int16, .int32, .int64]
        return a == b || (integers.contains(a) && integers.contains(b))
    }
}
