import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

extension ObjectContext {
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

    /// The SQLite file at `path` opened (nil or ":memory:": in memory), with the store of
    /// the first of `kinds` that recognises it (Quarry's own when none does), for the
    /// context the registry makes over them; `finishOpening` follows.
    package static func openingFile(
        _ path: String?, readOnly: Bool, functions: [SQLFunction], model: String?,
        kinds: [any OpenableStore.Type]
    ) throws -> (StoreConnection, any PersistentStore) {
        let connection = try StoreConnection.openingSQLite(path: path, readOnly: readOnly, functions: functions)
        let kind = try connection.read { db in try storeKind(of: db, path: connection.path, among: kinds) }
        return (connection, try kind.open(connection, modelPath: model))
    }

    /// The first of `kinds` that recognises the file behind `db`; Quarry's when none does.
    package static func storeKind(of db: Database, path: String?, among kinds: [any OpenableStore.Type]) throws -> any OpenableStore.Type {
        try kinds.first { try $0.recognizes(db, path: path) } ?? QuarryFileStore.self
    }

    /// After the context over a file is made: Quarry's own files switch to WAL.
    package func finishOpeningFile() throws { try useWriteAheadLog(opening: true) }

    /// Runs a read against the store, turning SQLite's errors into store errors.
    public func read<T>(_ body: (Database) throws -> T) throws -> T { try connection.read(body) }

    /// Creates or migrates the entity's table and keeps its declaration (the store's
    /// `writeTable`), inside the caller's transaction (`relate`, `import`); `didDefine` or
    /// `remember` must follow once that commits.
    package func write(_ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database) throws {
        guard let store = store as? any SQLiteStore else {
            throw StoreConnection.needsEngine("SQLite", for: "defining entities in a SQLite transaction")
        }
        try store.writeTable(entity, replacing: existing, in: db, context: self)
    }

    /// `relate`'s two entities written, with the indexes its joins use, in one
    /// transaction: a SQLite file's (`relate` is a foreign file's).
    package func writeRelation(_ from: EntityDescription, _ to: EntityDescription, column: String, targetKey: String?) throws {
        let (source, destinationName) = (from.name, to.name)
        do {
            try database.write { db in
                try write(from, replacing: managedObjectModel.entitiesByName[source], in: db)
                if source != destinationName { try write(to, replacing: managedObjectModel.entitiesByName[destinationName], in: db) }
                // Inverse sets look rows up by the column.
                try db.execute(
                    sql:
                        "CREATE INDEX IF NOT EXISTS \(quoteIdentifier("quarry_rel_\(source)_\(column)")) ON \(quoteIdentifier(source)) (\(quoteIdentifier(column)))"
                )
                // Key paths (`airline.name`) join the destination by the matched column;
                // its index serves the join and the check for an earlier row with the
                // same value (a table's key needs none). Only in Quarry's own stores: a
                // file Quarry did not create keeps its bytes, and SQLite builds a
                // transient index there when a join needs one.
                if let targetKey, !mapped(to).isView {
                    try db.execute(
                        sql:
                            "CREATE INDEX IF NOT EXISTS \(quoteIdentifier("quarry_rel_\(destinationName)_\(targetKey)")) ON \(quoteIdentifier(destinationName)) (\(quoteIdentifier(targetKey)))"
                    )
                }
            }
        } catch let error as DatabaseError { throw StoreError(error) }
    }
}
