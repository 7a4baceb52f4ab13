import QuarryModel
import QuarryPredicates
import QuarryStore

/// What observed results hold, kept current after every change so observers hear the
/// difference. When the predicate and the sort read only the entity's own attributes and
/// there is no limit or offset, a save that touches k objects is applied in memory: the
/// changed objects are tested with the in-memory predicate and placed by binary search
/// under the sort, O(k log n) comparisons. Otherwise (a window to refill, a key path
/// through a relationship, a batch change, a change by another process, unsaved changes
/// in the results) the results are read again and compared with what they held, which
/// gives the same events.
public final class ResultsTracker {
    public let results: FetchResults
    /// Row keys in result order.
    private var keys: [Int64] = []
    /// Sections as runs of `keys`: each one's id and row count (flat results: one run).
    private var sectionIDs: [Value] = []
    private var sectionCounts: [Int] = []
    /// Each row's sort values, when the results can be updated in memory.
    private var sortValues: [Int64: [Value]] = [:]
    private var updatesInMemory = false
    /// For an entity with sub-entities, each row's own entity (`ResultsChange.deletedEntities`).
    private var ownEntities: [Int64: String] = [:]
    /// True when the last change was applied in memory, without a query.
    public private(set) var lastChangeWasInMemory = false
    /// True when the contents were last read with the context's unsaved changes in them:
    /// only then can a rollback change what the results hold.
    public private(set) var holdsPendingChanges = false

    public init(_ results: FetchResults) throws {
        self.results = results
        try load()
    }

    /// The contents as sections of keys.
    public var snapshot: ResultsSnapshot {
        var sections: [ResultsSnapshot.Section] = []
        var start = 0
        for (id, count) in zip(sectionIDs, sectionCounts) {
            sections.append(.init(id: id, keys: Array(keys[start..<start + count])))
            start += count
        }
        return ResultsSnapshot(sections: sections)
    }

    /// After a save or an outside change: what the results now hold differently.
    public func apply(_ changes: ChangeSet) throws -> ResultsChange {
        var change = try diff(changes)
        let name = results.entity.name
        for (object, keys) in changes.updated where results.context.isKind(object.entity.name, of: name) {
            if let key = object.primaryKey { change.changedKeys[key, default: []].formUnion(keys) }
        }
        // Rows no object holds, changed by another connection: the keys its hashes say.
        for (entity, rows) in changes.batchUpdatedKeys where results.context.isKind(entity, of: name) {
            for (key, keys) in rows { change.changedKeys[key, default: []].formUnion(keys) }
        }
        return change
    }

    private func diff(_ changes: ChangeSet) throws -> ResultsChange {
        let name = results.entity.name
        var touched: [Int64: ManagedObject] = [:]
        var deleted = Set<Int64>()
        var updated = Set<Int64>()
        // A sub-entity's objects are the entity's too (a SportCar is a Car).
        let context = results.context
        func ours(_ object: ManagedObject) -> Bool { context.isKind(object.entity.name, of: name) }
        for object in changes.inserted where ours(object) { if let key = object.primaryKey { touched[key] = object } }
        for (object, _) in changes.updated where ours(object) {
            if let key = object.primaryKey {
                touched[key] = object
                updated.insert(key)
            }
        }
        for object in changes.deleted where ours(object) { if let key = object.primaryKey { deleted.insert(key) } }
        var batch = Set<Int64>()
        for (entity, keys) in changes.batchUpdated where context.isKind(entity, of: name) { batch.formUnion(keys) }
        for (entity, keys) in changes.batchDeleted where context.isKind(entity, of: name) { batch.formUnion(keys) }
        guard updatesInMemory, !changes.isExternal, batch.isEmpty, !results.usesPendingChanges else {
            return try reload(changed: updated.union(batch))
        }
        lastChangeWasInMemory = true
        if touched.isEmpty && deleted.isEmpty { return ResultsChange() }
        return applyInMemory(touched: touched, deleted: deleted, updated: updated)
    }

    /// After a reconfiguration (or when a change cannot be applied in memory): reads the
    /// results again and compares.
    public func reload(changed: Set<Int64> = []) throws -> ResultsChange {
        let old = snapshot
        let wereOwn = ownEntities
        try load()
        lastChangeWasInMemory = false
        var change = ResultsChange(from: old, to: snapshot, changed: changed)
        for (_, key) in change.deleted {
            change.deletedEntities[key] = wereOwn[key]
            // Read again should the key come back (as another entity, perhaps).
            ownEntities[key] = nil
        }
        return change
    }

    // MARK: Loading

    private func load() throws {
        try loadKeys()
        try loadOwnEntities()
    }

    private func loadKeys() throws {
        let compiled = results.compiled
        // In a hierarchy the objects that change are of several entities, each with its own
        // keys: the results are read again instead.
        holdsPendingChanges = results.usesPendingChanges
        updatesInMemory = compiled.updatesInMemory && !holdsPendingChanges && !results.context.isInHierarchy(compiled.entity.name)
        sortValues = [:]
        guard updatesInMemory else {
            let snapshot = try results.snapshot()
            keys = snapshot.sections.flatMap(\.keys)
            sectionIDs = snapshot.sections.map(\.id)
            sectionCounts = snapshot.sections.map(\.keys.count)
            return
        }
        // One query for the keys and the sort values; sections are runs of the first.
        let entity = compiled.entity
        let order = MemoryOrder(compiled)
        let attributes = compiled.sort.map { entity.attribute(named: $0.key)! }
        let columns = [compiled.keySQL] + attributes.map { "\(compiled.table).\(compiled.storage.column($0.name))" }
        let query = compiled.select(columns.joined(separator: ", "), start: 0, count: nil)
        var loadedKeys: [Int64] = []
        var loadedValues: [Int64: [Value]] = [:]
        try results.context.connection.forEachRow(query.sql, arguments: query.arguments) { row in
            let key = try row.storedInt64(at: 0, table: entity.name, column: compiled.storage.keyColumn)
            loadedKeys.append(key)
            loadedValues[key] = attributes.enumerated().map { i, attribute in
                order.sortValue(attribute.type.decode(row.value(at: i + 1)), compiled.sort[i])
            }
        }
        keys = loadedKeys
        sortValues = loadedValues
        if results.isSectioned {
            sectionIDs = []
            sectionCounts = []
            for key in keys {
                let id = loadedValues[key]![0]
                if let last = sectionIDs.last, sameSection(last, id) {
                    sectionCounts[sectionCounts.count - 1] += 1
                } else {
                    sectionIDs.append(id)
                    sectionCounts.append(1)
                }
            }
        } else {
            sectionIDs = [.null]
            sectionCounts = [keys.count]
        }
    }

    /// Each held row's own entity, for results of an entity with sub-entities (none else):
    /// kept from load to load, read only for the rows new to the results (the first load
    /// reads them all), whatever window or unsaved changes the results have.
    private func loadOwnEntities() throws {
        let context = results.context
        let entity = results.compiled.entity
        guard !context.descendants(of: entity.name).isEmpty else {
            ownEntities = [:]
            return
        }
        // Rows that left some other way are dropped now and then, not at every load.
        if ownEntities.count > 2 * keys.count + 1_000 {
            let held = Set(keys)
            ownEntities = ownEntities.filter { held.contains($0.key) }
        }
        let unknown = keys.filter { ownEntities[$0] == nil }
        for (key, name) in try context.ownEntityNames(of: entity, keys: unknown) { ownEntities[key] = name }
    }

    // MARK: In memory

    private func applyInMemory(touched: [Int64: ManagedObject], deleted: Set<Int64>, updated: Set<Int64>) -> ResultsChange {
        let compiled = results.compiled
        let order = MemoryOrder(compiled)
        let sectioned = results.isSectioned
        // Where each changed row was, before anything moves.
        var oldPlace: [Int64: Int] = [:]
        for key in Set(touched.keys).union(deleted) {
            guard let values = sortValues[key] else { continue }
            let place = insertionPoint(values, key, order)
            guard place < keys.count, keys[place] == key else { return (try? reload(changed: updated)) ?? ResultsChange() }
            oldPlace[key] = place
        }
        let oldStarts = sectionStarts()
        let oldIDs = sectionIDs
        // Which changed objects belong now, and under which sort values.
        var newValues: [Int64: [Value]] = [:]
        for (key, object) in touched where !deleted.contains(key) && !object.isDeleted {
            guard compiled.predicate?.matches(object) ?? true else { continue }
            newValues[key] = compiled.sort.map { order.sortValue((try? object.value(forKey: $0.key)) ?? .null, $0) }
        }
        // Take the old rows out, highest first, so lower places stay valid.
        for (key, place) in oldPlace.sorted(by: { $0.value > $1.value }) {
            keys.remove(at: place)
            sortValues[key] = nil
            sectionCounts[section(containing: place, sectionStarts())] -= 1
        }
        for i in sectionCounts.indices.reversed() where sectionCounts[i] == 0 && sectioned {
            sectionIDs.remove(at: i)
            sectionCounts.remove(at: i)
        }
        // Put the new rows in, each by binary search.
        for (key, values) in newValues {
            let place = insertionPoint(values, key, order)
            if sectioned { placeInSection(values[0], at: place) } else { sectionCounts[0] += 1 }
            keys.insert(key, at: place)
            sortValues[key] = values
        }
        var newPlace: [Int64: Int] = [:]
        for (key, values) in newValues { newPlace[key] = insertionPoint(values, key, order) }
        let newStarts = sectionStarts()

        var change = ResultsChange()
        func position(_ flat: Int, _ starts: [Int]) -> RowPosition {
            let s = section(containing: flat, starts)
            return RowPosition(section: s, row: flat - starts[s])
        }
        if sectioned {
            let kept = Set(sectionIDs.map(SectionKey.init)).intersection(oldIDs.map(SectionKey.init))
            for (i, id) in oldIDs.enumerated() where !kept.contains(SectionKey(id)) { change.deletedSections.append((i, id)) }
            for (i, id) in sectionIDs.enumerated() where !kept.contains(SectionKey(id)) { change.insertedSections.append((i, id)) }
        }
        // A changed row stays when as many unchanged rows precede it before and after, in
        // the same section, and it keeps its order among the others that stay there.
        let oldChanged = oldPlace.values.sorted()
        let newChanged = newPlace.values.sorted()
        func unchangedBefore(_ place: Int, _ changed: [Int]) -> Int { place - lowerBound(changed, place) }
        var candidates: [Int: [(old: Int, new: Int, key: Int64)]] = [:]
        var moved: [(from: Int, to: Int, key: Int64)] = []
        for (key, to) in newPlace {
            guard let from = oldPlace[key] else { continue }
            let rank = unchangedBefore(from, oldChanged)
            let sameSection = !sectioned || sameSection(oldIDs[position(from, oldStarts).section], sectionIDs[position(to, newStarts).section])
            if sameSection && rank == unchangedBefore(to, newChanged) {
                candidates[rank, default: []].append((from, to, key))
            } else {
                moved.append((from, to, key))
            }
        }
        var stays: [(place: Int, key: Int64)] = []
        for (_, group) in candidates {
            let byNew = group.sorted { $0.new < $1.new }
            let keptOld = Set(longestIncreasing(byNew.map(\.old)))
            for entry in byNew {
                if keptOld.contains(entry.old) { stays.append((entry.new, entry.key)) } else { moved.append((entry.old, entry.new, entry.key)) }
            }
        }
        for (key, from) in oldPlace.sorted(by: { $0.value < $1.value }) where newPlace[key] == nil {
            change.deleted.append((position(from, oldStarts), key))
        }
        for (key, to) in newPlace.sorted(by: { $0.value < $1.value }) where oldPlace[key] == nil {
            change.inserted.append((position(to, newStarts), key))
        }
        for m in moved.sorted(by: { $0.to < $1.to }) {
            change.moved.append((position(m.from, oldStarts), position(m.to, newStarts), m.key))
        }
        for s in stays.sorted(by: { $0.place < $1.place }) where updated.contains(s.key) {
            change.updated.append((position(s.place, newStarts), s.key))
        }
        return change
    }

    /// The first place whose row does not precede (`values`, `key`): the row's own place
    /// when it is present.
    private func insertionPoint(_ values: [Value], _ key: Int64, _ order: MemoryOrder) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            let other = keys[mid]
            if order.precedes(sortValues[other]!, other, values, key) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Adds one row at flat place `place` to the section with id `id`, making it when
    /// there is none (rows of one id are contiguous, so it is a neighbour or new).
    private func placeInSection(_ id: Value, at place: Int) {
        let starts = sectionStarts()
        if place > 0 {
            let before = section(containing: place - 1, starts)
            if sameSection(sectionIDs[before], id) {
                sectionCounts[before] += 1
                return
            }
            if before + 1 < sectionIDs.count, sameSection(sectionIDs[before + 1], id) {
                sectionCounts[before + 1] += 1
                return
            }
            sectionIDs.insert(id, at: before + 1)
            sectionCounts.insert(1, at: before + 1)
        } else if let first = sectionIDs.first, sameSection(first, id) {
            sectionCounts[0] += 1
        } else {
            sectionIDs.insert(id, at: 0)
            sectionCounts.insert(1, at: 0)
        }
    }

    private func sectionStarts() -> [Int] {
        var starts: [Int] = []
        var start = 0
        for count in sectionCounts {
            starts.append(start)
            start += count
        }
        return starts
    }

    /// The section holding flat place `place` (the last whose start is at or before it).
    private func section(containing place: Int, _ starts: [Int]) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= place { low = mid + 1 } else { high = mid }
        }
        // An empty section shares its start with the next, so the last match holds rows.
        return max(0, low - 1)
    }

    private func sameSection(_ a: Value, _ b: Value) -> Bool {
        (a.isNull && b.isNull) || SQLOrdering.compare(a, b) == 0
    }
}

/// A section id as a set member: SQLite's equality (1 and 1.0 are one section).
private struct SectionKey: Hashable {
    let value: Value
    init(_ value: Value) {
        if case .integer(let i) = value {
            self.value = .real(Double(i))
        } else if case .bool(let b) = value {
            self.value = .real(b ? 1 : 0)
        } else {
            self.value = value
        }
    }
}

private func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
        let mid = (low + high) / 2
        if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
}

extension CompiledRequest {
    /// True when a save can be applied to observed results in memory: no window, and a
    /// predicate and sort that read only the entity's own attributes, the section key
    /// (if any) first and compared as stored.
    var updatesInMemory: Bool {
        guard limit == nil, offset == 0, predicate?.readsOnlyOwnAttributes ?? true else { return false }
        guard sort.allSatisfy({ entity.attribute(named: $0.key) != nil }) else { return false }
        // A column's own collation (NOCASE) orders in SQL as the in-memory order does not.
        guard sort.allSatisfy({ storage.columnCollations[$0.key] == nil }) else { return false }
        if let section = sectionAttribute { return sort.first?.key == section.name && sort.first?.comparison == .binary }
        return true
    }
}
