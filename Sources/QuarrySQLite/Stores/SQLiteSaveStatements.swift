import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A save's rows in a SQLite file (`SaveStatements`): each value in its column's format
/// (a file Quarry did not create), a new row's key its rowid (or the key it was given),
/// and the store asked what it keeps besides the rows.
struct SQLiteSaveStatements: SaveStatements {
    let session: StoreSession
    let store: any SQLiteStore
    let db: Database
    var work: StoreSaveWork
    private var formats = ColumnFormats()
    private(set) var readBacks: [(ManagedObject, String, Value)] = []
    /// The last update's shape and statement: a save of many changed objects changes the
    /// same columns of each, and writing the SQL and looking its statement up again for
    /// every object was a fifth of such a save.
    private var lastUpdate: UpdatePlan?
    /// An update's statement and what it was made for. A class: taking it for the next
    /// object retains one reference, where a tuple of its four retained every one of them.
    private final class UpdatePlan {
        let entity: String
        let columns: [String]
        /// The row's condition; nil where it is the key's alone (`writtenRow`), the same
        /// for every row of the entity.
        let row: String?
        /// Whether the condition also compares the row with what it was read with
        /// (`SQLiteSaveStatements+ComparedRows`).
        let compares: Bool
        let statement: Statement
        /// GRDB was told the statement's arguments are set (`executeBound(_:told:)`).
        var told = false
        init(entity: String, columns: [String], row: String?, compares: Bool, statement: Statement) {
            (self.entity, self.columns, self.row, self.compares, self.statement) = (entity, columns, row, compares, statement)
        }
    }
    /// The updated objects whose UPDATE compares their row with what they read, each
    /// taken out as its row is written (`SQLiteSaveStatements+ComparedRows`).
    var comparing: Set<ObjectIdentifier> = []
    /// Each entity's description and storage, looked up once rather than for each update.
    private var entities: SavedEntities

    init(session: StoreSession, store: any SQLiteStore, db: Database, work: StoreSaveWork, comparing: Set<ObjectIdentifier> = []) {
        self.session = session
        self.store = store
        self.db = db
        self.work = work
        self.comparing = comparing
        entities = session.savedEntities()
    }

    package var statements: any WriteStatements { SQLiteWriteStatements(db: db) }

    /// `value` as `object`'s row keeps it in column `name`, noting how it reads back,
    /// appended to `arguments`.
    mutating func append(
        _ object: ManagedObject, _ entity: EntityDescription, _ storage: EntityStorage, _ name: String, _ value: Value,
        to arguments: inout SQLiteArguments
    ) throws {
        // Only a foreign table's columns keep formats (`ColumnFormats.stored`); elsewhere
        // a value is written as it is, which asking it for every value of a large save cost.
        guard storage.layout == .foreignTable else { return arguments.append(value.databaseValue, for: value) }
        let written: DatabaseValue
        do { written = try formats.stored(value, entity, name, in: db, session: session, storage: storage) } catch let error as StoreError {
            throw StoreError.during(operation: "save", error)
        }
        if written != value.databaseValue { readBacks.append((object, name, ColumnFormats.readBack(written, entity, name, session: session))) }
        arguments.append(written, for: value)
    }

    /// How the new rows of one entity leaving out the same columns are written: made once
    /// a save, as writing the SQL and looking up its statement again for each of 20,000
    /// new objects was a large part of their save. A class: a row takes it without
    /// copying its storage's description.
    final class InsertPlan {
        let storage: EntityStorage
        /// The attribute columns written, in the entity's order (the to-one keys follow).
        let written: [String]
        /// The statement's SQL up to its row's values (`INSERT INTO t (a, b) VALUES `) and
        /// the row's parameters (`(?, ?)`), for statements of several rows.
        let head: String
        let marks: String
        let statement: Statement
        /// GRDB was told the statement's arguments are set (`executeBound(_:told:)`).
        var told = false
        /// Rows of this plan one statement writes (`SQLiteSaveStatements+NewRows`): nil
        /// until asked, 1 where each row must be written alone.
        var rowsTogether: Int?
        /// Those statements by their number of rows, each with its `told`.
        var statementsTogether: [Int: (statement: Statement, told: Bool)] = [:]
        /// The table's largest key is asked before each of those statements: another
        /// program's table without AUTOINCREMENT (`SQLiteSaveStatements+NewRows`).
        var asksLargestKey = false
        /// How each written column keeps a value, once asked (`SQLiteSaveStatements+NewRows`).
        var writtenForms: [WrittenForm]?

        init(storage: EntityStorage, written: [String], head: String, marks: String, statement: Statement) {
            self.storage = storage
            self.written = written
            self.head = head
            self.marks = marks
            self.statement = statement
        }
    }
    private var insertPlans: [InsertPlanKey: InsertPlan] = [:]
    /// The plan of the last new row: the next one, of the same entity leaving out the same
    /// columns as a script's loop makes them, takes it without hashing its key.
    private var lastPlan: (key: InsertPlanKey, plan: InsertPlan)?
    /// Where each entity's rows are, looked up once a save (boxed: read without a copy).
    private var storages: [String: StorageBox] = [:]
    final class StorageBox {
        let storage: EntityStorage
        /// Whether the entity's rows may go several to an INSERT, as far as its storage
        /// says (`SQLiteSaveStatements+NewRows`), once asked.
        var mayGoTogether: Bool?
        init(_ storage: EntityStorage) { self.storage = storage }
    }
    private struct InsertPlanKey: Hashable {
        let entity: String
        let filled: [String]
        let toOne: [String]
        let leavesKey: Bool
    }

    /// Where `entity`'s rows are, looked up once a save.
    mutating func storageBox(of entity: EntityDescription) -> StorageBox {
        if let known = storages[entity.name] { return known }
        let box = StorageBox(session.mapped(entity))
        storages[entity.name] = box
        return box
    }

    /// `leavesKey`: the rows leave their key column to SQLite (NULL in each), so it is not
    /// written at all.
    mutating func insertPlan(
        _ entity: EntityDescription, filled: [String], toOne: [(name: String, key: Value)], storage: EntityStorage,
        leavesKey: Bool = false
    ) throws -> InsertPlan {
        let key = InsertPlanKey(entity: entity.name, filled: filled, toOne: toOne.map(\.name), leavesKey: leavesKey)
        if let last = lastPlan, last.key == key { return last.plan }
        if let plan = insertPlans[key] {
            lastPlan = (key, plan)
            return plan
        }
        // A generated column is SQLite's to fill (`refuseUnfaithfulWrite` refused setting
        // one); so is a column whose default is an expression the object was not given.
        let written = entity.attributeNames.filter {
            !storage.generated.contains($0) && !filled.contains($0) && !(leavesKey && $0 == storage.keyColumn)
        }
        let names = written + toOne.map(\.name)
        let columns = names.map(quoteIdentifier).joined(separator: ", ")
        let marks = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        // What the engine filled comes back with the row (SQLite 3.35's RETURNING), and
        // last the number of a row without a rowid, made from its key as stored.
        let returned = filled.map(quoteIdentifier) + (storage.numberedRows.map { [$0.number] } ?? [])
        let returning = returned.isEmpty ? "" : " RETURNING " + returned.joined(separator: ", ")
        let head = "INSERT INTO \(storage.writtenTable) (\(columns)) VALUES "
        let sql = (names.isEmpty ? "INSERT INTO \(storage.writtenTable) DEFAULT VALUES" : head + marks) + returning
        // Cached: compiling an insert through a sub-entity's view compiles its trigger too.
        let plan = InsertPlan(storage: storage, written: written, head: head, marks: marks, statement: try db.cachedStatement(sql: sql))
        insertPlans[key] = plan
        lastPlan = (key, plan)
        return plan
    }

    package mutating func insert(
        _ object: ManagedObject, _ entity: EntityDescription, toOne: [(name: String, key: Value)],
        keys: SaveChangesRequest.Keys
    ) throws -> Int64 {
        let storage = storageBox(of: entity).storage
        let filled = EngineFilledColumns.of(object, entity, storage, keys: keys, session: session)
        let plan = try insertPlan(entity, filled: filled, toOne: toOne, storage: storage)
        var values = SQLiteArguments()
        for name in plan.written { try append(object, entity, storage, name, session.insertedValue(object, name, keys: keys), to: &values) }
        values.append(contentsOf: toOne.map(\.key))
        var returned: [Value]?
        do {
            if filled.isEmpty && storage.numberedRows == nil {
                try plan.statement.executeBound(values, told: &plan.told)
            } else {
                // The whole insert happens at the first step, which also yields the row.
                returned = try plan.statement.rows(values).first
            }
        } catch let error as DatabaseError {
            throw refusal(error, of: object, storage, names: plan.written + toOne.map(\.name), arguments: values)
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
            key = try store.insertedKey(of: entity, in: db, session: session)
        }
        if !storage.generated.isEmpty { try readGenerated(object, entity, storage, key: .integer(key)) }
        if !filled.isEmpty { try readFilled(filled, returned, object, entity, key: .integer(key)) }
        return key
    }

    /// The columns the engine filled, as the object will hold them: from the insert's
    /// RETURNING, or read by key where it returned none (an insert through a view's
    /// trigger returns no row).
    private mutating func readFilled(_ names: [String], _ returned: [Value]?, _ object: ManagedObject, _ entity: EntityDescription, key: Value) throws
    {
        let storage = session.mapped(entity)
        var row = returned
        if row == nil {
            let sql = "SELECT \(names.map(quoteIdentifier).joined(separator: ", ")) FROM \(storage.table) WHERE \(storage.key) = ?"
            var arguments = SQLiteArguments()
            arguments.append(key)
            row = try db.cachedStatement(sql: sql).rows(arguments).first
        }
        guard let row else { return }
        for (i, name) in names.enumerated() where i < row.count {
            readBacks.append((object, name, ColumnFormats.readBack(row[i].databaseValue, entity, name, session: session)))
        }
    }

    /// The generated columns of `object`'s row as SQLite computed them, read back after a
    /// write, so the object holds them without a fetch.
    private mutating func readGenerated(_ object: ManagedObject, _ entity: EntityDescription, _ storage: EntityStorage, key: Value) throws {
        guard !storage.generated.isEmpty else { return }
        let names = entity.attributeNames.filter(storage.generated.contains)
        guard !names.isEmpty else { return }
        let sql = "SELECT \(names.map(quoteIdentifier).joined(separator: ", ")) FROM \(storage.table) WHERE \(storage.key) = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [key.databaseValue]) else { return }
        for (i, name) in names.enumerated() {
            readBacks.append((object, name, ColumnFormats.readBack(row[i] as DatabaseValue, entity, name, session: session)))
        }
    }

    package mutating func update(_ object: ManagedObject, key: Value, attributes: [String], toOne: [(name: String, key: Value)], readsBack: Bool)
        throws
    {
        // Made only when there are to-one keys: most updates change values alone.
        let columns = toOne.isEmpty ? attributes : attributes + toOne.map(\.name)
        var values = SQLiteArguments()
        let saved = entities.of(object)
        let entity = saved.current
        let storage = saved.storage
        // Its values, the row's key, and the row as read where it is compared.
        values.reserve(columns.count + 1 + (comparing.isEmpty ? 0 : entity.rowIndex.count))
        // An object with one pending value (most of a save of changed objects) gives it
        // without its key looked up again (issue 84).
        if attributes.count == 1, object.pending.count == 1, let (name, value) = object.pending.first, name == attributes[0] {
            try append(object, entity, storage, name, value, to: &values)
        } else {
            for name in attributes { try append(object, entity, storage, name, object.pending[name] ?? .null, to: &values) }
        }
        if !toOne.isEmpty { values.append(contentsOf: toOne.map(\.key)) }
        // A row found by its key alone (rows not numbered) is found by the same condition
        // in every row of the entity: not written again for each (its SQL made for each of
        // 20,000 changed objects was 7% of their writing).
        let row = storage.numberedRows == nil ? nil : storage.writtenRow(of: object, key: key)
        if let row { values.append(contentsOf: row.values) } else { values.append(key) }
        // The first UPDATE of a row this save compares also compares the row with what it
        // was read with; a later one (a link learning a new key) finds it changed by the first.
        let compares = !comparing.isEmpty && comparing.remove(ObjectIdentifier(object)) != nil
        if compares { try appendRowAsRead(of: object, to: &values) }
        let name = object.entity.name
        let update: UpdatePlan
        if let last = lastUpdate, last.entity == name, last.columns == columns, last.row == row?.sql, last.compares == compares {
            update = last
        } else {
            let assignments = columns.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: ", ")
            var condition = row?.sql ?? storage.writtenRow(of: object, key: key).sql
            if compares { condition += Self.rowAsReadCondition(of: saved) }
            let statement = try db.cachedStatement(sql: "UPDATE \(storage.writtenTable) SET \(assignments) WHERE \(condition)")
            update = UpdatePlan(entity: name, columns: columns, row: row?.sql, compares: compares, statement: statement)
        }
        // Forgotten while it runs: a failed run leaves no statement GRDB was told about.
        lastUpdate = nil
        // A compared row's UPDATE is stepped directly (`stepBound`): GRDB's run around it
        // was 1,750 instructions of each of 20,000 changed objects.
        do {
            if compares { try update.statement.stepBound(values) } else { try update.statement.executeBound(values, told: &update.told) }
        } catch let error as DatabaseError {
            throw refusal(error, of: object, storage, names: columns, arguments: values)
        }
        lastUpdate = update
        // No row changed: it holds something else than was read (or is gone). Asked of
        // SQLite itself: GRDB's `changesCount` checks its queue first, 460 instructions
        // of each of 20,000 UPDATEs.
        if compares, sqlite3_changes(db.sqliteConnection) != 1 { throw RowChangedSinceRead() }
        try readGenerated(object, object.entity, storage, key: key)
    }

    /// Its statement kept prepared (a save of many links runs it many times).
    package func write(_ link: PendingLink, source: Value, target: Value) throws {
        let sql =
            link.isAdd
            ? "INSERT OR IGNORE INTO \(quoteIdentifier(link.table)) (source, target) VALUES (?, ?)"
            : "DELETE FROM \(quoteIdentifier(link.table)) WHERE source = ? AND target = ?"
        try db.cachedStatement(sql: sql).execute(SQLiteArguments([source, target]))
    }

    package mutating func willDelete(_ request: SaveChangesRequest, keys: SaveChangesRequest.Keys) throws {
        try store.willDeleteRows(request, &work, keys: keys, in: db, session: session)
    }

    package func delete(_ object: ManagedObject, key: Int64) throws {
        let storage = session.mapped(object.entity)
        // Cached, as each statement of a save is: a save of many objects runs each many times.
        let row = storage.writtenRow(of: object, key: .integer(key))
        try db.cachedStatement(sql: "DELETE FROM \(storage.writtenTable) WHERE \(row.sql)").execute(SQLiteArguments(row.values))
    }

    package mutating func didWrite(_ request: SaveChangesRequest, keys: SaveChangesRequest.Keys) throws {
        try store.didWriteRows(request, work, keys: keys, in: db, session: session)
    }
}
