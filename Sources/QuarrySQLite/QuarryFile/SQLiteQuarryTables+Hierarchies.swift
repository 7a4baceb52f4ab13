import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Quarry's hierarchies in a SQLite file (`HierarchyReshape`): written in the caller's
/// transaction. A sub-entity's view writes its root's table through INSTEAD OF triggers
/// (`viewSQL`); in a file Quarry did not create the views and triggers are TEMP, made
/// again at each open, and the entity column has no index (the file gains only its
/// root's table).
extension SQLiteQuarryTables: HierarchyTables {
    package func dropTable(_ root: String) throws {
        try db.execute(sql: "DROP TABLE \(quoteIdentifier(root))")
    }

    /// A view of the name too, in the file or TEMP (`refuseTaken` asks for tables only).
    package func refuseNewMember(_ name: String) throws { try store.refuseTaken(name, in: db) }

    package func addEntityColumnIfMissing(_ root: String) throws {
        let hasIt = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoteIdentifier(root)))").contains {
            ($0["name"] as String?) == EntityStorage.entityColumn
        }
        guard !hasIt else { return }
        let table = quoteIdentifier(root)
        let column = quoteIdentifier(EntityStorage.entityColumn)
        try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column) TEXT NOT NULL DEFAULT \(quoteLiteral(root))")
        if store.isQuarrysFile { try db.execute(sql: "CREATE INDEX \(quoteIdentifier("quarry_entity_\(root)")) ON \(table) (\(column))") }
    }

    package func makeView(_ member: EntityDescription, root: String, tags: [String]) throws {
        for sql in Store.viewSQL(member, table: root, tags: tags.map(quoteLiteral), temporary: !store.isQuarrysFile) { try db.execute(sql: sql) }
    }

    /// Compared with the unique indexes the file has (`syncUniqueness(table:members:in:)`),
    /// whatever the declarations were.
    package func syncUniqueness(root: String, members: [(entity: EntityDescription, tags: [String]?)], old: [String: EntityDescription], made: Bool)
        throws
    {
        try store.syncUniqueness(table: root, members: members, in: db)
    }
}
