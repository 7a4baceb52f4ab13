import QuarryEngine
import QuarryModel

/// How one engine writes the rows of a save (`SaveRowsWriter`), inside its transaction:
/// a SQLite file's (`SQLiteSaveStatements`: column formats, the last rowid, Core Data's
/// bookkeeping) or a PostgreSQL schema's (`PostgresSaveStatements`: `RETURNING`, the
/// server's defaults, keyed tables).
package protocol SaveStatements {
    /// Statements of the save's transaction, for what every engine writes alike.
    var statements: any WriteStatements { get }
    /// Inserts `object`'s row, with its to-one keys `toOne` (NULL for a target not saved
    /// yet); returns the row's new key. `keys`: the keys given so far in this save.
    mutating func insert(
        _ object: ManagedObject, _ entity: EntityDescription, toOne: [(name: String, key: Value)],
        keys: SaveChangesRequest.Keys
    ) throws -> Int64
    /// How many new rows the engine takes at once (`insert(_:keys:)`); 1 for each alone.
    var insertBatch: Int { get }
    /// Inserts `rows`, none of which names another of them, in order; returns their new
    /// keys in the same order. A refusal is the one the first row refused alone would
    /// give, and nothing of the save is written.
    mutating func insert(_ rows: [NewRow], keys: SaveChangesRequest.Keys) throws -> [Int64]
    /// Writes `attributes` (their pending values) and the to-one keys `toOne` to the row
    /// of `object` known by `key`. `readsBack`: the object learns what the engine made of
    /// its values (a server's rounding, a trigger's change).
    mutating func update(_ object: ManagedObject, key: Value, attributes: [String], toOne: [(name: String, key: Value)], readsBack: Bool) throws
    /// Adds or removes a link-table row.
    func write(_ link: PendingLink, source: Value, target: Value) throws
    /// Sends the statements the engine holds back to send together (a server's pipelined
    /// updates), so that a statement run through `statements` next follows them.
    mutating func sendWaiting() throws
    /// Before the deletes: what the store keeps of the rows going (Core Data's tombstones).
    mutating func willDelete(_ request: SaveChangesRequest, keys: SaveChangesRequest.Keys) throws
    /// Deletes the row of `object` known by `key`.
    func delete(_ object: ManagedObject, key: Int64) throws
    /// After every row: what the store writes besides (history, Core Data's bookkeeping).
    mutating func didWrite(_ request: SaveChangesRequest, keys: SaveChangesRequest.Keys) throws
    /// Values the engine keeps other than they were given, as they read back.
    var readBacks: [(ManagedObject, String, Value)] { get }
}

/// One new row of a save: its object, the entity it is written as, and its to-one keys
/// (NULL for a target not saved yet).
package struct NewRow {
    package let object: ManagedObject
    package let entity: EntityDescription
    package let toOne: [(name: String, key: Value)]

    package init(object: ManagedObject, entity: EntityDescription, toOne: [(name: String, key: Value)]) {
        self.object = object
        self.entity = entity
        self.toOne = toOne
    }
}

extension SaveStatements {
    package var insertBatch: Int { 1 }

    /// Standard SQL's, through `statements`: a link already there is left as it is.
    package func write(_ link: PendingLink, source: Value, target: Value) throws {
        let sql =
            link.isAdd
            ? "INSERT INTO \(quoteIdentifier(link.table)) (source, target) VALUES (?, ?) ON CONFLICT DO NOTHING"
            : "DELETE FROM \(quoteIdentifier(link.table)) WHERE source = ? AND target = ?"
        try statements.run(sql, [source, target])
    }

    /// Nothing waits: each statement is run when it is written.
    package mutating func sendWaiting() throws {}
    /// Nothing is kept of the rows going but what the save writes.
    package mutating func willDelete(_ request: SaveChangesRequest, keys: SaveChangesRequest.Keys) throws {}
    /// Nothing is written besides the rows.
    package mutating func didWrite(_ request: SaveChangesRequest, keys: SaveChangesRequest.Keys) throws {}

    /// Each row alone, for an engine that writes no more than one at once.
    package mutating func insert(_ rows: [NewRow], keys: SaveChangesRequest.Keys) throws -> [Int64] {
        var given: [Int64] = []
        given.reserveCapacity(rows.count)
        for row in rows { given.append(try insert(row.object, row.entity, toOne: row.toOne, keys: keys)) }
        return given
    }
}

/// Writes the rows of a `SaveChangesRequest` in the order every engine takes them, once
/// for all: inserts (parents first, as the request orders them), then the to-one keys of
/// inserted objects whose targets were inserted after them, updates, links kept in
/// attribute columns, link tables, and deletes (a row's links first, as a join table's
/// rows name it). What each statement looks like is the engine's (`SaveStatements`).
package struct SaveRowsWriter<Rows: SaveStatements> {
    let context: ObjectContext
    package var rows: Rows

    /// Writes the rows; the new keys go to `result`, with what the engine read back.
    package mutating func write(_ result: inout SaveChangesResult) throws {
        let request = result.request
        var keys = SaveChangesRequest.Keys()
        var laterLinks: [ManagedObject] = []
        // New rows go to the engine `insertBatch` at a time (a server's round trip each
        // row made 20,000 new objects wait 6.4 s); a row naming an object still in the run
        // waits until that object has its key.
        var run: [NewRow] = []
        var inRun: Set<ObjectIdentifier> = []
        var entities = SavedEntities(context)
        for object in request.inserts {
            if !run.isEmpty, object.pendingToOne.values.contains(where: { $0.map { inRun.contains(ObjectIdentifier($0)) } ?? false }) {
                try writeRun(&run, &keys, &result)
                inRun = []
            }
            let saved = entities.of(object)
            let entity = saved.current
            let toOne = saved.ownKeyColumns
            for name in toOne {
                let target = object.pendingToOne[name] ?? nil
                if let target, target.primaryKey == nil, keys.byObject[ObjectIdentifier(target)] == nil { laterLinks.append(object) }
            }
            run.append(NewRow(object: object, entity: entity, toOne: toOne.map { ($0, keys.value(of: object.pendingToOne[$0] ?? nil)) }))
            // An engine writing a row at a time writes it at once: no later row waits for it.
            if rows.insertBatch > 1 { inRun.insert(ObjectIdentifier(object)) }
            if run.count >= rows.insertBatch {
                try writeRun(&run, &keys, &result)
                inRun = []
            }
        }
        try writeRun(&run, &keys, &result)
        // Inserted objects pointing at objects inserted after them.
        for object in laterLinks {
            let own = Set(context.currentEntity(of: object).ownKeyColumns.map(\.name))
            let names = object.pendingToOne.keys.sorted().filter(own.contains)
            let ownKey = keys.value(of: object)
            guard !names.isEmpty, !ownKey.isNull else { continue }
            try rows.update(
                object, key: ownKey, attributes: [], toOne: names.map { ($0, keys.value(of: object.pendingToOne[$0] ?? nil)) }, readsBack: false)
        }
        for object in request.updates {
            // Attributes and to-one keys in one statement: one change of a row is one
            // UPDATE (a Core Data store's Z_OPT goes up once per save, as Core Data's).
            // One key (most changed objects) is in order as it is: sorting made an array
            // and ran the sort for each object of a save of 20,000 (issue 84).
            let changed = object.pending.count == 1 ? Array(object.pending.keys) : object.pending.keys.sorted()
            let links = object.pendingToOne.isEmpty ? [] : object.pendingToOne.keys.sorted().filter(entities.of(object).ownKeyColumns.contains)
            guard let primaryKey = object.primaryKey, !(changed.isEmpty && links.isEmpty) else { continue }
            try rows.update(
                object, key: .integer(primaryKey), attributes: changed,
                toOne: links.map { ($0, keys.value(of: object.pendingToOne[$0] ?? nil)) }, readsBack: true)
        }
        // A link kept in an attribute column (author_id) of an object whose target was
        // inserted in this save learns the target's new key.
        for link in request.attributeLinks(keys, context: context) {
            try rows.update(
                link.object, key: keys.value(of: link.object), attributes: [], toOne: [(link.column, .integer(link.key))], readsBack: false)
        }
        // Every update is in before the statements that follow read or move the rows (a
        // join table's positions are written through `statements`).
        try rows.sendWaiting()
        for link in request.links {
            try rows.write(link, source: keys.value(of: link.source), target: keys.value(of: link.target))
        }
        // Members placed by position in a join table's order, once their links are in.
        for order in request.positioned { try order.write(keys: keys, in: rows.statements) }
        try rows.willDelete(request, keys: keys)
        var linksWithoutInverse = LinksWithoutInverse(context: context)
        for object in request.deletes {
            guard let primaryKey = object.primaryKey else { continue }
            try linksWithoutInverse.remove([primaryKey], of: context.currentEntity(of: object).name, in: rows.statements)
            // Its links go with it, whatever the rules did to the objects: first, as a join
            // table's rows name it (another program's key may refuse the row's delete while
            // they exist: NO ACTION, a file's RESTRICT checked at each statement).
            for relationship in context.currentEntity(of: object).relationships {
                guard case .linkTable(let table, let sourceColumn, _)? = context.storage(of: relationship, in: object.entity.name) else { continue }
                try rows.statements.run("DELETE FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) = ?", [.integer(primaryKey)])
            }
            try rows.delete(object, key: primaryKey)
        }
        try rows.sendWaiting()
        try rows.didWrite(request, keys: keys)
        result.readBacks = rows.readBacks
    }

    /// Inserts the rows of `run` and empties it; their keys go to `keys` and `result`.
    private mutating func writeRun(_ run: inout [NewRow], _ keys: inout SaveChangesRequest.Keys, _ result: inout SaveChangesResult) throws {
        guard !run.isEmpty else { return }
        let given = try rows.insert(run, keys: keys)
        guard given.count == run.count else {
            throw StoreError.database(message: "save: \(run.count) new rows were written, but \(given.count) keys came back")
        }
        for (row, key) in zip(run, given) {
            result.newKeys.append(key)
            keys.byObject[ObjectIdentifier(row.object)] = key
        }
        run = []
    }

    package init(session: StoreSession, rows: Rows) {
        self.context = session.context
        self.rows = rows
    }
}
