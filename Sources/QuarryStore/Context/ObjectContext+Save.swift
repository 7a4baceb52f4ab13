import QuarryModel

/// How `save` settles a conflict with another connection's change (Core Data's policies).
public enum MergePolicy: String, Sendable {
    /// Refuse, name the objects and keys, write nothing.
    case error
    /// Store trump: keys the other connection changed keep its values.
    case store
    /// Object trump: this context's changes are written over theirs.
    case mine
}

/// What one `save()` wrote.
public struct SaveSummary: Equatable, Sendable {
    public var inserted = 0, updated = 0, deleted = 0
    public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}

extension ObjectContext {
    /// Writes every pending insert, update and delete in one transaction. Validation runs
    /// first over every pending object; on any error nothing is written and the pending
    /// changes stay as they were.
    @discardableResult
    public func save(merge policy: MergePolicy = .error) throws -> SaveSummary {
        guard hasChanges else { return SaveSummary() }
        try checkWrite("save")
        followValueMatchedLinks(of: unsaved.inserted + unsaved.updated.values)
        // Written in foreign-key order: parents inserted before their children, children
        // deleted before their parents (one save deleting a customer with its orders).
        let deleting = Set(unsaved.deleted.values.map(\.entity.name))
        var request = SaveChangesRequest(
            inserts: SaveChangesRequest.foreignKeyOrder(unsaved.inserted, parentsFirst: true, parents: insertedParents),
            updates: Self.byKey(unsaved.updated.values),
            deletes: SaveChangesRequest.foreignKeyOrder(
                Self.byKey(unsaved.deleted.values),
                parentsFirst: false, parents: { self.storedParents(of: $0, among: deleting) }),
            links: unsaved.links, orders: unsaved.orders.filter { !$0.owner.isDeleted }, policy: policy)
        request.touched = touched(by: request)
        request.positioned = try positionedOrders(request)
        try validateForSave(request.inserts + request.updates)
        try checkDenialsAtCommit(request.deletes)
        // Each entity's storage looked up once, not for each object.
        var entities = SavedEntities(self)
        for object in request.inserts + request.updates where !entities.of(object).storage.dayColumns.isEmpty {
            // In the entity's attribute order: the pending values' dictionary order is
            // another in every process, and so was the order of these notes.
            for attribute in object.entity.attributes {
                if let value = object.pending[attribute.name] { noteDayColumn(object.entity, attribute.name, value) }
            }
        }
        let work = try store.prepare(request, in: session)
        let result = try store.write(request, work, session: session)
        // The transaction committed: only now does the in-memory graph change.
        var changes = changeSet(of: result)
        apply(result)
        store.pendingChanges(.ended, in: session)
        for object in result.request.deletes {
            unregister(object)
            object.context = nil
        }
        // Rows another connection deleted: their objects are deleted, and observers hear it.
        for object in result.gone {
            object.pending = [:]
            object.pendingToOne = [:]
            object.isDeleted = true
            unregister(object)
            object.context = nil
            if !changes.deleted.contains(where: { $0 === object }) { changes.deleted.append(object) }
        }
        // Deletes the store policy took back: the objects live again, with their rows' values.
        for object in result.kept {
            object.isDeleted = false
            object.pending = [:]
            object.pendingToOne = [:]
        }
        unsaved.clear()
        pruneRegistrations()
        store.didSave(in: session)
        bumpGeneration()
        // The user wrote to the store (a file: closing may now checkpoint it).
        connection.engine.didSave()
        addReloadedViews(to: &changes)
        notify(changes)
        // Updated as observers hear it: an object whose only change is a link added or
        // removed, or a member moved, was updated too (Core Data's `updatedObjects`).
        return SaveSummary(inserted: request.inserts.count, updated: changes.updated.count, deleted: result.request.deletes.count)
    }

    /// What observers hear of a save: the objects it inserted, updated and deleted, and
    /// those it updated through another (`touched`).
    private func changeSet(of result: SaveChangesResult) -> ChangeSet {
        let request = result.request
        var changes = ChangeSet()
        changes.inserted = request.inserts
        changes.deleted = request.deletes
        // Only a change listener reads the keys that changed and their old values (the
        // summary counts the objects, `rehashWatchedRows` reads their keys): with none
        // (no observer), each object's set of keys and old values, and a position for each,
        // were 4,600 instructions of each object of a save of 20,000 changed objects.
        guard !observers.changeListeners.isEmpty else {
            changes.updated = request.updates.map { ($0, []) }
            guard !request.touched.isEmpty else { return changes }
            var listed = Set(request.updates.map(ObjectIdentifier.init))
            for (object, _) in request.touched where listed.insert(ObjectIdentifier(object)).inserted { changes.updated.append((object, [])) }
            return changes
        }
        // Keys the store changed as it wrote (a server's trigger): observers hear them too.
        // Only updated objects' (inserted ones are heard whole): a save of 20,000 new rows
        // on a server reads each back, and a set made for each was a tenth of the save.
        var madeByStore: [ObjectIdentifier: Set<String>] = [:]
        if !request.updates.isEmpty, !result.readBacks.isEmpty {
            let updated = Set(request.updates.map(ObjectIdentifier.init))
            for (object, name, _) in result.readBacks where updated.contains(ObjectIdentifier(object)) {
                madeByStore[ObjectIdentifier(object), default: []].insert(name)
            }
        }
        changes.updated = request.updates.map { object in
            // One set, grown only by what there is (most objects changed values alone).
            var keys = Set(object.pending.keys)
            if !object.pendingToOne.isEmpty { keys.formUnion(object.pendingToOne.keys) }
            if !madeByStore.isEmpty, let made = madeByStore[ObjectIdentifier(object)] { keys.formUnion(made) }
            return (object, keys)
        }
        // Observers read the old values of the keys that changed, no others.
        for (object, keys) in changes.updated { changes.oldValues[ObjectIdentifier(object)] = object.committedValues(of: keys) }
        guard !request.touched.isEmpty else { return changes }
        var position = Dictionary(changes.updated.indices.map { (ObjectIdentifier(changes.updated[$0].object), $0) }) { first, _ in first }
        for (object, keys) in request.touched {
            if let i = position[ObjectIdentifier(object)] {
                changes.updated[i].keys.formUnion(keys)
                continue
            }
            position[ObjectIdentifier(object)] = changes.updated.count
            changes.updated.append((object, keys))
        }
        return changes
    }

    /// The saved objects a save updates through others, with the keys that change, as
    /// Core Data keeps inverses: both ends of a link added or removed; the objects a
    /// to-one's member left and joined (by a set, an insert or a delete), in their inverse
    /// to-many; the owner of members placed by position. Neither inserted nor deleted.
    private func touched(by request: SaveChangesRequest) -> [(object: ManagedObject, keys: Set<String>)] {
        var touched: [(object: ManagedObject, keys: Set<String>)] = []
        var index: [ObjectIdentifier: Int] = [:]
        let deleted = Set(request.deletes.map(ObjectIdentifier.init))
        func touch(_ object: ManagedObject, _ keys: Set<String>) {
            guard !object.isInserted, !deleted.contains(ObjectIdentifier(object)) else { return }
            if let i = index[ObjectIdentifier(object)] {
                touched[i].keys.formUnion(keys)
                return
            }
            index[ObjectIdentifier(object)] = touched.count
            touched.append((object, keys))
        }
        for link in request.links {
            for (object, other) in [(link.source, link.target), (link.target, link.source)] {
                touch(
                    object,
                    Set(
                        currentEntity(of: object).relationships.filter { r in
                            r.destination == other.entity.name && r.isToMany
                        }.map(\.name)))
            }
        }
        var entities = SavedEntities(self)
        for object in request.inserts + request.updates + request.deletes {
            for relationship in entities.of(object).current.toOneRelationships {
                guard let inverse = relationship.inverse,
                    (try? entity(named: relationship.destination))?.relationship(named: inverse)?.isToMany == true
                else { continue }
                let gone = deleted.contains(ObjectIdentifier(object))
                let set =
                    object.pendingToOne[relationship.name] != nil
                    || relationship.linkColumns.contains { object.pending[$0] != nil }
                guard gone || set else { continue }
                let before = object.isInserted ? nil : committedTarget(relationship, of: object)
                let after = gone ? nil : ((try? relatedObject(relationship.name, of: object)) ?? nil)
                guard before !== after else { continue }
                for target in [before, after].compactMap({ $0 }) { touch(target, [inverse]) }
            }
        }
        for order in request.orders { touch(order.owner, [order.name]) }
        return touched
    }

    /// The objects take what the save wrote: their keys, their values as committed.
    private func apply(_ result: SaveChangesResult) {
        for (object, stored) in result.adopted { object.commit(stored) }
        var entities = SavedEntities(self)
        for (object, key) in zip(result.request.inserts, result.newKeys) {
            let saved = entities.of(object)
            object.primaryKey = key
            object.committed = object.pending
            // Read before `pending` is cleared here (updates below read it the same way).
            object.commitLinkColumns(of: saved.current)
            // A key column that is also an attribute (a file Quarry did not create: `id`)
            // reads the key SQLite gave the row: committed once `pending` is cleared, which
            // shared its storage (committed before, it copied the values of each new row).
            let keyColumn = saved.keyIsAttribute && (object.pending[saved.storage.keyColumn] ?? .null).isNull ? saved.storage.keyColumn : nil
            object.pending = [:]
            if let keyColumn { object.commit(keyColumn, .integer(key)) }
            object.isInserted = false
            register(object, root: saved.root)
        }
        // An inserted object with no link set has nothing left to take: its values were
        // committed above, and each step below would find nothing to do.
        let linking = result.request.inserts.filter { !$0.pendingToOne.isEmpty }
        for object in linking + result.request.updates {
            object.commit(object.pending)
            let entity = entities.of(object).current
            object.commitLinkColumns(of: entity)
            object.pending = [:]
            for (name, target) in object.pendingToOne {
                let targetKey = entity.relationship(named: name)?.targetKey
                let linked = target.flatMap { t in targetKey.map { t.currentValue($0) } ?? t.primaryKey.map(Value.integer) } ?? .null
                // As the link column stores it (`ColumnAffinity`), which the relationship reads.
                let column = entity.relationship(named: name)?.column
                object.commit(name, column.map { linkValue(linked, $0, of: entity) } ?? linked)
                // Its attribute columns too, when the target was inserted in this save.
                if let relationship = entity.relationship(named: name), let t = target, let k = t.primaryKey,
                    relationship.compositeKey != nil || targetKey == nil
                {
                    for column in targetKeyColumns(of: relationship) where entity.attribute(named: column) != nil {
                        object.commit(column, linkValue(.integer(k), column, of: entity))
                    }
                }
            }
            object.pendingToOne = [:]
        }
        for (object, name, value) in result.readBacks { object.commit(name, value) }
    }

    /// Whether a to-one relationship has a target that is not being deleted, without
    /// loading it (a stored link to a row deleted in this save counts as none).
    private func hasTarget(_ name: String, _ object: ManagedObject) -> Bool {
        if let pending = object.pendingToOne[name] { return pending.map { !$0.isDeleted } ?? false }
        guard let value = object.committedValue(name), !value.isNull else { return false }
        guard case .integer(let key) = value, let relationship = currentEntity(of: object).relationship(named: name),
            relationship.targetKey == nil, let target = registeredObject(entity: relationship.destination, primaryKey: key)
        else { return true }
        return !target.isDeleted
    }

    private func validateForSave(_ objects: [ManagedObject]) throws {
        var problems: [String] = []
        var entities = SavedEntities(self)
        for object in objects {
            // The attributes walked once for both checks (each pass copied every
            // description), an object's inexact decimals said after its missing values.
            var inexact: [String] = []
            // Each attribute read in place: copied whole, each had its name, default and
            // labels retained and released, for every object a save checks.
            let attributes = object.entity.attributes
            for index in attributes.indices {
                let name = attributes[index].name
                if !attributes[index].isOptional, object.currentValue(name).isNull, unsavedTarget(of: object, keptIn: name) == nil {
                    problems.append("\(object.objectID).\(name) is required but nil")
                }
                // Only a decimal can be inexact: no other attribute's value is looked up.
                if attributes[index].type == .decimal, let why = inexactDecimal(object.currentValue(name), of: attributes[index]) {
                    inexact.append("\(object.entity.name).\(name) of \(object.objectID) \(why)")
                }
            }
            if !inexact.isEmpty { problems += inexact }
            for relationship in entities.of(object).current.relationships where relationship.isRequired == true && !relationship.isToMany {
                if !hasTarget(relationship.name, object) {
                    problems.append("\(object.objectID).\(relationship.name) is required but nil")
                }
            }
        }
        guard problems.isEmpty else {
            let shown = problems.prefix(5).joined(separator: "; ") + (problems.count > 5 ? "; and \(problems.count - 5) more" : "")
            throw StoreError.validation(message: "save: " + shown)
        }
    }

    /// Discards every pending change: inserted objects are forgotten, changed ones go
    /// back to their stored values, deleted ones come back. Returns what was discarded,
    /// for observers (nothing stored changed, so change listeners hear nothing).
    @discardableResult
    public func rollback() -> RolledBack {
        let discarded = RolledBack(discarding: pendingChanges)
        for object in unsaved.inserted {
            object.isInserted = false
            object.isDeleted = true
            object.context = nil
        }
        for object in unsaved.updated.values {
            object.pending = [:]
            object.pendingToOne = [:]
        }
        for object in unsaved.deleted.values {
            object.isDeleted = false
            object.pending = [:]
            object.pendingToOne = [:]
        }
        store.pendingChanges(.ended, in: session)
        unsaved.clear()
        bumpGeneration()
        return discarded
    }
}

/// Assembling the request: the links a save writes, and the order it writes objects in.
extension ObjectContext {
    /// The unsaved target of the to-one relationship that keeps its key in `object`'s
    /// attribute `column` (a foreign file's `parent_id`): the key it gets in this save is
    /// the column's value, so a required column is not nil for want of it.
    func unsavedTarget(of object: ManagedObject, keptIn column: String) -> ManagedObject? {
        // Only a to-one set in this session names one: with none, the object's entity is
        // not looked up (asked for every nil value of a save's new rows, a new row's key
        // among them, it was a tenth of writing 20,000 new rows to a server).
        guard !object.pendingToOne.isEmpty else { return nil }
        for relationship in currentEntity(of: object).toOneRelationships where targetKeyColumns(of: relationship).contains(column) {
            if let target = object.pendingToOne[relationship.name] ?? nil, target.primaryKey == nil, !target.isDeleted { return target }
        }
        return nil
    }

    /// The attribute columns of a to-one's object that hold its target's key (the one the
    /// store gives an inserted row): its one column naming the key, or those of a key of
    /// several columns naming the destination's key column (`(pid, px)` naming `p(id, x)`).
    /// A target inserted in this save has no key until its row is written; these columns
    /// then take the key it was given, as a link kept in Quarry's own column does.
    func targetKeyColumns(of relationship: RelationshipDescription) -> [String] {
        if let key = relationship.compositeKey {
            guard let destination = managedObjectModel.entitiesByName[relationship.destination] else { return [] }
            let keyColumn = mapped(destination).keyColumn
            return zip(key.columns, key.targetKeys).filter { $0.1 == keyColumn }.map(\.0)
        }
        guard relationship.targetKey == nil, let column = relationship.column else { return [] }
        return [column]
    }

    /// The value an inserted row's attribute is written with: its own, or for a column
    /// that keeps a link, the key its target was given earlier in this save.
    package func insertedValue(_ object: ManagedObject, _ name: String, keys: SaveChangesRequest.Keys) -> Value {
        let value = object.currentValue(name)
        guard value.isNull, let target = unsavedTarget(of: object, keptIn: name), let key = keys.byObject[ObjectIdentifier(target)] else {
            return value
        }
        return .integer(key)
    }

    /// A link kept in a column matching another column of its target (a TEXT key:
    /// `Orders.CustomerCode` to `Customer.Code`) took the value the target had when it was
    /// made; the link is to the object, so a value the target was given since (a new
    /// customer given its code once linked) is the column's at the save.
    func followValueMatchedLinks(of objects: [ManagedObject]) {
        for object in objects where !object.pendingToOne.isEmpty {
            let entity = currentEntity(of: object)
            for (name, target) in object.pendingToOne {
                guard let target, !target.isDeleted, let relationship = entity.relationship(named: name) else { continue }
                // Each column and the target's column it matches: a key of several columns', or one.
                let pairs =
                    relationship.compositeKey.map { Array(zip($0.columns, $0.targetKeys)) }
                    ?? relationship.targetKey.flatMap { targetKey in relationship.column.map { [($0, targetKey)] } } ?? []
                for (column, targetKey) in pairs where entity.attribute(named: column) != nil {
                    let value = linkValue(target.currentValue(targetKey), column, of: entity)
                    if object.currentValue(column) != value { object.pending[column] = value }
                }
            }
        }
    }

    /// The objects that `object`'s row names through a to-one key kept in it, read only
    /// for destinations one of `among` (entity names) is a kind of: a target of no entity
    /// being deleted is never among them, and reading it may cost a query.
    func storedParents(of object: ManagedObject, among entities: Set<String>) -> [ManagedObject] {
        currentEntity(of: object).toOneRelationships.compactMap { relationship in
            guard entities.contains(where: { isKind($0, of: relationship.destination) }),
                isKeptInRow(storage(of: relationship, in: object.entity.name))
            else { return nil }
            return committedTarget(relationship, of: object)
        }
    }

    /// The inserted objects that `object`'s new row will name through a to-one key kept in it.
    func insertedParents(of object: ManagedObject) -> [ManagedObject] {
        // Only a to-one set in this session names an inserted object.
        guard !object.pendingToOne.isEmpty else { return [] }
        return currentEntity(of: object).toOneRelationships.compactMap { relationship in
            guard isKeptInRow(storage(of: relationship, in: object.entity.name)),
                let target = object.pendingToOne[relationship.name] ?? nil, target.isInserted
            else { return nil }
            return target
        }
    }

    /// Whether a to-one's link is kept in its object's row (one column or several).
    private func isKeptInRow(_ storage: RelationshipStorage?) -> Bool {
        switch storage {
        case .foreignKey?, .compositeKey?: return true
        default: return false
        }
    }
}
