import GRDB
import QuarryModel
import QuarryStore

/// A context's SQLite database, for the layouts that exist only on SQLite (Core Data's,
/// a foreign file's) and for tests: the connection's, asked through the context that owns it.
extension ObjectContext {
    /// The store's SQLite handle (a file's stores; asked of a server's, refused).
    public var database: any DatabaseWriter { get throws { try connection.database } }

    /// Runs a read against the store, turning SQLite's errors into store errors.
    public func read<T>(_ body: (Database) throws -> T) throws -> T { try connection.read(body) }

    /// The object for a row fetched through GRDB (`read { db in Row.fetchAll(...) }`): the
    /// registered one when the row is already in use (its unsaved changes kept), a new one
    /// otherwise. Columns: key, then attributes. The row's values become Quarry's here, at
    /// SQLite's edge; the context keeps no GRDB value.
    public func object(for entity: EntityDescription, row: Row) throws -> ManagedObject {
        let primaryKey: Int64 = try row.stored(0, table: entity.name, column: mapped(entity).keyColumn)
        if let existing = registeredObject(entity: entity.name, primaryKey: primaryKey) { return existing }
        return try object(for: entity, storedRow: Array(row.databaseValues).map(Value.init))
    }
}
