import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Quarry's hierarchies in a SQLite file: names taken and keys inserted.
extension SQLiteStore {
    /// A new table or view may not take the name of something already in the file.
    package func refuseTaken(_ name: String, in db: Database) throws {
        let taken = "SELECT 1 FROM %@ WHERE name = ? COLLATE NOCASE AND type IN ('table', 'view')"
        if try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (\(taken.replacingOccurrences(of: "%@", with: "main.sqlite_master")) UNION ALL "
                + "\(taken.replacingOccurrences(of: "%@", with: "temp.sqlite_master")))", arguments: [name, name]) == true
        {
            throw StoreError.invalidSchema(entity: name, reason: "a table or view of that name already exists")
        }
    }

    /// The key of the row an INSERT just made. Through a view's trigger SQLite's
    /// last_insert_rowid is restored when the trigger ends, so a sub-entity's key is read
    /// from its root's table (keys only grow: AUTOINCREMENT).
    package func insertedKey(of entity: EntityDescription, in db: Database, session: StoreSession) throws -> Int64 {
        if entity.parent != nil {
            let root = managedObjectModel.root(of: entity.name)
            let statement = try db.cachedStatement(sql: "SELECT max(\(mapping.storage(of: entity).key)) FROM \(quoteIdentifier(root))")
            if let key = try Int64.fetchOne(statement) { return key }
        }
        return db.lastInsertedRowID
    }
}

/// Quarry's uniqueness constraints in a SQLite file: its `quarry_unique_` indexes made
/// to match the declarations.
extension SQLiteStore {
    /// Makes the unique indexes of `members` (declared; all stored in `table`) what their
    /// constraints say, dropping those no constraint asks for any more. `tags` gives each
    /// hierarchy member's `_entity` values; nil for an entity alone in its table.
    package func syncUniqueness(table: String, members: [(entity: EntityDescription, tags: [String]?)], in db: Database) throws {
        var wanted: [String: String] = [:]
        for (entity, tags) in members {
            for constraint in entity.uniqueness {
                let name = "quarry_unique_\(entity.name)_" + constraint.joined(separator: "_")
                let condition =
                    tags.map { " WHERE \(quoteIdentifier(EntityStorage.entityColumn)) IN (\($0.map(quoteLiteral).joined(separator: ", ")))" } ?? ""
                wanted[name] =
                    "CREATE UNIQUE INDEX \(quoteIdentifier(name)) ON \(quoteIdentifier(table)) (\(constraint.map(quoteIdentifier).joined(separator: ", ")))\(condition)"
            }
        }
        let existing = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'quarry\\_unique\\_%' ESCAPE '\\'",
            arguments: [table])
        var have: [String: String] = [:]
        for row in existing { have[row["name"]] = row["sql"] }
        for (name, sql) in have where wanted[name] != sql { try db.execute(sql: "DROP INDEX \(quoteIdentifier(name))") }
        for (name, sql) in wanted.sorted(by: { $0.key < $1.key }) where have[name] != sql { try db.execute(sql: sql) }
    }
}
