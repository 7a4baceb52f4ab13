import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Quarry's tables for the entities it defines: a table per root entity keyed by `_pk`, a
/// column per attribute and per to-one key (indexed as declared), a link table per
/// many-to-many pair; a changed definition migrates its table in place, as a Core Data
/// lightweight migration does. Quarry's own files hold such tables, and so does another
/// program's file for the entities Quarry defines in it (their declarations kept in its
/// sidecar, `keepDeclaration`); a Core Data store refuses every definition before any of
/// this (`refuseDefining`). The flow is written once for both engines
/// (`QuarryDefinition`); hierarchies and uniqueness constraints are in
/// `QuarryLayout+Hierarchies` and `+Uniqueness` (SQLite's part in `SQLiteStore+QuarryLayout`).
extension SQLiteStore {
    /// Quarry's tables, as above (`QuarryDefinition`): the members of a hierarchy are
    /// reshaped together, an entity alone is migrated on its own; link tables once both
    /// ends are known. Returns the members of the hierarchies reshaped.
    package func writeDefinition(_ entity: EntityDescription, changes: [EntityDescription], in db: Database, session: StoreSession) throws
        -> [String]
    {
        try QuarryDefinition(store: self).run(entity, changes: changes, on: SQLiteQuarryTables(store: self, db: db, session: session)).touched
    }

    /// Creates or migrates the entity's table and keeps its declaration, inside the
    /// caller's transaction.
    func writeTable(_ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database, session: StoreSession) throws {
        try validate(entity)
        let tables = SQLiteQuarryTables(store: self, db: db, session: session)
        try tables.prepareDeclarations()
        try QuarryDefinition(store: self).writeTable(entity, replacing: existing, on: tables)
    }
}

/// Defining Quarry's tables in a SQLite file (`QuarryDefinition`), in the caller's
/// transaction: declarations where the store keeps them (`quarry_model`, or a foreign
/// file's sidecar), link tables `WITHOUT ROWID` keyed by their pair and indexed the other
/// way; no foreign keys, since Quarry carries out the delete rules itself.
extension SQLiteQuarryTables: QuarryDefinitionStatements {
    package func definitionToMigrate(_ name: String) -> EntityDescription? { store.managedObjectModel.declaredEntity(name) }
    package func prepareDeclarations() throws { try store.prepareDeclarations(in: db) }
    package func keepDeclaration(_ name: String, definition: String) throws {
        try store.keepDeclaration(name, definition: definition, in: db, session: session)
    }
    package func createLinkTable(_ table: String, sourceTable: String?, targetTable: String?, moved: [String]) throws {
        try db.execute(
            sql:
                "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(table)) (source INTEGER NOT NULL, target INTEGER NOT NULL, PRIMARY KEY (source, target)) WITHOUT ROWID"
        )
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(table + "_target")) ON \(quoteIdentifier(table)) (target, source)")
    }
}

/// Quarry's tables in a SQLite file, as `TableCreation` and `TableMigration` write them.
struct SQLiteQuarryTables<Store: SQLiteStore>: QuarryTableStatements {
    let store: Store
    let db: Database
    let session: StoreSession

    package var statements: any WriteStatements { SQLiteWriteStatements(db: db) }
    package func columnType(_ type: AttributeType) -> String { type.sqlType }
    // Keys only grow in Quarry's files (history and tombstones name rows by key); in
    // someone else's file AUTOINCREMENT would add SQLite's `sqlite_sequence` table, so a
    // key there is the rowid's, as the file's own tables have it.
    package var keyDeclaration: String { "INTEGER PRIMARY KEY" + (store.isQuarrysFile ? " AUTOINCREMENT" : "") }
    package func refuseTaken(_ name: String) throws {
        if try db.hasTable(name) { throw StoreError.invalidSchema(entity: name, reason: "a table of that name already exists") }
    }
}
