import QuarryModel
import QuarryPredicates
import QuarryStore

/// Results that include the context's unsaved changes, as Core Data's fetches do by
/// default: the saved rows that match (less those deleted or changed so they no longer
/// match), plus inserted and changed objects that match, in the order the sort gives, as
/// saving and fetching again would give them. The saved rows stay keys from SQLite; only
/// the objects with changes are placed in memory (`PendingMerge`).
extension FetchResults {
    /// Worked out once per state of the context's changes (see `pendingUse`).
    var usesPendingChanges: Bool {
        refreshIfStale()
        if let pendingUse { return pendingUse }
        let use: Bool
        if !request.includesPendingChanges {
            use = false
        } else if readsPendingRelatedChanges {
            use = true
        } else if let merge, !merge.isWhole, merge.generation == context.generation,
            let touched = context.objectsTouched(after: merge.pendingGeneration)
        {
            // Only the changes since the merge are looked at, not every pending object.
            use = merge.tracksChanges || touched.contains { context.isKind($0.entity.name, of: entity.name) }
        } else {
            use = context.hasPendingChanges(of: entity.name)
        }
        pendingUse = use
        return use
    }

    /// True when the predicate, sort or section key reads through relationships and an
    /// entity they reach has unsaved changes: then any saved row may match or sort
    /// differently (a Car by `owner.firstName` when a Person is renamed), and every row is
    /// tested in memory. The entity's own changed objects alone are placed one by one.
    var readsPendingRelatedChanges: Bool {
        refreshIfStale()
        if let pendingRelated { return pendingRelated }
        let answer = findsPendingRelatedChanges()
        pendingRelated = answer
        return answer
    }

    private func findsPendingRelatedChanges() -> Bool {
        let readsThrough =
            !(compiled.predicate?.readsOnlyOwnAttributes ?? true) || compiled.sort.contains { $0.key.contains(".") }
            || (request.sectionKey?.contains(".") ?? false)
        guard request.includesPendingChanges, readsThrough, context.hasChanges else { return false }
        let pending = context.pendingChanges
        let objects = pending.inserted + pending.updated + pending.deleted
        // Only links of many-to-many relationships are pending: they may be read.
        if objects.isEmpty { return true }
        let reached = reachableRoots()
        return objects.contains { reached.contains(context.rootName(of: $0.entity.name)) }
    }

    /// The hierarchies (by root) that relationships lead to from the entity, at any depth
    /// (the entity's own only when a relationship leads back to it).
    private func reachableRoots() -> Set<String> {
        var roots: Set<String> = []
        var queue: [String] = []
        func follow(_ root: String) {
            let family = [root] + context.descendants(of: root).map(\.name)
            for name in family {
                guard let description = try? context.entity(named: name) else { continue }
                for relationship in description.relationships { queue.append(context.rootName(of: relationship.destination)) }
            }
        }
        follow(context.rootName(of: entity.name))
        while let root = queue.popLast() {
            guard roots.insert(root).inserted else { continue }
            follow(root)
        }
        return roots
    }

    /// The merge of the unsaved changes for the current state, brought up to date by the
    /// changes made since it was last used; nil while the results do not include any.
    func merged() throws -> PendingMerge? {
        guard usesPendingChanges else { return nil }
        let now = context.pendingGeneration
        if readsPendingRelatedChanges {
            if let merge, merge.isWhole, merge.generation == context.generation, merge.pendingGeneration == now { return merge }
            merge = nil
            let whole = try wholeMerge()
            merge = whole
            return whole
        }
        if let merge, !merge.isWhole, merge.generation == context.generation {
            if merge.pendingGeneration == now { return merge }
            if let touched = context.objectsTouched(after: merge.pendingGeneration) {
                // Dropped on failure, so a half-updated merge is never used.
                self.merge = nil
                let rules = try mergeRules()
                var seen = Set<ObjectIdentifier>()
                for object in touched.reversed() where seen.insert(ObjectIdentifier(object)).inserted {
                    try merge.track(object, rules)
                }
                merge.pendingGeneration = now
                self.merge = merge
                return merge
            }
        }
        merge = nil
        let fresh = PendingMerge(
            generation: context.generation, pendingGeneration: now,
            keys: MergedKeys(base: try savedKeys()), isWhole: false)
        let rules = try mergeRules()
        let pending = context.pendingChanges
        for object in pending.inserted + pending.updated + pending.deleted { try fresh.track(object, rules) }
        merge = fresh
        return fresh
    }

    /// Every saved row that matches, in SQL order, whatever the window (the changes may
    /// move rows into or out of it).
    private func savedKeys() throws -> OrderedKeys {
        if let dense = try denseKeys(windowed: false) { return dense }
        let query = compiled.selectAll(compiled.keySQL)
        return .listed(try context.connection.readKeys(query.sql, arguments: query.arguments))
    }

    private func mergeRules() throws -> PendingMerge.Rules {
        let order = MemoryOrder(compiled)
        let sort = compiled.sort
        let context = self.context
        let name = entity.name
        let read = try sortValuesQuery()
        return PendingMerge.Rules(
            isOfEntity: { object in context.isKind(object.entity.name, of: name) },
            belongs: { [unowned self] object in self.belongs(object) },
            matches: { [unowned self] object in self.matches(object) },
            sortValues: { [unowned self] object in sort.map { order.sortValue(self.value(atPath: $0.key, of: object), $0) } },
            rowValues: { key in
                let row = try context.connection.row(read.sql, arguments: [.integer(key)], cached: true)
                return zip(sort, read.attributes).enumerated().map { i, pair in
                    let raw = row.map { i < $0.count ? $0[i] : .null } ?? .null
                    return order.sortValue(pair.1.type.decode(raw), pair.0)
                }
            },
            order: order)
    }

    /// `SELECT <each sort key> FROM <the request's tables> WHERE key = ?`: a saved row's
    /// sort values, read as the ORDER BY reads them (through the same joins).
    private func sortValuesQuery() throws -> (sql: String, attributes: [AttributeDescription]) {
        var joins: ToOneJoins? = compiled.joins
        let columns = try compiled.sort.map { try $0.column(for: entity, qualifier: entity.name, context: context, joins: &joins) }
        let source = compiled.table + (joins ?? compiled.joins).sql
        let select = columns.isEmpty ? "NULL" : columns.map(\.sql).joined(separator: ", ")
        return ("SELECT \(select) FROM \(source) WHERE \(compiled.keySQL) = ?", columns.map(\.attribute))
    }

    /// Every row tested and sorted in memory: for when changes to related objects may
    /// change any saved row's answer.
    private func wholeMerge() throws -> PendingMerge {
        let query = compiled.selectEveryRow(compiled.keySQL)
        var objects = try load(try context.connection.readKeys(query.sql, arguments: query.arguments))
        objects.removeAll { object in object.isDeleted || !matches(object) }
        let pending = context.pendingChanges
        let present = Set(objects.map(ObjectIdentifier.init))
        for object in pending.updated where belongs(object) && !present.contains(ObjectIdentifier(object)) && matches(object) {
            objects.append(object)
        }
        for object in pending.inserted where belongs(object) && matches(object) { objects.append(object) }
        // Each object's sort values once, not once per comparison.
        let order = MemoryOrder(compiled)
        let placed = objects.map { object in
            MergedKeys.Placed(
                object: object, gap: 0, values: compiled.sort.map { order.sortValue(value(atPath: $0.key, of: object), $0) },
                tie: MemoryOrder.Tie(object))
        }.sorted { order.precedes($0.values, $0.tie, $1.values, $1.tie) }
        return PendingMerge(
            generation: context.generation, pendingGeneration: context.pendingGeneration,
            keys: MergedKeys(ordered: placed), isWhole: true)
    }

    /// The rows of the request's window within the merged rows.
    func window(_ merge: PendingMerge) -> Range<Int> { window(merge.keys) }

    func window(_ keys: MergedKeys) -> Range<Int> {
        let total = keys.count
        let start = min(compiled.offset, total)
        let end = compiled.limit.map { min(total, start + $0) } ?? total
        return start..<end
    }

    /// The merged rows of the window, in order.
    func pendingEntries(_ merge: PendingMerge) -> [PendingEntry] {
        let window = self.window(merge)
        var entries: [PendingEntry] = []
        entries.reserveCapacity(window.count)
        var index = 0
        merge.keys.forEachPiece { piece in
            guard index < window.upperBound else { return }
            switch piece {
            case .base(let range):
                let skip = max(0, window.lowerBound - index)
                let take = min(range.count, window.upperBound - index)
                if skip < take { for p in (range.lowerBound + skip)..<(range.lowerBound + take) { entries.append(.key(merge.keys.base.key(at: p))) } }
                index += range.count
            case .placed(let placed):
                if index >= window.lowerBound { entries.append(.object(placed.object)) }
                index += 1
            }
        }
        return entries
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
                let sql = context.sqlDialect.rowsByKey(storage.selection(of: entity), of: storage, count: missing.count)
                // Read first, then made: making an object may read the store (a sub-entity's row).
                for row in try context.connection.rows(sql, arguments: missing.map(Value.integer)) {
                    let o = try context.object(for: entity, values: row)
                    if let key = o.primaryKey { found[key] = o }
                }
            }
            result += chunk.compactMap { found[$0] }
        }
        return result
    }

    /// The value a key path (`maker`, `owner.firstName`) reaches from an object, pending
    /// changes included; nil when a relationship on the way is empty, as the SQL's LEFT
    /// JOIN gives NULL.
    func value(atPath path: String, of object: ManagedObject) -> Value {
        var current: ManagedObject? = object
        var components = path.split(separator: ".").map(String.init)
        // A date's part (`time_hour.month`), as the SQL computes it (`DatePart`).
        var part: DatePart?
        if components.count >= 2, let named = DatePart(rawValue: components[components.count - 1]),
            (try? BoundPredicate.keyPathValue(path, in: entity, context: context))?.part == named
        {
            part = named
            components.removeLast()
        }
        for name in components.dropLast() {
            current = current.flatMap { try? context.relatedObject(name, of: $0) }
        }
        guard let target = current, let last = components.last, let value = try? target.value(forKey: last) else { return .null }
        return part.map { $0.value(of: value) } ?? value
    }

    /// Sections of the results with unsaved changes: the saved rows' sections (one grouped
    /// query over every matching row, whatever the window), less the rows taken out, with
    /// each placed object counted in the section its key (read along its path, as the SQL
    /// reads it) names; keys equal as SQL's GROUP BY finds them (1 and 1.0) are one section.
    func pendingSections() throws -> [SectionInfo] {
        guard let key = request.sectionKey, let attribute = compiledSectionAttribute, let merge = try merged() else { return [] }
        if let pendingSectionCache, pendingSectionCache.generation == merge.pendingGeneration { return pendingSectionCache.sections }
        let saved: [SectionInfo]
        if let known = merge.baseSections {
            saved = known
        } else if merge.keys.base.count == 0 {
            saved = []
        } else {
            saved = try readSections(compiled.sectionQuery(attribute, whole: true), attribute)
        }
        merge.baseSections = saved
        var runs: [SectionInfo] = []
        var total = 0
        func add(_ id: Value, _ n: Int) {
            if let last = runs.last, sameSection(last.id, id) {
                runs[runs.count - 1].count += n
            } else {
                runs.append(SectionInfo(id: id, start: total, count: n))
            }
            total += n
        }
        var s = 0
        merge.keys.forEachPiece { piece in
            switch piece {
            case .base(let range):
                var p = range.lowerBound
                while p < range.upperBound {
                    while s < saved.count, saved[s].start + saved[s].count <= p { s += 1 }
                    guard s < saved.count else { return }
                    let end = min(range.upperBound, saved[s].start + saved[s].count)
                    add(saved[s].id, end - p)
                    p = end
                }
            case .placed(let placed): add(value(atPath: key, of: placed.object), 1)
            }
        }
        let window = self.window(merge)
        let sections = runs.compactMap { run -> SectionInfo? in
            let start = max(run.start, window.lowerBound)
            let end = min(run.start + run.count, window.upperBound)
            return start < end ? SectionInfo(id: run.id, start: start - window.lowerBound, count: end - start) : nil
        }
        pendingSectionCache = (merge.pendingGeneration, sections)
        return sections
    }

    private func sameSection(_ a: Value, _ b: Value) -> Bool {
        (a.isNull && b.isNull) || (!a.isNull && !b.isNull && SQLOrdering.compare(a, b) == 0)
    }
}
