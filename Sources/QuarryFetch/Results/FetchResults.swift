import QuarryModel
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
    /// The unsaved changes merged into the saved rows, while the results include some;
    /// kept across changes (brought up to date by each) until a save or rollback.
    var merge: PendingMerge?
    /// Whether unsaved changes are included, once known for the current changes: asked at
    /// every object read.
    var pendingUse: Bool?
    /// Whether changes to related objects may change any row (see `readsPendingRelatedChanges`).
    var pendingRelated: Bool?
    var pendingSectionCache: (generation: Int, sections: [SectionInfo])?
    /// Objects of the merged rows loaded by batch, kept alive a few batches at a time
    /// (they are found again through the context's registrations).
    private var pendingBatches: [[ManagedObject]] = []
    private var cachedCount: Int?
    /// See `takeTextCellsCounted`.
    private var textCellsCounted: [(key: String, count: Int, sorted: Bool)] = []
    /// See `takeUnreadableDatesLeftOut`.
    private var unreadableDatesLeftOut: [(key: String, count: Int)] = []
    /// The keys of every row in order, read once on first access: batches then load by
    /// key, so walking all rows is linear (paging by OFFSET would rescan for each batch).
    private var keys: OrderedKeys?
    private var sectionCache: [SectionInfo]?
    /// Loaded batches by batch number; a few are kept so a walk over all rows stays flat.
    private var batches: [Int: [ManagedObject]] = [:]
    private var batchOrder: [Int] = []
    /// Reads batches as cells, learning which columns scripts read.
    private var rowSource: RowSource?
    private static let batchesKept = 4

    public init(_ request: FetchRequest, context: ObjectContext) throws {
        self.context = context
        self.request = request
        self.compiled = try CompiledRequest(request, context: context)
        self.generation = context.generation
        self.pendingGeneration = context.pendingGeneration
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
        merge = nil
        pendingBatches = []
        pendingSectionCache = nil
        pendingMoved()
        keys = nil
        sectionCache = nil
        batches = [:]
        batchOrder = []
        rowSource = nil
        rowWalk = (nil, 0)
        hopedKeys = nil
        vouched = 0
        generation = context.generation
    }

    func refreshIfStale() {
        if generation != context.generation {
            // The model may have changed too (`relate`, a migration): the request is
            // compiled again against it. One the new model refuses keeps the old
            // compilation, whose SQL then says what is gone.
            if let current = try? context.entity(named: compiled.entity.name), current != compiled.entity,
                let recompiled = try? CompiledRequest(request, context: context)
            {
                compiled = recompiled
            } else {
                // A save may have made a matched column repeat a value: the joins' one-row
                // guards are decided again from the rows as they are now.
                compiled.relearnJoinFacts(in: context)
            }
            invalidate()
        } else if pendingGeneration != context.pendingGeneration {
            pendingMoved()
        }
    }

    /// After an unsaved change: what the saved rows gave stays (the keys, counts, batches
    /// of live objects); whether and how the changes show is worked out again.
    private func pendingMoved() {
        pendingUse = nil
        pendingRelated = nil
        pendingGeneration = context.pendingGeneration
    }

    /// The number of objects, counted by SQLite.
    public func count() throws -> Int {
        if let merge = try merged() { return window(merge).count }
        if let cachedCount { return cachedCount }
        if let keys { return keys.count }
        let dateKeys = compiled.unreadableDateKeys
        if !dateKeys.isEmpty, let query = compiled.countQuery(unreadableDatesOf: dateKeys) {
            // The cells no date comparison took, counted in the same scan as the rows.
            let counts = (try context.connection.row(query.sql, arguments: query.arguments) ?? []).map { value -> Int in
                if case .integer(let n) = value { return Int(n) }
                return 0
            }
            let n = counts.first ?? 0
            unreadableDatesLeftOut = zip(dateKeys, counts.dropFirst()).filter { $0.1 > 0 }.map { (key: $0.0, count: $0.1) }
            cachedCount = n
            return n
        }
        let textKeys = compiled.textSatisfiedKeys
        let sortedKeys = compiled.textSortedKeys
        if !textKeys.isEmpty || !sortedKeys.isEmpty {
            // The text cells the comparison took in, or the sort placed, counted in the same scan.
            let query = compiled.countQuery(textCellsOf: textKeys + sortedKeys, ordered: !sortedKeys.isEmpty)
            let row = try context.connection.row(query.sql, arguments: query.arguments) ?? []
            // count() gives integers.
            let counts = row.map { value -> Int in
                if case .integer(let n) = value { return Int(n) }
                return 0
            }
            let n = counts.first ?? 0
            textCellsCounted = zip(textKeys + sortedKeys, counts.dropFirst()).filter { $0.1 > 0 }.map {
                (key: $0.0, count: $0.1, sorted: sortedKeys.contains($0.0))
            }
            cachedCount = n
            return n
        }
        let query = compiled.countQuery()
        let n: Int
        do {
            // count(*) is never NULL: one integer, read as a key is.
            n = try context.connection.readKeys(query.sql, arguments: query.arguments).first.map { Int($0) } ?? 0
        } catch {
            // SQLite counts through the smallest index, which fails where that index sorts
            // by a collation only the writing application knows (Anki's `unicase`), while
            // the rows read in key order do not: their keys are counted then.
            guard countsKeysAfter(error), let listed = try? listedKeys() else { throw error }
            keys = listed
            n = listed.count
        }
        cachedCount = n
        return n
    }

    /// The keys whose text cells (no number, in a SQLite file's number column) the last
    /// count took in through a comparison with a number, or the sort placed after every
    /// number (`sorted`), with how many, taken once: a caller says them (`count()` in Lua
    /// gives a note).
    public func takeTextCellsCounted() -> [(key: String, count: Int, sorted: Bool)] {
        defer { textCellsCounted = [] }
        return textCellsCounted
    }

    /// The date keys whose cells hold text that reads as no date, with how many, that the
    /// last count's date comparisons left out, taken once: a caller says them.
    public func takeUnreadableDatesLeftOut() -> [(key: String, count: Int)] {
        defer { unreadableDatesLeftOut = [] }
        return unreadableDatesLeftOut
    }

    /// The object at a 0-based index, or nil past the end.
    public func object(at index: Int) throws -> ManagedObject? {
        // Past SQLite's reach (offset plus index beyond Int64) there is nothing.
        guard index >= 0, index <= Int(Int32.max) * 1024 else { return nil }
        if let merge = try merged() { return try object(at: index, merged: merge.keys) }
        return try savedObject(at: index)
    }

    /// The object at a 0-based index of the saved rows alone (no unsaved change merged).
    func savedObject(at index: Int) throws -> ManagedObject? {
        guard index >= 0, index <= Int(Int32.max) * 1024 else { return nil }
        let size = max(1, request.batchSize)
        let number = index / size
        let batch = try loadBatch(number, size: size)
        let position = index - number * size
        return position < batch.count ? batch[position] : nil
    }

    private func loadBatch(_ number: Int, size: Int) throws -> [ManagedObject] {
        if let batch = batches[number] { return batch }
        let rows = try readRows(start: number * size, count: size, whole: true)
        let batch = try (0..<rows.keys.count).compactMap { try rows.object(at: $0) }
        batches[number] = batch
        // Reading a relationship of one object of the batch loads it for the whole batch.
        LoadGroup.adopt(batch)
        for name in request.prefetch { try context.prefetch(name, for: batch) }
        batchOrder.append(number)
        if batchOrder.count > Self.batchesKept { batches[batchOrder.removeFirst()] = nil }
        return batch
    }

    /// Row `index` of the window of merged rows: a placed object, or a saved row's object,
    /// found registered or loaded with the rest of its batch.
    /// The object at a 0-based index of the saved rows with unsaved changes merged in as
    /// `merged` places them.
    func object(at index: Int, merged: MergedKeys) throws -> ManagedObject? {
        let window = self.window(merged)
        guard index < window.count, let entry = merged.entry(at: window.lowerBound + index) else { return nil }
        switch entry {
        case .object(let object): return object
        case .key(let key):
            if let object = context.registeredObject(entity: entity.name, primaryKey: key) { return object }
            let size = max(1, request.batchSize)
            let start = index / size * size
            let entries = (start..<min(window.count, start + size)).compactMap { merged.entry(at: window.lowerBound + $0) }
            let missing = entries.compactMap { entry -> Int64? in
                guard case .key(let k) = entry, context.registeredObject(entity: entity.name, primaryKey: k) == nil else { return nil }
                return k
            }
            let source = rowSource ?? RowSource(entity: compiled.entity, storage: compiled.storage)
            rowSource = source
            let rows = try source.read(keys: missing, context: context, whole: true)
            var loaded: [Int64: ManagedObject] = [:]
            for row in 0..<rows.keys.count { if let object = try rows.object(at: row) { loaded[rows.keys[row]] = object } }
            let batch = entries.compactMap { entry -> ManagedObject? in
                switch entry {
                case .object(let object): return object
                case .key(let k): return loaded[k] ?? context.registeredObject(entity: entity.name, primaryKey: k)
                }
            }
            LoadGroup.adopt(batch)
            for name in request.prefetch { try context.prefetch(name, for: batch) }
            pendingBatches.append(batch)
            if pendingBatches.count > Self.batchesKept { pendingBatches.removeFirst() }
            return loaded[key]
        }
    }

    /// Whether `rows(around:)` may answer: not when the results must be objects (unsaved
    /// changes are included, or relationships are prefetched).
    public func servesRows() throws -> Bool {
        request.prefetch.isEmpty && !usesPendingChanges
    }

    /// The rows of the batch holding the 0-based `index`, as cells, with the index of
    /// its first row; nil past the end. Only while `servesRows()`. A walk in order (each
    /// call asking for the row after the last one read) reads further ahead each time,
    /// up to `readAhead` rows, so a loop over a large result runs few statements.
    public func rows(around index: Int) throws -> (start: Int, rows: RowBatch)? {
        guard index >= 0, index <= Int(Int32.max) * 1024 else { return nil }
        let size = max(1, request.batchSize)
        let start: Int
        if index == rowWalk.end {
            start = index
            rowWalk.span = min(max(size, Self.readAhead), max(size, rowWalk.span * 2))
        } else {
            start = index / size * size
            rowWalk.span = size
        }
        let rows = try walkRows(start: start, count: rowWalk.span)
        rowWalk.end = start + rowWalk.span
        return index - start < rows.keys.count ? (start, rows) : nil
    }

    /// Where the last rows read by `rows(around:)` ended, and how many were read.
    private var rowWalk: (end: Int?, span: Int) = (nil, 0)
    private static let readAhead = 2048

    /// The keys a walk in key order reads before they are counted (`walkRows`): nil not
    /// looked for yet, `.some(nil)` none to hope for.
    private var hopedKeys: ClosedRange<Int64>??
    /// How many of the hoped keys, from the first, windows read whole have vouched for.
    private var vouched = 0

    /// Rows `start..<start+count` of a walk (`rows(around:)`), the columns read so far.
    /// A request that takes a table's rows in key order hopes its keys are `min...max`
    /// (a table imported and not deleted from), which two lookups at the b-tree's ends
    /// give, and reads windows of them as key ranges: a window that comes back with every
    /// key, after windows that did from the first, is what the counted keys would give.
    /// Counting them first (`denseKeys`) read the whole table once more before the first
    /// row (14 ms of a loop over 336,776 flights). A window with a key missing sends this
    /// walk and the rest to the keys as counted or listed (`orderedKeys`).
    private func walkRows(start: Int, count: Int) throws -> RowBatch {
        if keys == nil, start <= vouched, let hoped = try hopedRange() {
            let window = OrderedKeys.dense(hoped).slice(from: start, count: count)
            let source = rowSource ?? RowSource(entity: compiled.entity, storage: compiled.storage)
            rowSource = source
            let rows = try source.read(keys: window, context: context)
            if rows.keys.count == window.count {
                vouched = max(vouched, start + window.count)
                return rows
            }
            hopedKeys = .some(nil)
        }
        return try readRows(start: start, count: count, whole: false)
    }

    /// `min...max` of the request's table, when the request takes its rows in key order
    /// from the first with no limit (`hopedKeys`).
    private func hopedRange() throws -> ClosedRange<Int64>? {
        if let hopedKeys { return hopedKeys }
        var found: ClosedRange<Int64>?
        if compiled.takesRowsInKeyOrder, compiled.offset == 0, compiled.limit == nil {
            let (key, table) = (compiled.storage.key, compiled.storage.table)
            // No row for an empty table (its min() and max() are NULL, read as 0).
            let bounds = try context.connection.readKeys(
                "SELECT (SELECT min(\(key)) FROM \(table)), (SELECT max(\(key)) FROM \(table)) WHERE EXISTS (SELECT 1 FROM \(table))",
                arguments: [], columns: 2)
            // A span too wide to be walked is left to the counted keys.
            if bounds.count == 2, bounds[0] <= bounds[1], !bounds[1].subtractingReportingOverflow(bounds[0]).overflow,
                bounds[1] - bounds[0] < Int64(Int32.max) * 1024
            {
                found = bounds[0]...bounds[1]
            }
        }
        hopedKeys = .some(found)
        return found
    }

    /// Rows `start..<start+count` as cells: whole rows (to make objects of), or the
    /// columns read so far.
    private func readRows(start: Int, count: Int, whole: Bool) throws -> RowBatch {
        let keys = try orderedKeys().slice(from: start, count: count)
        let source = rowSource ?? RowSource(entity: compiled.entity, storage: compiled.storage)
        rowSource = source
        return try whole ? source.read(keys: keys, context: context, whole: true) : source.read(keys: keys, context: context)
    }

    /// The keys of the rows in order, as of now.
    func currentKeys() throws -> [Int64] {
        if let merge = try merged() {
            return pendingEntries(merge).compactMap { entry in
                switch entry {
                case .key(let key): return key
                case .object(let object): return object.primaryKey
                }
            }
        }
        return try orderedKeys().all
    }

    private func orderedKeys() throws -> OrderedKeys {
        if let keys { return keys }
        if let dense = try denseKeys() {
            keys = dense
            return dense
        }
        let loaded = try listedKeys()
        keys = loaded
        return loaded
    }

    /// Whether a count that failed so is worth counting by the keys read in order: the
    /// engine refused the statement in a file another program made (whose indexes may use
    /// collations only that program knows). Never after a lost connection, a busy file or
    /// an interrupt, which the read would meet again or, reconnected, hide.
    private func countsKeysAfter(_ error: Error) -> Bool {
        guard compiled.storage.keepsAnyType, let failure = (error as? StoreError)?.engineFailure else { return false }
        return !failure.isBusy && !failure.isConnectionLost
    }

    /// The keys of the rows in order, read.
    private func listedKeys() throws -> OrderedKeys {
        let query = compiled.select(compiled.keySQL, start: 0, count: nil)
        return OrderedKeys.listed(try context.connection.readKeys(query.sql, arguments: query.arguments))
    }

    /// The keys without reading them, when the request takes a table's rows in key order
    /// and the keys have no gaps (a table imported and not deleted from): they are then
    /// `min...max`, and a walk over every row reads the table once instead of twice.
    func denseKeys(windowed: Bool = true) throws -> OrderedKeys? {
        guard compiled.takesRowsInKeyOrder else { return nil }
        let (key, table) = (compiled.storage.key, compiled.storage.table)
        // Three queries, as SQLite answers min() and max() alone from the b-tree's ends. A
        // count that fails through an index of an unknown collation (as in `count()`)
        // leaves the keys to be read.
        let bounds: [Int64]
        do {
            bounds = try context.connection.readKeys(
                "SELECT (SELECT min(\(key)) FROM \(table)), (SELECT max(\(key)) FROM \(table)), (SELECT count(*) FROM \(table))",
                arguments: [], columns: 3)
        } catch {
            guard countsKeysAfter(error) else { throw error }
            return nil
        }
        guard bounds.count == 3 else { return nil }
        let (low, high, count) = (bounds[0], bounds[1], bounds[2])
        if count == 0 { return .empty }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, span == count - 1 else { return nil }
        if !windowed { return .dense(low...high) }
        let skip = Int64(min(compiled.offset, Int(count)))
        let take = min(count - skip, Int64(compiled.limit ?? Int(count)))
        guard take > 0 else { return .empty }
        // Closed, so a table whose last key is Int64.max needs no key past it.
        let start = low + skip
        return .dense(start...(start + (take - 1)))
    }

    /// Every object in order, fetched batch by batch.
    public func objects() throws -> [ManagedObject] {
        var result: [ManagedObject] = []
        var index = 0
        while let object = try object(at: index) {
            result.append(object)
            index += 1
        }
        return result
    }

    /// The SQL that loads the objects, with its arguments, for `explain`.
    public func sql() -> SQLFragment {
        compiled.select(compiled.storage.selection(of: compiled.entity, qualifier: compiled.storage.relation), start: 0, count: nil)
    }
}
