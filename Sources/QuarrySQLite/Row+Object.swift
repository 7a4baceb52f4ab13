import GRDB
import QuarryModel
import QuarryStore

/// A row read straight from a file's SQLite database (`context.connection.read { db in
/// Row.fetchAll(...) }`) as the context's object: for tests and the layouts that read
/// SQLite directly. It lives here, at SQLite's edge, so the context keeps no GRDB value.
extension Row {
    /// The object for this row, whose columns are the key then the attributes: the
    /// registered one when the row is already in use (its unsaved changes kept), a new one
    /// otherwise.
    package func object(of entity: EntityDescription, in session: StoreSession) throws -> ManagedObject {
        let primaryKey: Int64 = try stored(0, table: entity.name, column: session.mapped(entity).keyColumn)
        if let existing = session.registeredObject(entity: entity.name, primaryKey: primaryKey) { return existing }
        return try session.object(for: entity, storedRow: Array(databaseValues).map(QuarryModel.Value.init))
    }
}
