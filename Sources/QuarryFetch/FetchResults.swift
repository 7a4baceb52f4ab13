import GRDB
import QuarryPredicates
import QuarryStore

/// The live answer to a request, as @FetchRequest gives it: counted with one `COUNT`,
/// loaded a batch at a time around the index asked for, and re-run after every save or
/// rollback of its context, or when reconfigured.
public final class FetchResults {
    public let context: ObjectContext
    public private(set) var request: FetchRequest
    private(set) var compiled: CompiledRequest
    private var generation: Int
    private var pendingGeneration: Int
    /// The objects, while the entity has unsaved changes and they are included.
    private var pendingList: [ManagedObject]?
    private var cachedCount: Int?
    /// The keys of every row in order, read once on first access: batches then load by
    /// key, so walking all rows is linear (paging by OFFSET would rescan for each batch).
    private var keys: [Int64]?
    private var sectionCache: [SectionInfo]?
    /// Loaded batches by batch number; a few are kept so a walk over all rows stays flat.
    private var batches: [Int: [ManagedObject]] = [:]
    private var batchOrder: [Int] = []
    private static let batchesKept = 4

    public init(_ request: FetchRequest, context: ObjectContext) throws {
        self.context = context
        self.request = request
        self.compiled = try CompiledRequest(request, context: context)
        self.generation = context.generation
        self.pendingGeneration = context.pendingGeneration
    }

    /// The objects with unsaved changes included, when the entity has any.
    private func withPending() throws -> [ManagedObject]? {
        refreshIfStale()
        guard usesPendingChanges else { return nil }
        if let pendingList { return pendingList }
        let list = try pendingObjects()
        pendingList = list
        return list
    }

    public var entity: EntityDescription { compiled.entity }
    public var isSectioned: Bool { compiled.sectionAttribute != nil }
    /// True when the request's sort did not begin with the section key, so Quarry put it first.
    public var sortedBySectionFirst: Bool { compiled.sortedBySectionFirst }
    var compiledSectionAttribute: AttributeDescription? { compiled.sectionAttribute }

    func cachedSections() -> [SectionInfo]? {
        refreshIfStale()
        return sectionCache
    }

    func store(_ sections: [SectionInfo]) { sectionCache = sections }
    public var predicate: BoundPredicate? { compiled.predicate }

    /// Changes the request and re-runs it; on a bad change the results keep the old one.
    public func reconfigure(_ change: (inout FetchRequest) -> Void) throws {
        var next = request
        change(&next)
        compiled = try CompiledRequest(next, context: context)
        request = next
        invalidate()
    }

    private func invalidate() {
        cachedCount = nil
        pendingList = nil
        pendingGeneration = context.pendingGeneration
        keys = nil
        sectionCache = nil
        batches = [:]
        batchOrder = []
        generation = context.generation
    }

    private func refreshIfStale() {
        if generation != context.generation || pendingGeneration != context.pendingGeneration { invalidate() }
    }

    /// The number of objects, counted by SQLite.
    public func count() throws -> Int {
        if let list = try withPending() { return list.count }
        if let cachedCount { return cachedCount }
        if let keys { return keys.count }
        let query = compiled.countQuery()
        let n = try context.read { db in
            try Int.fetchOne(db, sql: query.sql, arguments: StatementArguments(query.arguments.map(\.databaseValue))) ?? 0
        }
        cachedCount = n
        return n
    }

    /// The object at a 0-based index, or nil past the end.
    public func object(at index: Int) throws -> ManagedObject? {
        // Past SQLite's reach (offset plus index beyond Int64) there is nothing.
        guard index >= 0, index <= Int(Int32.max) * 1024 else { return nil }
        if let list = try withPending() { return index < list.count ? list[index] : nil }
        let size = max(1, request.batchSize)
        let number = index / size
        let batch = try loadBatch(number, size: size)
        let position = index - number * size
        return position < batch.count ? batch[position] : nil
    }

    private func loadBatch(_ number: Int, size: Int) throws -> [ManagedObject] {
        if let batch = batches[number] { return batch }
        let entity = compiled.entity
        let allKeys = try orderedKeys()
        let start = number * size
        guard start < allKeys.count else { return [] }
        let slice = Array(allKeys[start..<min(allKeys.count, start + size)])
        var found: [Int64: ManagedObject] = [:]
        var missing: [Int64] = []
        for key in slice {
            if let object = context.registeredObject(entity: entity.name, primaryKey: key) { found[key] = object } else { missing.append(key) }
        }
        let keyColumn = "\(quoteIdentifier(entity.name)).\(quoteIdentifier(entity.primaryKey))"
        var offset = 0
        while offset < missing.count {
            let chunk = Array(missing[offset..<min(missing.count, offset + 500)])
            offset += chunk.count
            // Placeholders rounded up to a power of two (the rest bound to NULL), so a
            // few statements serve every batch.
            let placeholders = 1 << (Int.bitWidth - (chunk.count - 1).leadingZeroBitCount)
            let sql = "SELECT \(entity.selectionSQL(qualifier: entity.name)) FROM \(quoteIdentifier(entity.name)) WHERE \(keyColumn) IN (\(Array(repeating: "?", count: max(1, placeholders)).joined(separator: ",")))"
            let rows = try context.read { db in try RowReader.rows(db, sql: sql, keys: chunk) }
            for values in rows {
                let object = context.object(for: entity, values: values)
                if let key = object.primaryKey { found[key] = object }
            }
        }
        // A row deleted by another connection since the keys were read is left out.
        let batch = slice.compactMap { found[$0] }
        batches[number] = batch
        // Reading a relationship of one object of the batch loads it for the whole batch.
        LoadGroup.adopt(batch)
        for name in request.prefetch { try context.prefetch(name, for: batch) }
        batchOrder.append(number)
        if batchOrder.count > Self.batchesKept { batches[batchOrder.removeFirst()] = nil }
        return batch
    }

    /// The keys of the rows in order, as of now.
    func currentKeys() throws -> [Int64] {
        if let list = try withPending() { return list.compactMap(\.primaryKey) }
        return try orderedKeys()
    }

    private func orderedKeys() throws -> [Int64] {
        if let keys { return keys }
        let entity = compiled.entity
        let query = compiled.select("\(quoteIdentifier(entity.name)).\(quoteIdentifier(entity.primaryKey))", start: 0, count: nil)
        let loaded = try context.read { db in
            try Int64.fetchAll(db, sql: query.sql, arguments: StatementArguments(query.arguments.map(\.databaseValue)))
        }
        keys = loaded
        return loaded
    }

    /// Every object in order, fetched batch by batch.
    public func objects() throws -> [ManagedObject] {
        var result: [ManagedObject] = []
        var index = 0
        while let object = try object(at: index) { result.append(object); index += 1 }
        return result
    }

    /// The SQL that loads the objects, with its arguments, for `explain`.
    public func sql() -> SQLFragment {
        compiled.select(compiled.entity.selectionSQL(qualifier: compiled.entity.name), start: 0, count: nil)
    }
}
