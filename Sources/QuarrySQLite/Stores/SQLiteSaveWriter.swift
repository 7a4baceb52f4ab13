import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Writes a `SaveChangesRequest` into a SQLite store in one transaction: conflicts found
/// and settled first (optimistic locking, as Core Data's), then the rows as every engine
/// writes them (`SaveRowsWriter`) in SQLite's statements (`SQLiteSaveStatements`), with
/// the store asked for what it keeps besides the rows. Nothing of the
/// objects changes here: the context applies the result once the transaction committed.
struct SQLiteSaveWriter {
    let session: StoreSession
    let store: any SQLiteStore

    package func write(_ request: SaveChangesRequest, _ workGiven: StoreSaveWork) throws -> SaveChangesResult {
        var result = SaveChangesResult(request: request)
        var work = workGiven
        do {
            // Where the file declares a key SQLite cannot check, written as sqlite3 writes
            // (`writeUncheckingKeysSQLiteCannotCheck`): each run starts from the request.
            try session.connection.database.writeUncheckingKeysSQLiteCannotCheck { db, keysChecked in
                result = SaveChangesResult(request: request)
                work = workGiven
                // Keys unchecked: the rows that break the keys SQLite can check, counted
                // before and after, so that no key this save breaks is committed.
                let before = keysChecked ? nil : try ConstraintViolation.foreignKeyBreaks(in: db, written: writtenTables(request))
                try write(&result, &work, in: db)
                // A foreign key left broken fails the commit naming nothing: named here.
                if let violation = try ConstraintViolation.brokenForeignKey(in: db, written: writtenTables(request), before: before) {
                    throw StoreError.constraint(violation)
                }
            }
        } catch let error as DatabaseError {
            throw store.inModelNames(TriggerFunctions.named(StoreError(error), session: session))
        } catch let StoreError.constraint(violation) {
            throw store.inModelNames(.constraint(violation))
        }
        return result
    }

    /// The tables the save writes rows of, unquoted (a broken key is looked for in them
    /// and in those that name them first).
    private func writtenTables(_ request: SaveChangesRequest) -> [String] {
        var tables: [String] = []
        for object in request.inserts + request.updates + request.deletes {
            let table = session.mapped(object.entity).nameInSQL
            if !tables.contains(table) { tables.append(table) }
        }
        return tables
    }

    private func write(_ result: inout SaveChangesResult, _ work: inout StoreSaveWork, in db: Database) throws {
        // A file's foreign keys are checked at the commit, against what the save leaves, as
        // Core Data checks its rules: rows that name each other in a cycle go in one save.
        // (Written in foreign-key order besides, for RESTRICT, which SQLite checks at once.)
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        // Changed rows compared as their UPDATEs write them, where that can be done
        // (`SQLiteSaveStatements+ComparedRows`); any doubt, and the save is written again
        // as below, which says what it finds as it always has.
        let compared = rowsComparedByUpdates(result.request)
        if !compared.isEmpty, try conflicts(of: result.request, leaving: compared, in: db).isEmpty,
            try writeComparing(compared, &result, &work, in: db)
        {
            return
        }
        try settleConflicts(&result, in: db)
        var writer = SaveRowsWriter(session: session, rows: SQLiteSaveStatements(session: session, store: store, db: db, work: work))
        try writer.write(&result)
        work = writer.rows.work
    }

    // MARK: Conflicts

    /// Optimistic locking: a row changed by another connection since it was read is a
    /// conflict, settled by the policy or refused with nothing written.
    private func settleConflicts(_ result: inout SaveChangesResult, in db: Database) throws {
        try result.settle(conflicts(of: result.request, in: db), session: session)
    }

    /// The conflicts of the objects `request` updates or deletes, but those of `leaving`,
    /// with the rows as stored now.
    private func conflicts(of request: SaveChangesRequest, leaving: Set<ObjectIdentifier> = [], in db: Database) throws -> [SaveConflict] {
        var conflicts: [SaveConflict] = []
        var queries: [String: String] = [:]
        // Each entity's description and storage looked up once, not for each object.
        var entities = session.savedEntities()
        var last: (saved: SavedEntities.Entity, sql: String)?
        let objects = (request.updates + request.deletes).filter { leaving.isEmpty || !leaving.contains(ObjectIdentifier($0)) }
        let read = try storedRows(of: objects, &entities, in: db)
        for object in objects {
            guard let key = object.primaryKey else { continue }
            let saved = entities.of(object)
            let entity = saved.current
            if let row = read[ObjectIdentifier(saved)]?[key] {
                try settle(object, row, entity, &conflicts, in: db)
                continue
            }
            // Written and prepared once an entity: doing both again for each object was most
            // of a large save's time.
            let sql: String
            if let last, last.saved === saved {
                sql = last.sql
            } else {
                // A table without a rowid's row by its key, which its index finds (`KeyNumbers`),
                // not by computing every row's number.
                let storage = session.mapped(entity)
                sql =
                    queries[entity.name]
                    ?? (storage.numberedRows == nil
                        ? SaveConflict.storedRowSQL(of: entity, session: session)
                        : session.sqlDialect.rowsByKey(storage.selection(of: entity), of: storage, count: 1))
                queries[entity.name] = sql
                last = (saved, sql)
            }
            // Read as objects read their rows (text that is not UTF-8 kept whole): GRDB's
            // rows would differ from the object's values there, a conflict with no change.
            // Stepped directly: GRDB's binding and cursor were 27,000 instructions of each
            // object's read, two thirds of a save of many changed objects.
            let row = try db.withStatement(sql) { cursor -> [Value]? in
                cursor.bind(keys: [key])
                return try cursor.step() ? cursor.rowValues : nil
            }
            try settle(object, row, entity, &conflicts, in: db)
        }
        conflicts += try request.goneLinkEnds(session: session) { sql, key in
            try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [key]) != nil
        }
        return conflicts
    }

    /// The conflict, if any, of `object` with its row as stored now (`row`; nil: gone).
    private func settle(_ object: ManagedObject, _ row: [Value]?, _ entity: EntityDescription, _ conflicts: inout [SaveConflict], in db: Database)
        throws
    {
        if let conflict = SaveConflict.of(object, storedRow: row, entity: entity, session: session) {
            // A version counter that moved says the whole row was written by a writer
            // that keeps one (Core Data): a conflict, as Core Data's own check finds it.
            if conflict.isMerge, try store.versionMoved(object, in: db, session: session) {
                conflicts.append(SaveConflict(object: object, keys: conflict.merged, stored: conflict.stored))
            } else {
                conflicts.append(conflict)
            }
        }
        // A version counter also sees writes to columns the model does not map.
        else if try store.versionMoved(object, in: db, session: session), let row {
            conflicts.append(SaveConflict(object: object, keys: ["Z_OPT"], stored: session.values(of: entity, row: row)))
        }
    }

    /// The stored rows of `objects` whose tables have a rowid, by entity and key, read
    /// `storedRowsBatch` keys to a statement (`key IN (...)`): a statement for each
    /// object, bound, stepped and reset, was a third of checking a save of 20,000 changed
    /// objects. A row missing here (gone, or its key read back in another form) is read
    /// again alone, as before.
    private func storedRows(of objects: [ManagedObject], _ entities: inout SavedEntities, in db: Database) throws
        -> [ObjectIdentifier: [Int64: [Value]]]
    {
        var keys: [ObjectIdentifier: (saved: SavedEntities.Entity, keys: [Int64])] = [:]
        for object in objects {
            guard let key = object.primaryKey else { continue }
            let saved = entities.of(object)
            guard saved.storage.numberedRows == nil else { continue }
            keys[ObjectIdentifier(saved), default: (saved, [])].keys.append(key)
        }
        var rows: [ObjectIdentifier: [Int64: [Value]]] = [:]
        for (id, entry) in keys {
            let entity = entry.saved.current
            let storage = session.mapped(entity)
            let selection = storage.selection(of: entity)
            var found: [Int64: [Value]] = Dictionary(minimumCapacity: entry.keys.count)
            var start = 0
            while start < entry.keys.count {
                let batch = Array(entry.keys[start..<min(entry.keys.count, start + Self.storedRowsBatch)])
                start += batch.count
                try db.withStatement(storage.rowsByKeyIndex(selection, count: batch.count)) { cursor in
                    cursor.bind(keys: batch)
                    while try cursor.step() {
                        let row = cursor.rowValues
                        if case .integer(let key)? = row.first { found[key] = row }
                    }
                }
            }
            rows[id] = found
        }
        return rows
    }

    /// Keys a statement of `storedRows` reads (well under SQLite's 32,766 parameters).
    private static let storedRowsBatch = 500
}
