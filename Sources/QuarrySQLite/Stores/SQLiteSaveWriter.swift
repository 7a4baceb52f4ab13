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
    let context: ObjectContext
    let store: any SQLiteStore

    package func write(_ request: SaveChangesRequest, _ work: StoreSaveWork) throws -> SaveChangesResult {
        var result = SaveChangesResult(request: request)
        var work = work
        do {
            try context.connection.database.write { db in
                try write(&result, &work, in: db)
                // A foreign key left broken fails the commit naming nothing: named here.
                if let violation = try ConstraintViolation.brokenForeignKey(in: db) { throw StoreError.constraint(violation) }
            }
        } catch let error as DatabaseError {
            throw store.inModelNames(calledByTrigger(StoreError(error)))
        } catch let StoreError.constraint(violation) {
            throw store.inModelNames(.constraint(violation))
        }
        return result
    }

    /// A save's statements call no function SQLite lacks: one the save met was called by
    /// the file's triggers (Calibre's `title_sort`, registered by Calibre on its own
    /// connection; sqlite3 fails the same). Said so, with the triggers that name it.
    private func calledByTrigger(_ error: StoreError) -> StoreError {
        let prefix = "no such function: "
        guard case .engine(let failure as SQLiteFailure) = error, failure.said.hasPrefix(prefix) else { return error }
        let function = String(failure.said.dropFirst(prefix.count))
        let triggers =
            (try? context.connection.read { db in
                try String.fetchAll(
                    db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'trigger' AND instr(lower(sql), lower(?) || '(') > 0 ORDER BY name",
                    arguments: [function])
            }) ?? []
        let callers =
            triggers.isEmpty
            ? "the file's triggers call it" : "trigger \(triggers.prefix(3).joined(separator: ", ")) \(triggers.count == 1 ? "calls" : "call") it"
        let said =
            failure.said + " (\(callers): a function the application that wrote the file registers on its own connection, "
            + "which SQLite does not know, nor sqlite3; nothing was written)"
        return .engine(SQLiteFailure(code: failure.resultCode, sql: failure.sql, said: said))
    }

    private func write(_ result: inout SaveChangesResult, _ work: inout StoreSaveWork, in db: Database) throws {
        // A file's foreign keys are checked at the commit, against what the save leaves, as
        // Core Data checks its rules: rows that name each other in a cycle go in one save.
        // (Written in foreign-key order besides, for RESTRICT, which SQLite checks at once.)
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        try settleConflicts(&result, in: db)
        var writer = SaveRowsWriter(context: context, rows: SQLiteSaveStatements(context: context, store: store, db: db, work: work))
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
            let entity = context.currentEntity(of: object)
            // A table without a rowid's row by its key, which its index finds (`KeyNumbers`),
            // not by computing every row's number.
            let storage = context.mapped(entity)
            let sql =
                queries[entity.name]
                ?? (storage.numberedRows == nil
                    ? SaveConflict.storedRowSQL(of: entity, context: context)
                    : context.sqlDialect.rowsByKey(storage.selection(of: entity), of: storage, count: 1))
            queries[entity.name] = sql
            // Read as objects read their rows (text that is not UTF-8 kept whole): GRDB's
            // rows would differ from the object's values there, a conflict with no change.
            let row = try db.cachedStatement(sql: sql).rows(SQLiteArguments([.integer(key)])).first
            if let conflict = SaveConflict.of(object, storedRow: row, context: context) {
                conflicts.append(conflict)
            }
            // A version counter also sees writes to columns the model does not map.
            else if try store.versionMoved(object, in: db, context: context), let row {
                conflicts.append(SaveConflict(object: object, keys: ["Z_OPT"], stored: context.values(of: entity, row: row)))
            }
        }
        conflicts += try result.request.goneLinkEnds(context: context) { sql, key in
            try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [key]) != nil
        }
        try result.settle(conflicts, context: context)
    }
}

/// A save's rows in a SQLite file (`SaveStatements`): each value in its column's format
/// (a file Quarry did not create), a new row's key its rowid (or the key it was given),
/// and the store asked what it keeps besides the rows.
struct SQLiteSaveStatements: SaveStatements {
    let context: ObjectContext
    let store: any SQLiteStore
    let db: Database
    var work: StoreSaveWork
    private var formats = ColumnFormats()
    private(set) var readBacks: [(ManagedObject, String, Value)] = []

    init(context: ObjectContext, store: any SQLiteStore, db: Database, work: StoreSaveWork) {
        self.context = context
        self.store = store
        self.db = db
        self.work = work
    }

    package var statements: any WriteStatements { SQLiteWriteStatements(db: db) }

    /// `value` as `object`'s row keeps it in column `name`, noting how it reads back,
    /// appended to `arguments`.
    private mutating func append(
        _ object: ManagedObject, _ entity: EntityDescription, _ storage: EntityStorage, _ name: String, _ value: Value,
        to arguments: inout SQLiteArguments
    ) throws {
        // Only a foreign table's columns keep formats (`ColumnFormats.stored`); elsewhere
        // a value is written as it is, which asking it for every value of a large save cost.
        guard storage.layout == .foreignTable else { return arguments.append(value.databaseValue, for: value) }
        let written: DatabaseValue
        do { written = try formats.stored(value, entity, name, in: db, context: context) } catch let error as StoreError {
            throw StoreError.during(operation: "save", error)
        }
        if written != value.databaseValue { readBacks.append((object, name, ColumnFormats.readBack(written, entity, name, context: context))) }
        arguments.append(written, for: value)
    }

    /// How the new rows of one entity leaving out the same columns are written: made once
    /// a save, as writing the SQL and looking up its statement again for each of 20,000
    /// new objects was a large part of their save. A class: a row takes it without
    /// copying its storage's description.
    private final class InsertPlan {
        let storage: EntityStorage
        /// The attribute columns written, in the entity's order (the to-one keys follow).
        let written: [String]
        let statement: Statement
        /// GRDB was told the statement's arguments are set (`executeBound(_:told:)`).
        var told = false

        init(storage: EntityStorage, written: [String], statement: Statement) {
            self.storage = storage
            self.written = written
            self.statement = statement
        }
    }
    private var insertPlans: [InsertPlanKey: InsertPlan] = [:]
    /// The plan of the last new row: the next one, of the same entity leaving out the same
    /// columns as a script's loop makes them, takes it without hashing its key.
    private var lastPlan: (key: InsertPlanKey, plan: InsertPlan)?
    /// Where each entity's rows are, looked up once a save (boxed: read without a copy).
    private var storages: [String: StorageBox] = [:]
    private final class StorageBox {
        let storage: EntityStorage
        init(_ storage: EntityStorage) { self.storage = storage }
    }
    private struct InsertPlanKey: Hashable {
        let entity: String
        let filled: [String]
        let toOne: [String]
    }

    private mutating func insertPlan(
        _ entity: EntityDescription, filled: [String], toOne: [(name: String, key: Value)], storage: EntityStorage
    ) throws -> InsertPlan {
        let key = InsertPlanKey(entity: entity.name, filled: filled, toOne: toOne.map(\.name))
        if let last = lastPlan, last.key == key { return last.plan }
        if let plan = insertPlans[key] {
            lastPlan = (key, plan)
            return plan
        }
        // A generated column is SQLite's to fill (`refuseUnfaithfulWrite` refused setting
        // one); so is a column whose default is an expression the object was not given.
        let written = entity.attributeNames.filter { !storage.generated.contains($0) && !filled.contains($0) }
        let names = written + toOne.map(\.name)
        let columns = names.map(quoteIdentifier).joined(separator: ", ")
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        // What the engine filled comes back with the row (SQLite 3.35's RETURNING), and
        // last the number of a row without a rowid, made from its key as stored.
        let returned = filled.map(quoteIdentifier) + (storage.numberedRows.map { [$0.number] } ?? [])
        let returning = returned.isEmpty ? "" : " RETURNING " + returned.joined(separator: ", ")
        let sql =
            (names.isEmpty
                ? "INSERT INTO \(storage.writtenTable) DEFAULT VALUES"
                : "INSERT INTO \(storage.writtenTable) (\(columns)) VALUES (\(marks))") + returning
        // Cached: compiling an insert through a sub-entity's view compiles its trigger too.
        let plan = InsertPlan(storage: storage, written: written, statement: try db.cachedStatement(sql: sql))
        insertPlans[key] = plan
        lastPlan = (key, plan)
        return plan
    }

    package mutating func insert(
        _ object: ManagedObject, _ entity: EntityDescription, toOne: [(name: String, key: Value)],
        keys: SaveChangesRequest.Keys
    ) throws -> Int64 {
        let box: StorageBox
        if let known = storages[entity.name] {
            box = known
        } else {
            box = StorageBox(context.mapped(entity))
            storages[entity.name] = box
        }
        let storage = box.storage
        let filled = EngineFilledColumns.of(object, entity, storage, keys: keys, context: context)
        let plan = try insertPlan(entity, filled: filled, toOne: toOne, storage: storage)
        var values = SQLiteArguments()
        for name in plan.written { try append(object, entity, storage, name, context.insertedValue(object, name, keys: keys), to: &values) }
        values.append(contentsOf: toOne.map(\.key))
        var returned: [Value]?
        if filled.isEmpty && storage.numberedRows == nil {
            try plan.statement.executeBound(values, told: &plan.told)
        } else {
            // The whole insert happens at the first step, which also yields the row.
            returned = try plan.statement.rows(values).first
        }
        // A WITHOUT ROWID table sets no last rowid: its key is the one the row was given.
        let key: Int64
        if storage.numberedRows != nil {
            // Neither: its number came back last.
            guard case .integer(let number)? = returned?.last else {
                throw StoreError.database(message: "\(entity.name): SQLite gave no number for a new row")
            }
            key = number
        } else if storage.keyMayHoldOthers, case .integer(let given) = object.currentValue(storage.keyColumn) {
            key = given
        } else {
            key = try store.insertedKey(of: entity, in: db, context: context)
        }
        if !storage.generated.isEmpty { try readGenerated(object, entity, key: .integer(key)) }
        if !filled.isEmpty { try readFilled(filled, returned, object, entity, key: .integer(key)) }
        return key
    }

    /// The columns the engine filled, as the object will hold them: from the insert's
    /// RETURNING, or read by key where it returned none (an insert through a view's
    /// trigger returns no row).
    private mutating func readFilled(_ names: [String], _ returned: [Value]?, _ object: ManagedObject, _ entity: EntityDescription, key: Value) throws
    {
        let storage = context.mapped(entity)
        var row = returned
        if row == nil {
            let sql = "SELECT \(names.map(quoteIdentifier).joined(separator: ", ")) FROM \(storage.table) WHERE \(storage.key) = ?"
            var arguments = SQLiteArguments()
            arguments.append(key)
            row = try db.cachedStatement(sql: sql).rows(arguments).first
        }
        guard let row else { return }
        for (i, name) in names.enumerated() where i < row.count {
            readBacks.append((object, name, ColumnFormats.readBack(row[i].databaseValue, entity, name, context: context)))
        }
    }

    /// The generated columns of `object`'s row as SQLite computed them, read back after a
    /// write, so the object holds them without a fetch.
    private mutating func readGenerated(_ object: ManagedObject, _ entity: EntityDescription, key: Value) throws {
        let storage = context.mapped(entity)
        guard !storage.generated.isEmpty else { return }
        let names = entity.attributeNames.filter(storage.generated.contains)
        guard !names.isEmpty else { return }
        let sql = "SELECT \(names.map(quoteIdentifier).joined(separator: ", ")) FROM \(storage.table) WHERE \(storage.key) = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [key.databaseValue]) else { return }
        for (i, name) in names.enumerated() {
            readBacks.append((object, name, ColumnFormats.readBack(row[i] as DatabaseValue, entity, name, context: context)))
        }
    }

    package mutating func update(_ object: ManagedObject, key: Value, attributes: [String], toOne: [(name: String, key: Value)], readsBack: Bool)
        throws
    {
        let assignments = (attributes + toOne.map(\.name)).map { "\(quoteIdentifier($0)) = ?" }.joined(separator: ", ")
        var values = SQLiteArguments()
        let entity = context.currentEntity(of: object)
        let storage = context.mapped(object.entity)
        for name in attributes { try append(object, entity, storage, name, object.pending[name] ?? .null, to: &values) }
        let row = storage.writtenRow(of: object, key: key)
        values.append(contentsOf: toOne.map(\.key) + row.values)
        try db.cachedStatement(sql: "UPDATE \(storage.writtenTable) SET \(assignments) WHERE \(row.sql)").executeBound(values)
        try readGenerated(object, object.entity, key: key)
    }

    package func write(_ link: PendingLink, source: Value, target: Value) throws {
        let sql =
            link.isAdd
            ? "INSERT OR IGNORE INTO \(quoteIdentifier(link.table)) (source, target) VALUES (?, ?)"
            : "DELETE FROM \(quoteIdentifier(link.table)) WHERE source = ? AND target = ?"
        try db.cachedStatement(sql: sql).execute(SQLiteArguments([source, target]))
    }

    package mutating func willDelete(_ request: SaveChangesRequest, keys: SaveChangesRequest.Keys) throws {
        try store.willDeleteRows(request, &work, keys: keys, in: db, context: context)
    }

    package func delete(_ object: ManagedObject, key: Int64) throws {
        let storage = context.mapped(object.entity)
        // Cached, as each statement of a save is: a save of many objects runs each many times.
        let row = storage.writtenRow(of: object, key: .integer(key))
        try db.cachedStatement(sql: "DELETE FROM \(storage.writtenTable) WHERE \(row.sql)").execute(SQLiteArguments(row.values))
    }

    package mutating func didWrite(_ request: SaveChangesRequest, keys: SaveChangesRequest.Keys) throws {
        try store.didWriteRows(request, work, keys: keys, in: db, context: context)
    }
}
