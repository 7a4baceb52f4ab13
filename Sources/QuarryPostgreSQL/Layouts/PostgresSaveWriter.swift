import QuarryEngine
import QuarryModel
import QuarryStore

/// Writes a `SaveChangesRequest` into a PostgreSQL schema in one `READ WRITE` transaction,
/// as `SQLiteSaveWriter` writes a SQLite file: the rows this save changes are locked
/// (`SELECT ... FOR UPDATE`) and compared with what the objects were read with
/// (optimistic locking, settled by the merge policy), then the rows are written as every
/// engine writes them (`SaveRowsWriter`) in the server's statements
/// (`PostgresSaveStatements`). Any error rolls everything back.
struct PostgresSaveWriter {
    /// The store written, for the keys of its tables keyed other than by one integer column.
    let store: PostgresStore
    package let session: StoreSession
    package let server: PostgresConnection

    package func write(_ request: SaveChangesRequest) throws -> SaveChangesResult {
        var result = SaveChangesResult(request: request)
        do {
            try server.inWriteTransaction {
                try settleConflicts(&result)
                try writeRows(&result)
            }
        } catch let overflow as PostgresNumericOverflow {
            // Said as the save's, as a value SQLite's writer cannot store is.
            throw StoreError.during(operation: "save", overflow.named(by: server))
        }
        return result
    }

    private func writeRows(_ result: inout SaveChangesResult) throws {
        var writer = SaveRowsWriter(session: session, rows: PostgresSaveStatements(store: store, session: session, server: server))
        try writer.write(&result)
    }

    /// The rows this save updates or deletes, locked until it commits and compared with
    /// what the objects were read with. An entity's rows are locked and read
    /// `conflictBatch` at a time by their keys (a round trip each object made a save of
    /// 27,004 updates wait on the server 54,008 times); a keyed table's row is read on
    /// its own, found by its key's index (`keyCondition`).
    private func settleConflicts(_ result: inout SaveChangesResult) throws {
        let keyed = store
        let objects = result.request.updates + result.request.deletes
        var stored: [ObjectIdentifier: [Value]] = [:]
        var batches: [(entity: EntityDescription, objects: [ManagedObject])] = []
        var batchOf: [String: Int] = [:]
        for object in objects {
            guard let query = SaveConflict.storedRowQuery(of: object, session: session) else { continue }
            let entity = session.currentEntity(of: object)
            let found = keyed.keyCondition(of: object, session.mapped(entity))
            if found.sql.isEmpty {
                let index = batchOf[entity.name] ?? batches.count
                if index == batches.count {
                    batches.append((entity, []))
                    batchOf[entity.name] = index
                }
                batches[index].objects.append(object)
            } else if let row = try session.connection.row(query.sql + found.sql + " FOR UPDATE", arguments: [.integer(query.key)] + found.values) {
                stored[ObjectIdentifier(object)] = row
            }
        }
        for batch in batches {
            let storage = session.mapped(batch.entity)
            for start in stride(from: 0, to: batch.objects.count, by: Self.conflictBatch) {
                let chunk = batch.objects[start..<min(start + Self.conflictBatch, batch.objects.count)]
                let keys = chunk.compactMap(\.primaryKey)
                let sql = storage.rowsByKeyIndex(storage.selection(of: batch.entity), count: keys.count) + " FOR UPDATE"
                var byKey: [Int64: [Value]] = [:]
                // The selection's first column is the key (`EntityStorage.selection`).
                for row in try session.connection.rows(sql, arguments: keys.map(Value.integer)) {
                    if let key = row.first?.storedInteger { byKey[key] = row }
                }
                for object in chunk { if let key = object.primaryKey, let row = byKey[key] { stored[ObjectIdentifier(object)] = row } }
            }
        }
        // In the request's order, as a refusal lists them.
        var conflicts = objects.compactMap { object -> SaveConflict? in
            guard object.primaryKey != nil else { return nil }
            return SaveConflict.of(object, storedRow: stored[ObjectIdentifier(object)], session: session)
        }
        conflicts += try result.request.goneLinkEnds(session: session) { sql, key in
            try session.connection.row(sql + " FOR SHARE", arguments: [.integer(key)]) != nil
        }
        try result.settle(conflicts, session: session)
    }

    /// How many rows one statement locks and reads: far within the server's 65,535
    /// parameters, and a statement small enough to plan at once.
    static let conflictBatch = 500
}

/// A save's rows on the server (`SaveStatements`). Values go as Quarry's, typed for the
/// server: a date as a timestamp, a boolean as one. An insert leaves out nil attributes
/// (a column with a default: those the object was not given), which take the column's
/// default, and generated columns; every row written comes back
/// (`RETURNING`) and the objects take what the server made of it (its key, defaults,
/// triggers' values). A keyed table's row is found by its key as well as its number.
///
/// Updates are sent `Updates.batch` at a time in one pipeline
/// (`PostgresConnection+Pipeline`), and what the server made of each is read when they
/// are answered: before any other statement, and at the end.
struct PostgresSaveStatements: SaveStatements {
    /// The store, for the keys of its tables keyed other than by one integer column.
    let keyed: PostgresStore
    package let session: StoreSession
    package let server: PostgresConnection
    /// Updates sent together, and what the rows written came back as.
    private let updates = Updates()

    package init(store: PostgresStore, session: StoreSession, server: PostgresConnection) {
        keyed = store
        self.session = session
        self.server = server
    }

    package var readBacks: [(ManagedObject, String, Value)] { updates.readBacks }

    /// An update waiting to be sent: its statement, and what names and reads back its row.
    private struct Update {
        /// Its statement, `$n` numbered.
        package let sql: String
        package let values: [Value]
        package let names: [String]
        package let object: ManagedObject
        /// The entity its row is read back as; nil when it is not.
        package let readBack: EntityDescription?
    }

    private final class Updates {
        package static let batch = 256
        package var waiting: [Update] = []
        var readBacks: [(ManagedObject, String, Value)] = []
        /// An update's SQL, by what it depends on.
        struct Statement: Hashable {
            package let entity: String
            package let names: [String]
            package let keyed: String
        }
        package var statements: [Statement: String] = [:]
    }

    package var statements: any WriteStatements { server }

    private func run(_ sql: String, _ values: [Value]) throws -> PostgresResult {
        try server.execute(PostgreSQLDialect.numbered(sql), values)
    }

    /// `run`, for a statement writing `columns` of `entity`'s row: a value past its
    /// column's precision is named (`PostgresNumericOverflow`).
    func run(_ sql: String, _ values: [Value], writing columns: [String], of entity: EntityDescription, newObject: ManagedObject) throws
        -> PostgresResult
    {
        do { return try run(sql, values) } catch {
            let storage = session.mapped(entity)
            throw PostgresNumericOverflow.keeping(
                named(error, of: newObject, columns: columns, values: values), entity: entity.name, table: storage.table, columns: columns,
                values: values, object: Self.named(new: newObject, key: storage.primaryKey, columns: columns, values: values))
        }
    }

    /// A uniqueness refused for `object`'s row, with its values and the object named
    /// (`StoreSession.namingRefusal`); any other error as it is. The row holding the values
    /// is not read: the refusal ended the transaction it would be read in.
    private func named(_ error: any Error, of object: ManagedObject, columns: [String], values: [Value]) -> any Error {
        guard case StoreError.constraint(let violation) = error,
            let named = session.namingRefusal(violation, of: object, names: columns, values: values)
        else { return error }
        return StoreError.constraint(named)
    }

    /// A new object as a refusal names it: its temporary ID, and the key it was given
    /// (`the new object docs/t1 (id = 2)`), which is how a person knows it.
    static func named(new object: ManagedObject, key: [String], columns: [String], values: [Value]) -> String {
        let given = key.compactMap { name -> String? in
            guard let i = columns.firstIndex(of: name), i < values.count, !values[i].isNull else { return nil }
            return "\(name) = \(PostgresNumericOverflow.shown(values[i]))"
        }
        return "the new object \(object.objectID)" + (!given.isEmpty && given.count == key.count ? " (\(given.joined(separator: ", ")))" : "")
    }

    /// Sends the updates waiting, in one pipeline, and reads back their rows; the first
    /// refused is thrown as `run` would have thrown it.
    package func sendWaiting() throws {
        let waiting = updates.waiting
        guard !waiting.isEmpty else { return }
        updates.waiting = []
        let results: [PostgresResult]
        do {
            results = try server.pipelined(waiting.map { ($0.sql, $0.values) })
        } catch let failure as PostgresConnection.PipelineFailure {
            guard waiting.indices.contains(failure.index) else { throw failure.error }
            let update = waiting[failure.index]
            throw PostgresNumericOverflow.keeping(
                named(failure.error, of: update.object, columns: update.names, values: update.values), entity: update.object.entity.name,
                table: session.mapped(update.object.entity).table,
                columns: update.names, values: update.values, object: update.object.objectID)
        }
        for (update, result) in zip(waiting, results) {
            if DatesPastYear9999.mayRound(update.values) {
                try refuseDatesRoundedPastYear9999(result.rows.first, update.readBack ?? session.currentEntity(of: update.object)) {
                    update.object.pending[$0] ?? .null
                }
            }
            guard let entity = update.readBack else { continue }
            let object = update.object
            updates.readBacks += made(result.rows.first, object, entity) { object.pending[$0] ?? object.committedValue($0) ?? .null }
        }
    }

    package mutating func insert(
        _ object: ManagedObject, _ entity: EntityDescription, toOne: [(name: String, key: Value)],
        keys: SaveChangesRequest.Keys
    ) throws -> Int64 {
        try sendWaiting()
        let written = try newRowValues(NewRow(object: object, entity: entity, toOne: toOne), keys: keys)
        let sql = insertSQL(entity, written.names, rows: 1)
        let row = try run(sql, written.values, writing: written.names, of: entity, newObject: object).rows.first
        return try tookRow(row, object, entity, sent: written.values)
    }

    /// The columns a new row writes and their values. A nil key takes the column's
    /// sequence, as SQLite gives a rowid; a column with a default the object was not given
    /// takes its default (`now()`, `nextval(...)`), left out. A nil the object was given
    /// for such a column is written, as psql would write it. Text that is not UTF-8 is
    /// refused here, before anything is sent. `storage` is the entity's, when the caller
    /// has it (a run of rows of one entity looks it up once).
    func newRowValues(_ row: NewRow, keys: SaveChangesRequest.Keys, storage: EntityStorage? = nil) throws -> (
        names: [String], values: [Value]
    ) {
        let (object, entity) = (row.object, row.entity)
        let storage = storage ?? session.mapped(entity)
        let filled = EngineFilledColumns.of(object, entity, storage, keys: keys, session: session)
        // Each value looked up once (twice, it was a tenth of writing 20,000 new rows);
        // the arrays made at their size, and the sets asked only when they hold anything
        // (growing the arrays and hashing each name three times more were a fifth of
        // making 20,000 new rows' values).
        let attributes = entity.attributes
        var names: [String] = []
        var values: [Value] = []
        names.reserveCapacity(attributes.count + row.toOne.count)
        values.reserveCapacity(attributes.count + row.toOne.count)
        let (generated, dates, defaults) = (storage.generated, storage.numericDates, storage.engineDefaults)
        for attribute in attributes {
            let name = attribute.name
            if !generated.isEmpty, generated.contains(name) { continue }
            if !filled.isEmpty, filled.contains(name) { continue }
            var value = session.insertedValue(object, name, keys: keys)
            if !dates.isEmpty, dates[name] != nil {
                value = try PostgresNumberTimes.written(value, name, of: entity, session: session, operation: "save")
            }
            guard !value.isNull || (!defaults.isEmpty && defaults.contains(name)) else { continue }
            names.append(name)
            values.append(value)
        }
        for link in row.toOne {
            names.append(link.name)
            values.append(link.key)
        }
        try Self.refuseTextThatIsNotUTF8(names, values, of: entity)
        return (names, values)
    }

    /// An INSERT of `rows` rows writing `names` (none: one row of the table's defaults),
    /// each row returned whole, its key first (`EntityStorage.selection`).
    func insertSQL(_ entity: EntityDescription, _ names: [String], rows: Int) -> String {
        let storage = session.mapped(entity)
        let returning = " RETURNING \(storage.selection(of: entity))"
        guard !names.isEmpty else { return "INSERT INTO \(storage.table) DEFAULT VALUES" + returning }
        let row = "(" + names.map { Self.placeholder($0, storage) }.joined(separator: ", ") + ")"
        return "INSERT INTO \(storage.table) (\(names.map(quoteIdentifier).joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ") + returning
    }

    /// The new key of the row the server returned for `object`, noting what the server
    /// made of its values (`sent`).
    func tookRow(_ row: [Value]?, _ object: ManagedObject, _ entity: EntityDescription, sent values: [Value]) throws -> Int64 {
        guard let newKey = row?.first?.storedInteger else {
            throw StoreError.database(message: "\(entity.name): the server returned no integer key for the new row")
        }
        if DatesPastYear9999.mayRound(values) { try refuseDatesRoundedPastYear9999(row, entity) { object.currentValue($0) } }
        updates.readBacks += made(row, object, entity) { object.currentValue($0) }
        return newKey
    }

    package mutating func update(_ object: ManagedObject, key: Value, attributes: [String], toOne: [(name: String, key: Value)], readsBack: Bool)
        throws
    {
        let entity = object.entity
        let storage = session.mapped(entity)
        let names = attributes + toOne.map(\.name)
        let values =
            try attributes.map { name in
                let value = object.pending[name] ?? .null
                return storage.numericDates[name] == nil
                    ? value : try PostgresNumberTimes.written(value, name, of: entity, session: session, operation: "save")
            } + toOne.map(\.key)
        try Self.refuseTextThatIsNotUTF8(names, values, of: entity)
        let found = keyed.keyCondition(of: object, storage)
        // Written once for each entity and set of columns: rows changed alike (a loop
        // setting one attribute of thousands) share it.
        let statement = Updates.Statement(entity: entity.name, names: names, keyed: found.sql)
        let sql =
            updates.statements[statement]
            ?? {
                let assignments = names.map { "\(quoteIdentifier($0)) = \(Self.placeholder($0, storage))" }.joined(separator: ", ")
                let made = PostgreSQLDialect.numbered(
                    "UPDATE \(storage.table) SET \(assignments) WHERE \(storage.key) = ?\(found.sql) RETURNING \(storage.selection(of: entity))")
                updates.statements[statement] = made
                return made
            }()
        updates.waiting.append(
            Update(
                sql: sql,
                values: values + [key] + found.values, names: names, object: object,
                readBack: readsBack ? session.currentEntity(of: object) : nil))
        if updates.waiting.count >= Updates.batch { try sendWaiting() }
    }

    /// The value written to column `name`: an `interval`'s seconds as a float8 times a
    /// second, so a double the server would not read as an interval's text (`1e-07`,
    /// `1e+20`) is still seconds (or one line saying it is out of the interval's range).
    /// A `money` column's (`numericCasts`) as a numeric, which the server makes money
    /// whatever its `lc_monetary`: read as money's own text, `1234.5` is 12.345,00 € in
    /// `de_DE` (the `.` a thousands separator) and `1e-07` no money at all.
    static func placeholder(_ name: String, _ storage: EntityStorage) -> String {
        if storage.intervalColumns.contains(name) { return "(CAST(? AS float8) * interval '1 second')" }
        return storage.numericCasts.contains(name) ? "CAST(? AS numeric)" : "?"
    }

    // No `write(_:source:target:)`: many-to-many links (Quarry's own tables) are written
    // as standard SQL writes them; a deleted row's go with it (ON DELETE CASCADE).

    package func delete(_ object: ManagedObject, key: Int64) throws {
        try sendWaiting()
        let storage = session.mapped(object.entity)
        let found = keyed.keyCondition(of: object, storage)
        _ = try run("DELETE FROM \(storage.table) WHERE \(storage.key) = ?\(found.sql)", [.integer(key)] + found.values)
    }

    /// A date the server rounded into the year 10000 (`DatesPastYear9999`), refused.
    private func refuseDatesRoundedPastYear9999(
        _ row: [Value]?, _ entity: EntityDescription,
        sent: (String) -> Value
    ) throws {
        guard let row else { return }
        try DatesPastYear9999.refuse(session.values(of: entity, row: row), entity, operation: "save", sent: sent)
    }

    /// The attributes whose values the server made other than `sent` gave them (a
    /// default, a generated column, a trigger's change, a timestamp rounded to the
    /// microsecond), as the object will hold them.
    private func made(
        _ row: [Value]?, _ object: ManagedObject, _ entity: EntityDescription,
        sent: (String) -> Value
    ) -> [(ManagedObject, String, Value)] {
        guard let row else { return [] }
        // Read in place: a dictionary of the row's values for each new row (20,000 in a
        // save of new objects) was a twentieth of the save.
        var made: [(ManagedObject, String, Value)] = []
        for (i, attribute) in entity.attributes.enumerated() {
            let value = StoreSession.value(of: attribute, at: i, row: row)
            if !Value.sameStored(value, sent(attribute.name)) { made.append((object, attribute.name, value)) }
        }
        return made
    }
}
