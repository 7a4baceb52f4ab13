import GRDB
import QuarryEngine
import QuarryModel
import QuarryStore

/// Definitions written inside a caller's SQLite transaction (`import`'s new table,
/// `relate()`'s tables), where the store's own `define` would open another.
package enum SQLiteDefinitionWrites {
    /// Creates or migrates the entity's table and keeps its declaration (the store's
    /// `writeTable`), inside the caller's transaction (`relate`, `import`); `didDefine` or
    /// `remember` must follow once that commits.
    package static func write(
        _ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database, store: any SQLiteStore, session: StoreSession
    ) throws {
        try store.writeTable(entity, replacing: existing, in: db, session: session)
    }

    /// `relate`'s two entities written, with the indexes its joins use, in one
    /// transaction: a SQLite file's (`relate` is a foreign file's).
    package static func writeRelation(
        _ from: EntityDescription, _ to: EntityDescription, column: String, targetKey: String?, store: any SQLiteStore, session: StoreSession
    ) throws {
        let (source, destinationName) = (from.name, to.name)
        let model = session.managedObjectModel
        do {
            try session.connection.database.write { db in
                try write(from, replacing: model.entitiesByName[source], in: db, store: store, session: session)
                if source != destinationName {
                    try write(to, replacing: model.entitiesByName[destinationName], in: db, store: store, session: session)
                }
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
                if let targetKey, !session.mapped(to).isView {
                    try db.execute(
                        sql:
                            "CREATE INDEX IF NOT EXISTS \(quoteIdentifier("quarry_rel_\(destinationName)_\(targetKey)")) ON \(quoteIdentifier(destinationName)) (\(quoteIdentifier(targetKey)))"
                    )
                }
            }
        } catch let error as DatabaseError { throw StoreError(error) }
    }
}
