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

    package func write(_ request: SaveChangesRequest, _ work: StoreSaveWork) throws -> SaveChangesResult {
        var result = SaveChangesResult(request: request)
        var work = work
        do {
            try session.connection.database.write { db in
                try write(&result, &work, in: db)
                // A foreign key left broken fails the commit naming nothing: named here.
                if let violation = try ConstraintViolation.brokenForeignKey(in: db) { throw StoreError.constraint(violation) }
            }
        } catch let error as DatabaseError {
            throw store.inModelNames(TriggerFunctions.named(StoreError(error), session: session))
        } catch let StoreError.constraint(violation) {
            throw store.inModelNames(.constraint(violation))
        }
        return result
    }

    private func write(_ result: inout SaveChangesResult, _ work: inout StoreSaveWork, in db: Database) throws {
        // A file's foreign keys are checked at the commit, against what the save leaves, as
        // Core Data checks its rules: rows that name each other in a cycle go in one save.
        // (Written in foreign-key order besides, for RESTRICT, which SQLite checks at once.)
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        try settleConflicts(&result, in: db)
        var writer = SaveRowsWriter(session: session, rows: SQLiteSaveStatements(session: session, store: store, db: db, work: work))
        try writer.write(&result)
        work = writer.rows.work
    }

    // MARK: Conflicts

    /// Optimistic locking: a row changed by another connection since it was read is a
    /// conflict, settled by the policy or refused with nothing written.
    private func settleConflicts(_ result: inout SaveChangesResult, in db: Database) throws {
        var conflicts: [SaveConflict] = []
        var queries: [String: String] = [:]
        for object in result.request.updates + result.request.deletes {
            guard let key = object.primaryKey else { continue }
            // Written and prepared once an entity: doing both again for each object was most
            // of a large save's time.
            let entity = session.currentEntity(of: object)
            // A table without a rowid's row by its key, which its index finds (`KeyNumbers`),
            // not by computing every row's number.
            let storage = session.mapped(entity)
            let sql =
                queries[entity.name]
                ?? (storage.numberedRows == nil
                    ? SaveConflict.storedRowSQL(of: entity, session: session)
                    : session.sqlDialect.rowsByKey(storage.selection(of: entity), of: storage, count: 1))
            queries[entity.name] = sql
            // Read as objects read their rows (text that is not UTF-8 kept whole): GRDB's
            // rows would differ from the object's values there, a conflict with no change.
            // Stepped directly: GRDB's binding and cursor were 27,000 instructions of each
            // object's read, two thirds of a save of many changed objects.
            let row = try db.withStatement(sql) { cursor -> [Value]? in
                cursor.bind(keys: [key])
                return try cursor.step() ? cursor.rowValues : nil
            }
            if let conflict = SaveConflict.of(object, storedRow: row, session: session) {
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
        conflicts += try result.request.goneLinkEnds(session: session) { sql, key in
            try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [key]) != nil
        }
        try result.settle(conflicts, session: session)
    }
}
