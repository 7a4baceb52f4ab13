import GRDB

/// Writes a `SaveChangesRequest` into a SQLite store in one transaction: conflicts found
/// and settled first (optimistic locking, as Core Data's), then inserts, updates, links
/// and deletes, with the store asked for what it keeps besides the rows. Nothing of the
/// objects changes here: the context applies the result once the transaction committed.
struct SQLiteSaveWriter {
    let context: ObjectContext
    let store: any SQLiteStore

    func write(_ request: SaveChangesRequest, _ work: StoreSaveWork) throws -> SaveChangesResult {
        var result = SaveChangesResult(request: request)
        var work = work
        do {
            try context.database.write { db in
                try write(&result, &work, in: db)
                // A foreign key left broken fails the commit naming nothing: named here.
                if let violation = try ConstraintViolation.brokenForeignKey(in: db) { throw StoreError.constraint(violation) }
            }
        } catch let error as DatabaseError {
            throw store.inModelNames(StoreError(error))
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
        let request = result.request
        var keys = SaveChangesRequest.Keys()
        var laterLinks: [ManagedObject] = []
        var formats = ColumnFormats()
        var readBacks: [(ManagedObject, String, Value)] = []
        func stored(_ object: ManagedObject, _ name: String, _ value: Value) throws -> DatabaseValue {
            let entity = context.currentEntity(of: object)
            let written: DatabaseValue
            do { written = try formats.stored(value, entity, name, in: db, context: context) }
            catch let error as StoreError { throw StoreError.during(operation: "save", error) }
            if written != value.databaseValue { readBacks.append((object, name, ColumnFormats.readBack(written, entity, name, context: context))) }
            return written
        }
        for object in request.inserts {
            let entity = context.currentEntity(of: object)
            let storage = context.mapped(entity)
            let toOne = entity.ownKeyColumns.map(\.name)
            let names = entity.attributeNames + toOne
            let columns = names.map(quoteIdentifier).joined(separator: ", ")
            let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
            let sql = names.isEmpty
                ? "INSERT INTO \(storage.table) DEFAULT VALUES"
                : "INSERT INTO \(storage.table) (\(columns)) VALUES (\(marks))"
            var values = try entity.attributeNames.map { try stored(object, $0, context.insertedValue(object, $0, keys: keys)) }
            for name in toOne {
                let target = object.pendingToOne[name] ?? nil
                if let target, target.primaryKey == nil, keys.byObject[ObjectIdentifier(target)] == nil { laterLinks.append(object) }
                values.append(keys.of(target))
            }
            // Cached: compiling an insert through a sub-entity's view compiles its trigger too.
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values))
            // A WITHOUT ROWID table sets no last rowid: its key is the one the row was given.
            let given: Int64? = { if case .integer(let k) = object.currentValue(storage.keyColumn) { return k } else { return nil } }()
            let newKey = try storage.keyMayHoldOthers ? (given ?? insertedKey(of: entity, in: db)) : insertedKey(of: entity, in: db)
            result.newKeys.append(newKey)
            keys.byObject[ObjectIdentifier(object)] = newKey
        }
        // Inserted objects pointing at objects inserted after them.
        for object in laterLinks { try writeToOne(object, keys, in: db) }
        for object in request.updates {
            // Attributes and to-one keys in one statement: one change of a row is one
            // UPDATE (a Core Data store's Z_OPT goes up once per save, as Core Data's).
            let changed = object.pending.keys.sorted()
            let ownKeys = Set(context.currentEntity(of: object).ownKeyColumns.map(\.name))
            let links = object.pendingToOne.keys.sorted().filter(ownKeys.contains)
            guard let primaryKey = object.primaryKey, !(changed.isEmpty && links.isEmpty) else { continue }
            let assignments = (changed + links).map { "\(quoteIdentifier($0)) = ?" }.joined(separator: ", ")
            let values = try changed.map { try stored(object, $0, object.pending[$0] ?? .null) }
                + links.map { keys.of(object.pendingToOne[$0] ?? nil) } + [primaryKey.databaseValue]
            let storage = context.mapped(object.entity)
            try db.execute(sql: "UPDATE \(storage.table) SET \(assignments) WHERE \(storage.key) = ?", arguments: StatementArguments(values))
        }
        try writeAttributeLinks(request, keys, in: db)
        for link in request.links {
            let sql = link.isAdd
                ? "INSERT OR IGNORE INTO \(quoteIdentifier(link.table)) (source, target) VALUES (?, ?)"
                : "DELETE FROM \(quoteIdentifier(link.table)) WHERE source = ? AND target = ?"
            try db.execute(sql: sql, arguments: [keys.of(link.source), keys.of(link.target)])
        }
        try store.willDeleteRows(request, &work, keys: keys, in: db, context: context)
        for object in request.deletes {
            guard let primaryKey = object.primaryKey else { continue }
            // Its links go with it, whatever the rules did to the objects: first, as a join
            // table's rows name it (a file's RESTRICT key is checked at each statement).
            for relationship in context.currentEntity(of: object).relationships {
                guard case .linkTable(let table, let sourceColumn, _)? = context.storage(of: relationship, in: object.entity.name) else { continue }
                try db.execute(sql: "DELETE FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) = ?", arguments: [primaryKey])
            }
            let storage = context.mapped(object.entity)
            try db.execute(sql: "DELETE FROM \(storage.table) WHERE \(storage.key) = ?", arguments: [primaryKey])
        }
        try store.didWriteRows(request, work, keys: keys, in: db, context: context)
        result.readBacks = readBacks
    }

    private func insertedKey(of entity: EntityDescription, in db: Database) throws -> Int64 {
        try store.insertedKey(of: entity, in: db, context: context)
    }

    /// A file Quarry did not create keeps a link in an attribute column (author_id), which
    /// held no key while its target was unsaved: it learns the new key here.
    private func writeAttributeLinks(_ request: SaveChangesRequest, _ keys: SaveChangesRequest.Keys, in db: Database) throws {
        for link in request.attributeLinks(keys, context: context) {
            let storage = context.mapped(link.object.entity)
            try db.execute(sql: "UPDATE \(storage.table) SET \(quoteIdentifier(link.column)) = ? WHERE \(storage.key) = ?",
                           arguments: [link.key, keys.of(link.object)])
        }
    }

    /// Writes an object's pending to-one keys.
    private func writeToOne(_ object: ManagedObject, _ keys: SaveChangesRequest.Keys, in db: Database) throws {
        let own = Set(context.currentEntity(of: object).ownKeyColumns.map(\.name))
        let names = object.pendingToOne.keys.sorted().filter(own.contains)
        let ownKey = keys.of(object)
        guard !names.isEmpty, !ownKey.isNull else { return }
        let assignments = names.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: ", ")
        let values = names.map { keys.of(object.pendingToOne[$0] ?? nil) } + [ownKey]
        let storage = context.mapped(object.entity)
        try db.execute(sql: "UPDATE \(storage.table) SET \(assignments) WHERE \(storage.key) = ?", arguments: StatementArguments(values))
    }

    // MARK: Conflicts

    /// Optimistic locking: a row changed by another connection since it was read is a
    /// conflict, settled by the policy or refused with nothing written.
    private func settleConflicts(_ result: inout SaveChangesResult, in db: Database) throws {
        var conflicts: [SaveConflict] = []
        for object in result.request.updates + result.request.deletes {
            guard let query = SaveConflict.storedRowQuery(of: object, context: context) else { continue }
            let row = try Row.fetchOne(db, sql: query.sql, arguments: [query.key]).map { Array($0.databaseValues) }
            if let conflict = SaveConflict.of(object, storedRow: row, context: context) { conflicts.append(conflict) }
            // A version counter also sees writes to columns the model does not map.
            else if try store.versionMoved(object, in: db, context: context), let row {
                conflicts.append(SaveConflict(object: object, keys: ["Z_OPT"], stored: context.values(of: context.currentEntity(of: object), row: row)))
            }
        }
        conflicts += try result.request.goneLinkEnds(context: context) { sql, key in try Row.fetchOne(db, sql: sql, arguments: [key]) != nil }
        try result.settle(conflicts, context: context)
    }
}
