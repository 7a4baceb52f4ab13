import CQuarryRows
import Foundation
import QuarryEngine
import QuarryModel

/// A batch of an entity's rows read by key, kept as flat cells (`quarry_cell`) rather
/// than objects: a script that walks every row reading two attributes then costs a
/// SQLite step and two cell reads per row, where a `ManagedObject` each would cost an
/// allocation, a registration and a decoded row. An object is made for a row only when
/// something needs one (`object(at:)`); the cells' layout is shared with C so the Lua
/// layer can read them without calling into Swift.
public final class RowBatch {
    public let source: RowSource
    public var entity: EntityDescription { source.entity }
    /// The rows' keys, in the order asked for (rows gone since are left out).
    public let keys: [Int64]
    /// The attributes read (indexes into `entity.attributes`): cell `i + 1` of a row holds
    /// attribute `attributes[i]`; cell 0 is the key.
    public let attributes: [Int]
    /// True when the cells hold whole rows (every attribute and relationship column), so
    /// objects can be made from them.
    let isComplete: Bool
    /// True when each row's last cell is its entity column (whole rows of an entity with
    /// sub-entities): the row's own entity, known without a query.
    let isTagged: Bool
    /// Cells per row (the entity column's included).
    public let columnCount: Int
    /// `keys.count * columnCount` cells, row after row.
    public let cells: UnsafeMutablePointer<quarry_cell>
    /// The bytes text and blob cells point into.
    public let bytes: UnsafeMutablePointer<UInt8>
    /// The objects registered for rows of the batch when it was read: those rows must be
    /// shown through their objects (which may hold unsaved changes), not the cells.
    public let registered: [Int: ManagedObject]
    /// The root of the entity's hierarchy: rows are one Lua value per root and key, as
    /// a row fetched as a `Car` and as a `SportCar` is one object.
    public let identityRoot: String
    /// The context's link (`ContextLink`): the batch does not keep the context alive.
    private let link: ContextLink
    private var context: ObjectContext? { link.context }
    /// The context the rows were read from (nil once it is gone): a script with several
    /// stores open asks which one a row belongs to before the row is made an object.
    public var owningContext: ObjectContext? { link.context }
    /// The context's generation when read: after a save or refresh the cells may be stale.
    private let generation: Int
    private let group: LoadGroup
    /// The same rows whole, read when an object is made from a batch that is not.
    private var whole: RowBatch?

    /// Reads the rows with the keys in `keys` by `sql(n)` for `n` keys (placeholders,
    /// any past the keys bound to NULL), or `range` for the first and last key. Keys that
    /// rise without many gaps (results in key order) are read as one range, a scan;
    /// others 500 at a time. Rows come back in `keys`' order whatever order SQLite
    /// returns them in. `rangeArguments` binds `range` for the first and last key.
    init(
        source: RowSource, keys: [Int64], attributes: [Int], isComplete: Bool, tagged: Bool, context: ObjectContext,
        sql: (Int) -> String, range: String, rangeArguments: (Int64, Int64) -> [Int64] = { [$0, $1] }
    ) throws {
        self.source = source
        self.attributes = attributes
        self.isComplete = isComplete
        self.isTagged = tagged
        self.link = context.link
        self.generation = context.generation
        self.identityRoot = context.rootName(of: source.entity.name)
        var filled = [Bool](repeating: false, count: keys.count)
        var width = 0
        var allocated: UnsafeMutablePointer<quarry_cell>?
        var bytes = ByteArena()
        var chunks: [(sql: String, parameters: ArraySlice<Int64>)] = []
        // By range, rows come in key order, as `keys` are: a cursor finds each row's slot.
        var slots: [Int64: Int] = [:]
        var cursor = 0
        let ranged: Bool
        let (distance, overflow) = (keys.last ?? 0).subtractingReportingOverflow(keys.first ?? 0)
        // Not for rows known by a number made from their key (`numberedRows`): no index
        // finds a range of numbers, so `BETWEEN` computed every row's (a whole table read
        // for one object), where the keys' own index finds each.
        if !keys.isEmpty, !overflow, distance >= 0, distance < 2 * Int64(keys.count), source.storage.numberedRows == nil,
            zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 })
        {
            ranged = true
            chunks = [(range, ArraySlice(rangeArguments(keys[0], keys[keys.count - 1])))]
        } else {
            ranged = false
            slots.reserveCapacity(keys.count)
            // A view may repeat a key: its first slot is read, the others copy it below.
            for (slot, key) in keys.enumerated() where slots[key] == nil { slots[key] = slot }
            var offset = 0
            while offset < keys.count {
                let chunk = keys[offset..<min(keys.count, offset + 500)]
                offset += chunk.count
                chunks.append((sql(chunk.count), chunk))
            }
        }
        do {
            for (sql, parameters) in chunks {
                try context.connection.readStatement(sql) { statement in
                    statement.bind(keys: Array(parameters))
                    if allocated == nil {
                        width = statement.columnCount
                        allocated = .allocate(capacity: max(1, keys.count * width))
                    }
                    guard let cells = allocated else { return }
                    while try statement.step() {
                        // The key is cell 0, read once: an integer key is its value (one
                        // call a row, as the other cells are read).
                        var first = quarry_cell()
                        statement.readCells(0..<1, into: &first, arena: &bytes)
                        let key = first.tag == Int32(QUARRY_CELL_INTEGER) ? first.value : statement.int64(0)
                        let slot: Int
                        if ranged {
                            while cursor < keys.count, keys[cursor] < key { cursor += 1 }
                            guard cursor < keys.count, keys[cursor] == key else { continue }
                            slot = cursor
                        } else {
                            guard let found = slots[key] else { continue }
                            slot = found
                        }
                        guard !filled[slot] else { continue }
                        filled[slot] = true
                        let row = cells + slot * width
                        if width > 0 { row[0] = first }
                        if width > 1 { statement.readCells(1..<Int32(width), into: row + 1, arena: &bytes) }
                    }
                }
            }
        } catch {
            allocated?.deallocate()
            bytes.take().deallocate()
            throw error
        }
        let cells = allocated ?? .allocate(capacity: 1)
        if !ranged {
            for (slot, key) in keys.enumerated() where !filled[slot] {
                guard let first = slots[key], first != slot, filled[first] else { continue }
                (cells + slot * width).update(from: cells + first * width, count: width)
                filled[slot] = true
            }
        }
        // A row deleted by another connection since the keys were read is left out.
        var kept: [Int64] = []
        kept.reserveCapacity(keys.count)
        for (slot, key) in keys.enumerated() where filled[slot] {
            if kept.count != slot { (cells + kept.count * width).update(from: cells + slot * width, count: width) }
            kept.append(key)
        }
        self.keys = kept
        self.columnCount = width
        self.cells = cells
        self.bytes = bytes.take()
        var registered: [Int: ManagedObject] = [:]
        if let inUse = context.registrations(of: source.entity.name) {
            for (row, key) in kept.enumerated() {
                if let object = inUse[key]?.object { registered[row] = object }
            }
        }
        self.registered = registered
        self.group = LoadGroup(entity: source.entity.name, keys: kept)
    }

    deinit {
        cells.deallocate()
        bytes.deallocate()
    }

    /// The object for row `row`: the one registered for it, or a new one made from the
    /// cells (read again when the store has changed since). Nil once the context is gone.
    public func object(at row: Int) throws -> ManagedObject? {
        guard let context, row >= 0, row < keys.count else { return nil }
        let key = keys[row]
        let object: ManagedObject
        // While the context is as read, the hierarchy's root is the one the batch was read
        // under (a definition moves the generation): not looked up again in the model for
        // each object a loop makes (issue 84).
        let current = generation == context.generation
        if let existing = current
            ? context.registeredObject(root: identityRoot, primaryKey: key) : context.registeredObject(entity: entity.name, primaryKey: key)
        {
            object = existing
        } else if current, isComplete {
            object = try context.object(for: entity, storedRow: values(row), ownTag: tag(row), unregistered: true, root: identityRoot)
        } else if current, let whole = try wholeRows(),
            let index = row < whole.keys.count && whole.keys[row] == key ? row : whole.keys.firstIndex(of: key)
        {
            object = try context.object(for: entity, storedRow: whole.values(index), ownTag: whole.tag(index))
        } else if let fresh = try context.object(entityName: entity.name, primaryKey: key) {
            object = fresh
        } else {
            // Deleted since it was read: an object that says so, as a deleted one does, of
            // the entity the row was when read, where the batch read it.
            var own = entity
            var read = isComplete ? values(row) : [.integer(key)]
            // Only whole rows carry the tag, so `read` is the parent's whole row here.
            if let tag = tag(row), let tagged = context.ownEntity(of: entity, tag: tag), tagged.name != entity.name {
                own = tagged
                read = context.values(read, of: entity, as: tagged) ?? [.integer(key)]
            }
            object = ManagedObject(entity: own, primaryKey: key, row: read, context: context)
            object.isDeleted = true
            object.context = nil
            return object
        }
        if object.loadGroup == nil { object.loadGroup = group }
        return object
    }

    /// The object for row `row` as it was read, before a commit by another connection
    /// that is about to be noticed (`ObjectContext.watchOutsideChanges`): its values are
    /// the cells, so comparing them with the store tells what that commit changed. Where
    /// the batch did not read a column, the store's value now stands in (no change known).
    public func objectBeforeOutsideChange(at row: Int) throws -> ManagedObject? {
        guard let context, generation == context.generation, row >= 0, row < keys.count,
            context.registeredObject(entity: entity.name, primaryKey: keys[row]) == nil
        else { return try object(at: row) }
        let key = keys[row]
        var values: [Value]
        var ownTag: Value?
        if isComplete {
            guard isTagged else { return try object(at: row) }
            // The entity the row is now (that commit may have made it another), else, gone,
            // the one it was.
            values = self.values(row)
            ownTag = try context.storedEntityTag(of: entity, primaryKey: key) ?? tag(row)
        } else if let whole = try wholeRows(), let index = whole.keys.firstIndex(of: key) {
            values = whole.values(index)
            ownTag = whole.tag(index)
            let read = self.values(row)
            for (position, attribute) in attributes.enumerated() {
                if let column = entity.rowColumn(of: entity.attributes[attribute].name), column < values.count { values[column] = read[position + 1] }
            }
        } else {
            return try object(at: row)
        }
        let object = try context.object(for: entity, storedRow: values, ownTag: ownTag)
        if object.loadGroup == nil { object.loadGroup = group }
        return object
    }

    /// The same rows with every column, read once (one query for the batch).
    private func wholeRows() throws -> RowBatch? {
        if isComplete { return self }
        if let whole { return whole }
        guard let context else { return nil }
        source.objectsMade = true
        whole = try source.read(keys: keys, context: context, whole: true)
        return whole
    }

    /// Notes that a script read attribute `name` of a row: later batches read it too.
    public func noteRead(_ name: String) { source.noteRead(name) }

    /// Row `row` as the values an object keeps (storage form; texts decoded as a read of
    /// the column decodes them, `Value(rowText:)`), without the entity column.
    func values(_ row: Int) -> [Value] {
        (0..<(isTagged ? columnCount - 1 : columnCount)).map { value(row, $0) }
    }

    /// The entity column of row `row` (nil when the batch did not read it).
    func tag(_ row: Int) -> Value? {
        isTagged && columnCount > 1 ? value(row, columnCount - 1) : nil
    }

    private func value(_ row: Int, _ column: Int) -> Value {
        let cell = cells[row * columnCount + column]
        switch Int(cell.tag) {
        case Int(QUARRY_CELL_INTEGER): return .integer(cell.value)
        case Int(QUARRY_CELL_REAL): return .real(Double(bitPattern: UInt64(bitPattern: cell.value)))
        case Int(QUARRY_CELL_TEXT):
            return .text(String(decoding: UnsafeBufferPointer(start: bytes + Int(cell.value), count: Int(cell.length)), as: UTF8.self))
        case Int(QUARRY_CELL_RAW_TEXT):
            return Value(rowText: UnsafeBufferPointer(start: bytes + Int(cell.value), count: Int(cell.length)))
        case Int(QUARRY_CELL_BLOB):
            return .blob(Array(UnsafeBufferPointer(start: bytes + Int(cell.value), count: Int(cell.length))))
        default: return .null
        }
    }
}
