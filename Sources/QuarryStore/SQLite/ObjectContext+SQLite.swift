import GRDB
import QuarryModel

extension ObjectContext {
    /// The Core Data store behind the context, when it is one: for the Core Data layer's
    /// own code and its tests. Layers above ask `capabilities` and the members below.
    public var coreData: CoreDataStore? { store as? CoreDataStore }

    /// The store's SQLite handle (a file's stores; asked of a server's, refused).
    public var database: any DatabaseWriter { get throws { try connection.database } }

    /// The object for a row fetched through GRDB (`read { db in Row.fetchAll(...) }`): the
    /// registered one when the row is already in use (its unsaved changes kept), a new one
    /// otherwise. Columns: key, then attributes. The row's values become Quarry's here, at
    /// SQLite's edge; the context keeps no GRDB value.
    public func object(for entity: EntityDescription, row: Row) throws -> ManagedObject {
        let primaryKey: Int64 = try row.stored(0, table: entity.name, column: mapped(entity).keyColumn)
        if let existing = registeredObject(entity: entity.name, primaryKey: primaryKey) { return existing }
        return try object(for: entity, storedRow: Array(row.databaseValues).map(Value.init))
    }

    /// Quarry's own files (new ones, or ones holding its model) use WAL (see
    /// `StoreConnection.useWriteAheadLog`). A file Quarry did not create keeps its journal
    /// mode: opening it writes nothing, an existing empty file included (it becomes
    /// Quarry's at its first entity).
    /// Only a file opened as Quarry's: one with an empty `quarry_model` among other tables
    /// opens as someone else's (`QuarryFileStore.recognizes`), and keeps its bytes.
    func useWriteAheadLog(opening: Bool = false) throws {
        guard path != nil, !isReadOnly, store is QuarryFileStore else { return }
        let ours = try read { db in
            try db.hasTable(QuarryFileStore.modelTable)
                || ((!opening || connection.createdByOpen) && Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0)
        }
        if ours { try connection.useWriteAheadLog() }
    }

    /// Runs a read against the store, turning SQLite's errors into store errors.
    public func read<T>(_ body: (Database) throws -> T) throws -> T { try connection.read(body) }

    /// A foreign file's column default read off the clock (`CURRENT_TIMESTAMP`), as SQLite
    /// gives it now; nil when it cannot.
    func clockDefault(_ clock: String, as type: AttributeType) -> Value {
        ((try? read { db in ForeignColumnDefault.now(clock, as: type, in: db) }) ?? nil) ?? .null
    }

    /// Opens (or creates) the SQLite file at `path`; nil or ":memory:" is an in-memory
    /// store. `functions` are SQL functions installed on the connection (the predicate
    /// layer's). The file's kind is the first of `storeKinds` that recognises it.
    public convenience init(path: String?, readOnly: Bool = false, functions: [SQLFunction] = [], model: String? = nil) throws {
        CoreDataStore.readModelsOfStores()
        let connection = try StoreConnection(path: path, readOnly: readOnly, functions: functions)
        let kind = try connection.read { db in try Self.storeKind(of: db, path: connection.path) }
        try self.init(connection: connection, store: kind.open(connection, modelPath: model))
        try useWriteAheadLog(opening: true)
    }

    /// The kinds of store a file may be, in the order they are asked to recognise it:
    /// Quarry's own (its model, or nothing yet), Core Data's, then any other program's.
    static let storeKinds: [any OpenableStore.Type] = [QuarryFileStore.self, CoreDataStore.self, ForeignFileStore.self]

    /// The first kind in `storeKinds` that recognises the file behind `db`; Quarry's when
    /// none does.
    static func storeKind(of db: Database, path: String?) throws -> any OpenableStore.Type {
        try storeKinds.first { try $0.recognizes(db, path: path) } ?? QuarryFileStore.self
    }

    /// `format("Invoice", "InvoiceDate")`: the format Quarry writes the column in, declared
    /// or read from its values; nil for Quarry's own stores, whose encoding is fixed.
    /// Refused as a write would be when the values show no one format.
    public func columnFormat(_ entityName: String, _ column: String) throws -> String? {
        let entity = try entity(named: entityName)
        guard mapped(entity).layout == .foreignTable else { return nil }
        let (_, attribute) = try formatColumn(entityName, column)
        return try read { db in
            var formats = ColumnFormats()
            return try formats.format(of: entity, attribute, in: db, context: self)
        }.name
    }

    /// Creates or migrates the entity's table and keeps its declaration (the store's
    /// `writeTable`), inside the caller's transaction (`relate`, `import`); `didDefine` or
    /// `remember` must follow once that commits.
    package func write(_ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database) throws {
        guard let store = store as? any SQLiteStore else { throw StoreConnection.needsEngine("SQLite", for: "defining entities in a SQLite transaction") }
        try store.writeTable(entity, replacing: existing, in: db, context: self)
    }

    /// `relate`'s two entities written, with the indexes its joins use, in one
    /// transaction: a SQLite file's (`relate` is a foreign file's).
    func writeRelation(_ from: EntityDescription, _ to: EntityDescription, column: String, targetKey: String?) throws {
        let (source, destinationName) = (from.name, to.name)
        do {
            try database.write { db in
                try write(from, replacing: managedObjectModel.entitiesByName[source], in: db)
                if source != destinationName { try write(to, replacing: managedObjectModel.entitiesByName[destinationName], in: db) }
                // Inverse sets look rows up by the column.
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quoteIdentifier("quarry_rel_\(source)_\(column)")) ON \(quoteIdentifier(source)) (\(quoteIdentifier(column)))")
                // Key paths (`airline.name`) join the destination by the matched column;
                // its index serves the join and the check for an earlier row with the
                // same value (a table's key needs none). Only in Quarry's own stores: a
                // file Quarry did not create keeps its bytes, and SQLite builds a
                // transient index there when a join needs one.
                if let targetKey, !mapped(to).isView {
                    try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quoteIdentifier("quarry_rel_\(destinationName)_\(targetKey)")) ON \(quoteIdentifier(destinationName)) (\(quoteIdentifier(targetKey)))")
                }
            }
        } catch let error as DatabaseError { throw StoreError(error) }
    }
}
