import GRDB

/// A file Quarry made (or an empty one, or an in-memory store): its model in
/// `quarry_model`, a table per root entity, and every save and batch change recorded in
/// `quarry_history` for other processes and later sessions.
final class QuarryFileStore: PersistentStore {
    func keepDeclaration(_ name: String, definition: String, in db: Database, context: ObjectContext) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(ObjectContext.modelTable) (name TEXT PRIMARY KEY, definition TEXT NOT NULL)")
        try db.execute(sql: "INSERT OR REPLACE INTO \(ObjectContext.modelTable) (name, definition) VALUES (?, ?)", arguments: [name, definition])
    }

    func recordHistory(inserted: [String], updated: [String], deleted: [String], in db: Database, context: ObjectContext) throws {
        try context.recordQuarryHistory(inserted: inserted, updated: updated, deleted: deleted, in: db)
    }
}
