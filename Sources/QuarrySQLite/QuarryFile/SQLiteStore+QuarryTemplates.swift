import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Fetch request templates `model()` keeps in Quarry's own files: the table
/// `quarry_fetch_template`, one row per template (its predicate as a format string, or
/// why it could not be read).
extension SQLiteStore {
    package func keptTemplates(session: StoreSession) throws -> [CoreDataFetchRequest] {
        try session.connection.read { db in
            guard try db.hasTable(Self.templateTable) else { return [] }
            return try Row.fetchAll(db, sql: "SELECT name, entity, predicate, problem FROM \(Self.templateTable)").map { row in
                CoreDataFetchRequest(
                    name: try row.stored(0, table: Self.templateTable, column: "name"),
                    entity: try row.stored(1, table: Self.templateTable, column: "entity"),
                    predicate: CoreDataPredicate(format: row["predicate"], problem: row["problem"]))
            }
        }
    }

    /// What a SQLite file keeps in itself: templates in Quarry's table, and `relate()`'s
    /// tables where the relationship is in the model (`Keeping.link`). The rest is kept
    /// only by another program's file, in its sidecar (`ForeignFileStore.keep`).
    package func keep(_ what: Keeping, session: StoreSession) throws {
        switch what {
        case .templates(let templates): try keepInFile(templates: templates, session: session)
        case .link(let from, let to, let column, let targetKey):
            if session.isReadOnly { throw StoreError.readOnly(operation: "relate") }
            try SQLiteDefinitionWrites.writeRelation(from, to, column: column, targetKey: targetKey, store: self, session: session)
        case .relation, .format: break
        }
    }

    private func keepInFile(templates: [CoreDataFetchRequest], session: StoreSession) throws {
        do {
            try session.connection.database.write { db in
                try db.execute(
                    sql:
                        "CREATE TABLE IF NOT EXISTS \(Self.templateTable) (name TEXT PRIMARY KEY, entity TEXT NOT NULL, predicate TEXT, problem TEXT)"
                )
                for template in templates {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO \(Self.templateTable) (name, entity, predicate, problem) VALUES (?, ?, ?, ?)",
                        arguments: [template.name, template.entity, template.predicate?.format, template.predicate?.problem])
                }
            }
        } catch let error as DatabaseError { throw StoreError(error) }
    }
}
