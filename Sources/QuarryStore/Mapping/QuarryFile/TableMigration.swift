import QuarryEngine
import QuarryModel

/// What migrating one of Quarry's tables in place asks of the engine it is on
/// (`TableMigration`) or making it (`TableCreation`): a SQLite file's
/// (`SQLiteStore+QuarryTables`) or a PostgreSQL schema's (`PostgresStore+Definitions`).
package protocol QuarryTableStatements {
    /// Statements of the definition's transaction.
    var statements: any WriteStatements { get }
    /// The table of entity `name`, as SQL names it.
    func relation(_ name: String) -> String
    /// The column type of an attribute of `type`.
    func columnType(_ type: AttributeType) -> String
    /// The column type of a to-one key (an `int64` attribute's, by default).
    var keyColumnType: String { get }
    /// The declaration of a new table's key column, `_pk`: keys only grow, each row's its own.
    var keyDeclaration: String { get }
    /// Refuses a new table whose name a relation of the database has already.
    func refuseTaken(_ name: String) throws
    /// The index Quarry names `name`, as `CREATE INDEX` names it (quoted, within the
    /// engine's length).
    func indexName(_ name: String) -> String
    /// The index Quarry names `name`, as `DROP INDEX` finds it (in its schema).
    func indexRelation(_ name: String) -> String
}

/// The indexes of Quarry's tables, the same statements on every engine.
extension QuarryTableStatements {
    /// The name quoted, where an engine takes any length and has no schemas.
    package func relation(_ name: String) -> String { quoteIdentifier(name) }
    /// A key is a 64-bit integer, as an `int64` attribute's column holds it.
    package var keyColumnType: String { columnType(.int64) }
    package func indexName(_ name: String) -> String { quoteIdentifier(name) }
    package func indexRelation(_ name: String) -> String { quoteIdentifier(name) }

    /// Drops the index Quarry named `name`, if there is one.
    func dropIndex(_ name: String) throws {
        try statements.run("DROP INDEX IF EXISTS \(indexRelation(name))", [])
    }

    /// The index an attribute's `isIndexed` or `isUnique` asks for, if it asks for one.
    func createIndex(_ entity: String, _ attribute: AttributeDescription) throws {
        guard attribute.isIndexed || attribute.isUnique else { return }
        try statements.run(
            "CREATE \(attribute.isUnique ? "UNIQUE " : "")INDEX \(indexName(TableMigration.indexName(entity, attribute.name))) "
                + "ON \(relation(entity)) (\(quoteIdentifier(attribute.name)))", [])
    }

    /// The index of a to-one key's column: inverse sets and delete rules look rows up by it.
    func createForeignKeyIndex(_ entity: String, _ column: String) throws {
        try statements.run(
            "CREATE INDEX IF NOT EXISTS \(indexName("quarry_fk_\(entity)_\(column)")) ON \(relation(entity)) (\(quoteIdentifier(column)))", [])
    }
}

/// Makes an entity's table, on any engine: its key, a column per attribute (typed as the
/// engine types it) and per to-one key, and the indexes they ask for (`createIndex`,
/// `createForeignKeyIndex`). Its uniqueness constraints follow (`HierarchyTables.syncUniqueness`),
/// and its foreign keys where the engine has them (`QuarryDefinitionStatements.didWriteTables`).
package struct TableCreation {
    let entity: EntityDescription

    /// `refusingTaken`: its name is refused when a table has it (false: refused already).
    package func run(on tables: some QuarryTableStatements, refusingTaken: Bool = true) throws {
        if refusingTaken { try tables.refuseTaken(entity.name) }
        let columns =
            ["\(quoteIdentifier(EntityStorage.quarryKeyColumn)) \(tables.keyDeclaration)"]
            + entity.attributes.map { "\(quoteIdentifier($0.name)) \(tables.columnType($0.type))" }
            + entity.ownKeyColumns.map { "\(quoteIdentifier($0.name)) \(tables.keyColumnType)" }
        try tables.statements.run("CREATE TABLE \(tables.relation(entity.name)) (\(columns.joined(separator: ", ")))", [])
        for attribute in entity.attributes { try tables.createIndex(entity.name, attribute) }
        for r in entity.ownKeyColumns { try tables.createForeignKeyIndex(entity.name, r.name) }
    }

    package init(entity: EntityDescription) {
        self.entity = entity
    }
}

/// Migrates an entity's table in place, as a Core Data lightweight migration would, on any
/// engine: renamed attributes keep their values (`renamedFrom`), new ones are added (with
/// their default in every row), dropped ones go with their columns and indexes, and
/// indexes follow `isIndexed`/`isUnique`. Refused, with nothing changed by the caller's
/// transaction: a type change, a new required attribute existing rows cannot fill, an
/// attribute made required while rows hold nil and no default fills them, an attribute
/// becoming a relationship.
package struct TableMigration {
    let old: EntityDescription
    let new: EntityDescription

    package func run(on tables: some QuarryTableStatements) throws {
        let table = tables.relation(new.name)
        let sql = tables.statements
        let rows = try sql.count("SELECT count(*) FROM \(table)")
        // Renames first, so the checks below see each column under its new name.
        var renamed: [String: String] = [:]
        for attribute in new.attributes {
            guard let from = attribute.renamedFrom, from != attribute.name, old.attribute(named: attribute.name) == nil,
                old.attribute(named: from) != nil
            else { continue }
            if new.attribute(named: from) != nil || new.relationship(named: from) != nil {
                throw StoreError.migrationRefused(
                    entity: new.name,
                    reason: "'\(attribute.name)' is renamed from '\(from)', but '\(from)' is still defined; remove it or drop renamedFrom")
            }
            try tables.dropIndex(Self.indexName(new.name, from))
            try sql.run("ALTER TABLE \(table) RENAME COLUMN \(quoteIdentifier(from)) TO \(quoteIdentifier(attribute.name))", [])
            renamed[attribute.name] = from
        }
        for attribute in new.attributes {
            let column = quoteIdentifier(attribute.name)
            guard let previous = old.attribute(named: renamed[attribute.name] ?? attribute.name) else {
                if !attribute.isOptional, attribute.defaultValue == nil, rows > 0 {
                    throw StoreError.migrationRefused(
                        entity: new.name,
                        reason: "new attribute '\(attribute.name)' is required, so the \(rows) existing rows need a default")
                }
                try sql.run("ALTER TABLE \(table) ADD COLUMN \(column) \(tables.columnType(attribute.type))", [])
                if let value = attribute.defaultValue {
                    try sql.run("UPDATE \(table) SET \(column) = ?", [try attribute.type.coerce(value).get()])
                }
                try tables.createIndex(new.name, attribute)
                continue
            }
            if previous.type != attribute.type {
                throw StoreError.migrationRefused(
                    entity: new.name,
                    reason: "'\(attribute.name)' would change type from \(previous.type.rawValue) to \(attribute.type.rawValue)")
            }
            if previous.isOptional, !attribute.isOptional {
                let nulls = try sql.count("SELECT count(*) FROM \(table) WHERE \(column) IS NULL")
                if nulls > 0 {
                    guard let value = attribute.defaultValue else {
                        throw StoreError.migrationRefused(
                            entity: new.name,
                            reason: "'\(attribute.name)' would become required, but \(nulls) rows have nil and there is no default")
                    }
                    try sql.run("UPDATE \(table) SET \(column) = ? WHERE \(column) IS NULL", [try attribute.type.coerce(value).get()])
                }
            }
            // A renamed attribute's index went with its old name.
            if previous.isIndexed != attribute.isIndexed || previous.isUnique != attribute.isUnique || renamed[attribute.name] != nil {
                try tables.dropIndex(Self.indexName(new.name, attribute.name))
                try tables.createIndex(new.name, attribute)
            }
        }
        let oldKeys = Set(old.ownKeyColumns.map(\.name))
        let newKeys = Set(new.ownKeyColumns.map(\.name))
        for name in newKeys.subtracting(oldKeys).sorted() {
            if old.attribute(named: name) != nil {
                throw StoreError.migrationRefused(entity: new.name, reason: "'\(name)' would change from an attribute to a relationship")
            }
            try sql.run("ALTER TABLE \(table) ADD COLUMN \(quoteIdentifier(name)) \(tables.keyColumnType)", [])
            try tables.createForeignKeyIndex(new.name, name)
        }
        // An indexed column cannot be dropped in SQLite: its index goes first.
        for name in oldKeys.subtracting(newKeys).sorted() {
            try tables.dropIndex("quarry_fk_\(new.name)_\(name)")
            try sql.run("ALTER TABLE \(table) DROP COLUMN \(quoteIdentifier(name))", [])
        }
        let kept = Set(new.attributes.map { renamed[$0.name] ?? $0.name })
        for attribute in old.attributes where !kept.contains(attribute.name) {
            try tables.dropIndex(Self.indexName(new.name, attribute.name))
            try sql.run("ALTER TABLE \(table) DROP COLUMN \(quoteIdentifier(attribute.name))", [])
        }
    }

    /// The name of the index an attribute's `isIndexed` or `isUnique` asks for.
    package static func indexName(_ entity: String, _ attribute: String) -> String { "quarry_idx_\(entity)_\(attribute)" }

    package init(old: EntityDescription, new: EntityDescription) {
        self.old = old
        self.new = new
    }
}
