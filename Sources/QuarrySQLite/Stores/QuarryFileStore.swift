import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A file Quarry made (or an empty one, or an in-memory store): its model in
/// `quarry_model`, a table per root entity, and every save and batch change recorded in
/// `quarry_history` for other processes and later sessions.
package final class QuarryFileStore: SQLiteStore {
    package var managedObjectModel = ManagedObjectModel()
    package var mapping = StoreMapping()
    package var dialect: any SQLDialect { SQLiteDialect() }
    package var runsCascadesAtOnce: Bool { true }
    /// Quarry made the file: what it keeps is kept in it.
    package var isQuarrysFile: Bool { true }
    package func keepsDeclaration(of name: String) -> Bool { keepsQuarryLayout(name) }
    /// `quarry_model` comes first in a new file, before the tables it describes.
    package func prepareDeclarations(in db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.modelTable) (name TEXT PRIMARY KEY, definition TEXT NOT NULL)")
    }

    /// In `quarry_model`, so reopening the file restores the entity without a script.
    package func keepDeclaration(_ name: String, definition: String, in db: Database, session: StoreSession) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO \(Self.modelTable) (name, definition) VALUES (?, ?)", arguments: [name, definition])
    }

    package func recordHistory(
        inserted: [(entity: String, key: Int64)], updated: [(entity: String, key: Int64)], deleted: [String], in db: Database,
        session: StoreSession
    ) throws {
        if let token = try QuarryHistory.record(inserted: inserted, updated: updated, deleted: deleted, author: session.author, in: db) {
            // This context's own transactions are no outside change when it next looks for some.
            session.noteOwnHistory(token)
        }
    }
}
