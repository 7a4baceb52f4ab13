import GRDB

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
    func writeDefinition(_ entity: EntityDescription, changes: [EntityDescription], in db: Database, context: ObjectContext) throws -> [String] {
        try QuarryDefinition(store: self).run(entity, changes: changes, on: SQLiteQuarryDefinitions(store: self, db: db, context: context)).touched
    }

    /// Creates or migrates the entity's table and keeps its declaration, inside the
    /// caller's transaction.
    func writeTable(_ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database, context: ObjectContext) throws {
        try validate(entity)
        let engine = SQLiteQuarryDefinitions(store: self, db: db, context: context)
        try engine.prepareDeclarations()
        try QuarryDefinition(store: self).writeTable(entity, replacing: existing, on: engine)
    }

    func createTable(_ entity: EntityDescription, in db: Database) throws {
        try TableCreation(entity: entity).run(on: SQLiteQuarryTables(store: self, db: db))
    }

    func migrate(_ old: EntityDescription, to new: EntityDescription, in db: Database) throws {
        try TableMigration(old: old, new: new).run(on: SQLiteQuarryTables(store: self, db: db))
    }
}

/// Defining Quarry's tables in a SQLite file (`QuarryDefinition`), in the caller's
/// transaction: declarations where the store keeps them (`quarry_model`, or a foreign
/// file's sidecar), link tables `WITHOUT ROWID` keyed by their pair and indexed the other
/// way; no foreign keys, since Quarry carries out the delete rules itself.
private struct SQLiteQuarryDefinitions<Store: SQLiteStore>: QuarryDefinitionStatements {
    let store: Store
    let db: Database
    let context: ObjectContext

    var tables: SQLiteQuarryTables<Store> { SQLiteQuarryTables(store: store, db: db) }
    var hierarchies: SQLiteHierarchyTables<Store> { SQLiteHierarchyTables(store: store, db: db) }
    func definitionToMigrate(_ name: String) -> EntityDescription? { store.managedObjectModel.declaredEntity(name) }
    func refuseDefining(_ entity: EntityDescription) throws {}
    func prepareDeclarations() throws { try store.prepareDeclarations(in: db) }
    func keepDeclaration(_ name: String, definition: String) throws {
        try store.keepDeclaration(name, definition: definition, in: db, context: context)
    }
    func createLinkTable(_ table: String, sourceTable: String?, targetTable: String?, moved: [String]) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(table)) (source INTEGER NOT NULL, target INTEGER NOT NULL, PRIMARY KEY (source, target)) WITHOUT ROWID")
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(table + "_target")) ON \(quoteIdentifier(table)) (target, source)")
    }
    func didWriteTables(_ entities: [EntityDescription], touched: [String], made: [String]) throws {}
}

/// Quarry's tables in a SQLite file, as `TableCreation` and `TableMigration` write them.
struct SQLiteQuarryTables<Store: SQLiteStore>: QuarryTableStatements {
    let store: Store
    let db: Database

    var statements: any WriteStatements { SQLiteWriteStatements(db: db) }
    func relation(_ name: String) -> String { quoteIdentifier(name) }
    func columnType(_ type: AttributeType) -> String { type.sqlType }
    var keyColumnType: String { "INTEGER" }
    // Keys only grow in Quarry's files (history and tombstones name rows by key); in
    // someone else's file AUTOINCREMENT would add SQLite's `sqlite_sequence` table, so a
    // key there is the rowid's, as the file's own tables have it.
    var keyDeclaration: String { "INTEGER PRIMARY KEY" + (store.isQuarrysFile ? " AUTOINCREMENT" : "") }
    func refuseTaken(_ name: String) throws {
        if try db.hasTable(name) { throw StoreError.invalidSchema(entity: name, reason: "a table of that name already exists") }
    }
    func indexName(_ name: String) -> String { quoteIdentifier(name) }
    func indexRelation(_ name: String) -> String { quoteIdentifier(name) }
}

/// Quarry's tables on any engine: how links are stored, and what a definition must be.
extension PersistentStore {
    /// How a relationship's links are stored, or nil while its destination is undefined.
    func storage(of relationship: RelationshipDescription, in entity: String) -> RelationshipStorage? {
        guard let destination = managedObjectModel.entitiesByName[relationship.destination] ?? (relationship.destination == entity ? managedObjectModel.entitiesByName[entity] : nil) else { return nil }
        if !relationship.isToMany {
            if let key = relationship.compositeKey { return .compositeKey(columns: key.columns, targetKeys: key.targetKeys) }
            return .foreignKey(column: relationship.keyColumn, targetKey: relationship.targetKey)
        }
        let inverse = relationship.inverse.flatMap { destination.relationship(named: $0) }
        if let inverse, !inverse.isToMany, let key = inverse.compositeKey {
            return .inverseCompositeKey(destination: destination.name, columns: key.columns, ownerKeys: key.targetKeys, inverse: inverse.name)
        }
        if let inverse, !inverse.isToMany {
            return .inverseForeignKey(destination: destination.name, column: inverse.keyColumn, ownerKey: inverse.targetKey, inverse: inverse.name)
        }
        // A many-to-many pair shares one table, named after the side that sorts first,
        // each side by the entity that declares it (in a hierarchy, a parent's results
        // also read a sub-entity's relationships, and a sub-entity inherits its parent's).
        let mine = "\(declaringEntity(relationship.name, in: entity))_\(relationship.name)"
        let theirs = inverse.map { "\(declaringEntity($0.name, in: destination.name))_\($0.name)" }
        if let theirs, theirs < mine {
            return .linkTable(table: "quarry_link_" + theirs, sourceColumn: "target", targetColumn: "source")
        }
        return .linkTable(table: "quarry_link_" + mine, sourceColumn: "source", targetColumn: "target")
    }

    /// The member of `entity`'s hierarchy whose declaration holds the relationship `name`
    /// (a key appears once per hierarchy); `entity` itself outside hierarchies.
    private func declaringEntity(_ name: String, in entity: String) -> String {
        if managedObjectModel.declaredByName[entity]?.relationship(named: name) != nil || managedObjectModel.declaredByName[entity] == nil { return entity }
        let root = ManagedObjectModel.root(of: entity, in: managedObjectModel.declaredByName)
        for (member, declared) in managedObjectModel.declaredByName where declared.relationship(named: name) != nil && ManagedObjectModel.root(of: member, in: managedObjectModel.declaredByName) == root {
            return member
        }
        return entity
    }

    /// Refuses an entity whose names Quarry's tables cannot take (reserved, empty, clashing
    /// in case, Quarry's own columns), or whose default does not fit its attribute.
    func validate(_ entity: EntityDescription) throws {
        for name in [entity.name] + entity.keyNames {
            if let problem = SchemaName.problem(name) { throw StoreError.invalidSchema(entity: entity.name, reason: "\(SchemaName.shown(name)) \(problem)") }
        }
        guard !entity.name.isEmpty, !entity.name.hasPrefix("quarry_"), !entity.name.hasPrefix("sqlite_") else {
            throw StoreError.invalidSchema(entity: entity.name, reason: "the name is reserved or empty")
        }
        // The column that names each row's entity in a hierarchy is Quarry's own.
        if let name = entity.keyNames.first(where: { $0.lowercased() == EntityStorage.entityColumn.lowercased() }) {
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(name)' is reserved: it names each row's entity in a hierarchy")
        }
        var seen: Set<String> = []
        for name in entity.keyNames where !seen.insert(name.lowercased()).inserted {
            // SQLite's column names ignore case.
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(name)' differs from another key only in case")
        }
        for r in entity.relationships where r.name.isEmpty || r.name.lowercased() == EntityStorage.quarryKeyColumn {
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(r.name)' cannot be a relationship name")
        }
        for attribute in entity.attributes {
            if attribute.name.lowercased() == EntityStorage.quarryKeyColumn || attribute.name.isEmpty {
                throw StoreError.invalidSchema(entity: entity.name, reason: "'\(attribute.name)' cannot be an attribute name")
            }
            if let value = attribute.defaultValue, case .failure = attribute.type.coerce(value) {
                throw StoreError.invalidSchema(entity: entity.name,
                    reason: "the default of '\(attribute.name)' is not a \(attribute.type.rawValue)")
            }
        }
    }
}
