import Foundation
import GRDB

/// The model lives in the database itself (table `quarry_model`), so reopening a file
/// restores every entity without a script.
extension ObjectContext {
    static let modelTable = "quarry_model"

    func loadModel() throws {
        let rows: [(String, String)] = try read { db in
            guard try db.tableExists(Self.modelTable) else { return [] }
            return try Row.fetchAll(db, sql: "SELECT name, definition FROM \(Self.modelTable) ORDER BY rowid")
                .map { ($0[0], $0[1]) }
        }
        for (name, definition) in rows {
            guard let entity = try? JSONDecoder().decode(EntityDescription.self, from: Data(definition.utf8)) else {
                throw StoreError.database(message: "the stored model of entity \(name) is unreadable")
            }
            remember(entity)
        }
    }

    private func remember(_ entity: EntityDescription) {
        if entitiesByName[entity.name] == nil { entityOrder.append(entity.name) }
        entitiesByName[entity.name] = entity
    }

    /// Creates the entity, or migrates the existing one in place to this definition, in
    /// one transaction. An attribute left out is dropped with its column, as a Core Data
    /// lightweight migration drops it; a type change, or a new required attribute that
    /// existing rows cannot fill, is refused, as is any change while changes are pending.
    @discardableResult
    public func define(_ entity: EntityDescription) throws -> EntityDescription {
        try validate(entity)
        let existing = entitiesByName[entity.name]
        if existing == entity { return entity }
        if isReadOnly { throw StoreError.readOnly(operation: "entity \(entity.name)") }
        if existing != nil, hasChanges {
            throw StoreError.migrationRefused(entity: entity.name, reason: "there are unsaved changes; save() or rollback() first")
        }
        do {
            try database.write { db in try write(entity, replacing: existing, in: db) }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
        didDefine(entity)
        return entity
    }

    /// Creates or migrates the entity's table and stores its definition, inside the
    /// caller's transaction; `didDefine` must follow once that transaction commits.
    func write(_ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database) throws {
        try validate(entity)
        let definition = String(decoding: try JSONEncoder().encode(entity), as: UTF8.self)
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.modelTable) (name TEXT PRIMARY KEY, definition TEXT NOT NULL)")
        if let existing {
            try migrate(existing, to: entity, in: db)
        } else {
            if try db.tableExists(entity.name) {
                throw StoreError.invalidSchema(entity: entity.name, reason: "a table of that name already exists")
            }
            try createTable(entity, in: db)
        }
        try db.execute(sql: "INSERT OR REPLACE INTO \(Self.modelTable) (name, definition) VALUES (?, ?)",
                       arguments: [entity.name, definition])
    }

    func didDefine(_ entity: EntityDescription) {
        remember(entity)
        bumpGeneration()
    }

    private func validate(_ entity: EntityDescription) throws {
        guard !entity.name.isEmpty, !entity.name.hasPrefix("quarry_"), !entity.name.hasPrefix("sqlite_") else {
            throw StoreError.invalidSchema(entity: entity.name, reason: "the name is reserved or empty")
        }
        var seen: Set<String> = []
        for name in entity.keyNames where !seen.insert(name.lowercased()).inserted {
            // SQLite's column names ignore case.
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(name)' differs from another key only in case")
        }
        for attribute in entity.attributes {
            if attribute.name.lowercased() == entity.primaryKey.lowercased() || attribute.name.isEmpty {
                throw StoreError.invalidSchema(entity: entity.name, reason: "'\(attribute.name)' cannot be an attribute name")
            }
            if let value = attribute.defaultValue, case .failure = attribute.type.coerce(value) {
                throw StoreError.invalidSchema(entity: entity.name,
                    reason: "the default of '\(attribute.name)' is not a \(attribute.type.rawValue)")
            }
        }
    }

    private func createTable(_ entity: EntityDescription, in db: Database) throws {
        let columns = ["\(quoteIdentifier(entity.primaryKey)) INTEGER PRIMARY KEY AUTOINCREMENT"]
            + entity.attributes.map { "\(quoteIdentifier($0.name)) \($0.type.sqlType)" }
        try db.execute(sql: "CREATE TABLE \(quoteIdentifier(entity.name)) (\(columns.joined(separator: ", ")))")
        for attribute in entity.attributes { try createIndex(entity.name, attribute, in: db) }
    }

    private func indexName(_ entity: String, _ attribute: String) -> String {
        quoteIdentifier("quarry_idx_\(entity)_\(attribute)")
    }

    private func createIndex(_ entity: String, _ attribute: AttributeDescription, in db: Database) throws {
        guard attribute.isIndexed || attribute.isUnique else { return }
        let unique = attribute.isUnique ? "UNIQUE " : ""
        try db.execute(sql: "CREATE \(unique)INDEX \(indexName(entity, attribute.name)) ON \(quoteIdentifier(entity)) (\(quoteIdentifier(attribute.name)))")
    }

    private func migrate(_ old: EntityDescription, to new: EntityDescription, in db: Database) throws {
        let table = quoteIdentifier(new.name)
        let rowCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        for attribute in new.attributes {
            guard let previous = old.attribute(named: attribute.name) else {
                if !attribute.isOptional, attribute.defaultValue == nil, rowCount > 0 {
                    throw StoreError.migrationRefused(entity: new.name,
                        reason: "new attribute '\(attribute.name)' is required, so the \(rowCount) existing rows need a default")
                }
                let fill = attribute.defaultValue.map { _ in " DEFAULT NULL" } ?? ""
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(quoteIdentifier(attribute.name)) \(attribute.type.sqlType)\(fill)")
                if let value = attribute.defaultValue {
                    try db.execute(sql: "UPDATE \(table) SET \(quoteIdentifier(attribute.name)) = ?",
                                   arguments: [attribute.type.coerce(value).get().databaseValue])
                }
                try createIndex(new.name, attribute, in: db)
                continue
            }
            if previous.type != attribute.type {
                throw StoreError.migrationRefused(entity: new.name,
                    reason: "'\(attribute.name)' would change type from \(previous.type.rawValue) to \(attribute.type.rawValue)")
            }
            if previous.isOptional, !attribute.isOptional {
                let nulls = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(quoteIdentifier(attribute.name)) IS NULL") ?? 0
                if nulls > 0 {
                    guard let value = attribute.defaultValue else {
                        throw StoreError.migrationRefused(entity: new.name,
                            reason: "'\(attribute.name)' would become required, but \(nulls) rows have nil and there is no default")
                    }
                    try db.execute(sql: "UPDATE \(table) SET \(quoteIdentifier(attribute.name)) = ? WHERE \(quoteIdentifier(attribute.name)) IS NULL",
                                   arguments: [attribute.type.coerce(value).get().databaseValue])
                }
            }
            if (previous.isIndexed || previous.isUnique) != (attribute.isIndexed || attribute.isUnique) || previous.isUnique != attribute.isUnique {
                try db.execute(sql: "DROP INDEX IF EXISTS \(indexName(new.name, attribute.name))")
                try createIndex(new.name, attribute, in: db)
            }
        }
        for attribute in old.attributes where new.attribute(named: attribute.name) == nil {
            try db.execute(sql: "DROP INDEX IF EXISTS \(indexName(new.name, attribute.name))")
            try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(quoteIdentifier(attribute.name))")
        }
    }
}
