import GRDB
import QuarryPredicates
import QuarryStore

/// Results that include the context's unsaved changes, as Core Data's fetches do by
/// default: the saved rows that match (less those deleted or changed so they no longer
/// match), plus inserted and changed objects that match, in the order the sort gives.
/// Built in memory, and only while the entity has unsaved changes.
extension FetchResults {
    var usesPendingChanges: Bool {
        request.includesPendingChanges && context.hasPendingChanges(of: entity.name)
    }

    func pendingObjects() throws -> [ManagedObject] {
        let entity = self.entity
        let pending = context.pendingChanges
        let changed = pending.updated.filter { context.isKind($0.entity.name, of: entity.name) }
        // Every saved row that matches in the store, whatever the window.
        let query = compiled.selectAll("\(quoteIdentifier(entity.name)).\(quoteIdentifier(entity.primaryKey))")
        let keys = try context.readKeys(query.sql, arguments: query.arguments)
        var objects = try load(keys)
        objects.removeAll { object in object.isDeleted || (changed.contains { $0 === object } && !matches(object)) }
        for object in changed where !objects.contains(where: { $0 === object }) && matches(object) { objects.append(object) }
        for object in pending.inserted where context.isKind(object.entity.name, of: entity.name) && matches(object) { objects.append(object) }
        let order = objects.enumerated().map { ($0.element, $0.offset) }
        let sorted = order.sorted { precedes($0, $1) }.map(\.0)
        let start = min(compiled.offset, sorted.count)
        let end = compiled.limit.map { min(sorted.count, start + $0) } ?? sorted.count
        return Array(sorted[start..<end])
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
                let sql = "SELECT \(entity.selectionSQL()) FROM \(quoteIdentifier(entity.name)) WHERE \(quoteIdentifier(entity.primaryKey)) IN (\(Array(repeating: "?", count: missing.count).joined(separator: ",")))"
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
    private func precedes(_ a: (ManagedObject, Int), _ b: (ManagedObject, Int)) -> Bool {
        let order = MemoryOrder(sort: compiled.sort)
        let x = compiled.sort.map { order.sortValue(value($0, a.0), $0) }
        let y = compiled.sort.map { order.sortValue(value($0, b.0), $0) }
        let byValues = order.compare(x, y)
        if byValues != 0 { return byValues < 0 }
        switch (a.0.primaryKey, b.0.primaryKey) {
        case let (p?, q?): return order.precedes(x, p, y, q)
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.1 < b.1
        }
    }

    private func value(_ descriptor: SortDescriptor, _ object: ManagedObject) -> Value {
        var current: ManagedObject? = object
        let components = descriptor.key.split(separator: ".").map(String.init)
        for name in components.dropLast() {
            current = current.flatMap { try? context.relatedObject(name, of: $0) }
        }
        guard let target = current, let last = components.last, let value = try? target.value(forKey: last) else { return .null }
        return value
    }

    /// Sections of the results with unsaved changes: runs of equal section keys.
    func pendingSections(_ objects: [ManagedObject]) -> [SectionInfo] {
        guard let key = request.sectionKey else { return [] }
        var sections: [SectionInfo] = []
        for (index, object) in objects.enumerated() {
            let id = (try? object.value(forKey: key)) ?? .null
            if let last = sections.last, last.id == id { sections[sections.count - 1].count += 1 }
            else { sections.append(SectionInfo(id: id, start: index, count: 1)) }
        }
        return sections
    }
}
