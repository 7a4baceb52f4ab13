import GRDB
import QuarryPredicates
import QuarryStore

/// Results that include the context's unsaved changes, as Core Data's fetches do by
/// default: the saved rows that match (less those deleted or changed so they no longer
/// match), plus inserted and changed objects that match, in the order the sort gives.
/// Built in memory, and only while the entity has unsaved changes.
extension FetchResults {
    /// Worked out once per state of the context's changes (see `pendingUse`).
    var usesPendingChanges: Bool {
        refreshIfStale()
        if let pendingUse { return pendingUse }
        let use = request.includesPendingChanges && (context.hasPendingChanges(of: entity.name) || readsPendingRelatedChanges)
        pendingUse = use
        return use
    }

    /// True when the predicate, sort or section key reads through relationships and an
    /// entity they may reach has unsaved changes: then any saved row may match or sort
    /// differently (a Car by `owner.firstName` when a Person is renamed).
    var readsPendingRelatedChanges: Bool {
        let readsThrough = !(compiled.predicate?.readsOnlyOwnAttributes ?? true) || compiled.sort.contains { $0.key.contains(".") }
        guard readsThrough, context.hasChanges else { return false }
        let pending = context.pendingChanges
        let objects = pending.inserted + pending.updated + pending.deleted
        // Only links of many-to-many relationships are pending: they may be read.
        if objects.isEmpty { return true }
        let reached = reachableRoots()
        return objects.contains { reached.contains(context.rootName(of: $0.entity.name)) }
    }

    /// The hierarchies (by root) that relationships lead to from the entity, at any depth.
    private func reachableRoots() -> Set<String> {
        var roots: Set<String> = []
        var queue = [context.rootName(of: entity.name)]
        while let root = queue.popLast() {
            guard roots.insert(root).inserted else { continue }
            let family = [root] + context.descendants(of: root).map(\.name)
            for name in family {
                guard let description = try? context.entity(named: name) else { continue }
                for relationship in description.relationships { queue.append(context.rootName(of: relationship.destination)) }
            }
        }
        return roots
    }

    func pendingObjects() throws -> [ManagedObject] {
        let entity = self.entity
        let pending = context.pendingChanges
        let changed = pending.updated.filter(belongs)
        let changedIDs = Set(changed.map(ObjectIdentifier.init))
        var objects: [ManagedObject]
        if readsPendingRelatedChanges {
            // Any saved row's answer may have changed: every row is tested in memory.
            let query = compiled.selectEveryRow(compiled.keySQL)
            objects = try load(try context.readKeys(query.sql, arguments: query.arguments))
            objects.removeAll { object in object.isDeleted || !matches(object) }
        } else {
            // Every saved row that matches in the store, whatever the window.
            let query = compiled.selectAll(compiled.keySQL)
            objects = try load(try context.readKeys(query.sql, arguments: query.arguments))
            objects.removeAll { object in object.isDeleted || (changedIDs.contains(ObjectIdentifier(object)) && !matches(object)) }
        }
        let present = Set(objects.map(ObjectIdentifier.init))
        for object in changed where !present.contains(ObjectIdentifier(object)) && matches(object) { objects.append(object) }
        for object in pending.inserted where belongs(object) && matches(object) { objects.append(object) }
        // Each object's sort values once, not once per comparison.
        let order = MemoryOrder(sort: compiled.sort)
        let keyed = objects.enumerated().map { offset, object in
            (object: object, values: compiled.sort.map { order.sortValue(value(atPath: $0.key, of: object), $0) }, offset: offset)
        }
        let sorted = keyed.sorted { precedes($0, $1, order) }.map(\.object)
        let start = min(compiled.offset, sorted.count)
        let end = compiled.limit.map { min(sorted.count, start + $0) } ?? sorted.count
        return Array(sorted[start..<end])
    }

    /// Whether an unsaved object is one the request fetches: of the entity, or of a
    /// sub-entity unless `subentities = false` keeps to the entity's own objects (as the
    /// SQL's condition on the entity column does for saved rows).
    private func belongs(_ object: ManagedObject) -> Bool {
        request.includesSubentities ? context.isKind(object.entity.name, of: entity.name) : object.entity.name == entity.name
    }

    private func matches(_ object: ManagedObject) -> Bool {
        predicate?.matches(object) ?? true
    }

    private func load(_ keys: [Int64]) throws -> [ManagedObject] {
        var result: [ManagedObject] = []
        var start = 0
        while start < keys.count {
            let chunk = Array(keys[start..<min(keys.count, start + 500)])
            start += chunk.count
            var found: [Int64: ManagedObject] = [:]
            var missing: [Int64] = []
            for key in chunk {
                if let o = context.registeredObject(entity: entity.name, primaryKey: key) { found[key] = o } else { missing.append(key) }
            }
            if !missing.isEmpty {
                let storage = compiled.storage
                let sql = "SELECT \(storage.selection(of: entity)) FROM \(storage.table) WHERE \(storage.key) IN (\(Array(repeating: "?", count: missing.count).joined(separator: ",")))"
                for row in try context.read({ db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(missing)) }) {
                    let o = try context.object(for: entity, row: row)
                    if let key = o.primaryKey { found[key] = o }
                }
            }
            result += chunk.compactMap { found[$0] }
        }
        return result
    }

    /// The SQL order, in memory; unsaved objects, which have no key yet, come last.
    private func precedes(_ a: (object: ManagedObject, values: [Value], offset: Int),
                          _ b: (object: ManagedObject, values: [Value], offset: Int), _ order: MemoryOrder) -> Bool {
        let byValues = order.compare(a.values, b.values)
        if byValues != 0 { return byValues < 0 }
        switch (a.object.primaryKey, b.object.primaryKey) {
        case let (p?, q?): return order.precedes(a.values, p, b.values, q)
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.offset < b.offset
        }
    }

    /// The value a key path (`maker`, `owner.firstName`) reaches from an object, pending
    /// changes included; nil when a relationship on the way is empty, as the SQL's LEFT
    /// JOIN gives NULL.
    private func value(atPath path: String, of object: ManagedObject) -> Value {
        var current: ManagedObject? = object
        let components = path.split(separator: ".").map(String.init)
        for name in components.dropLast() {
            current = current.flatMap { try? context.relatedObject(name, of: $0) }
        }
        guard let target = current, let last = components.last, let value = try? target.value(forKey: last) else { return .null }
        return value
    }

    /// Sections of the results with unsaved changes: runs of equal section keys, the key
    /// read along its path (`owner.firstName`) as the SQL reads it, and keys equal as SQL's
    /// GROUP BY finds them (1 and 1.0 are one section).
    func pendingSections(_ objects: [ManagedObject]) -> [SectionInfo] {
        guard let key = request.sectionKey else { return [] }
        var sections: [SectionInfo] = []
        for (index, object) in objects.enumerated() {
            let id = value(atPath: key, of: object)
            if let last = sections.last, sameSection(last.id, id) { sections[sections.count - 1].count += 1 }
            else { sections.append(SectionInfo(id: id, start: index, count: 1)) }
        }
        return sections
    }

    private func sameSection(_ a: Value, _ b: Value) -> Bool {
        (a.isNull && b.isNull) || (!a.isNull && !b.isNull && SQLiteOrdering.compare(a, b) == 0)
    }
}
