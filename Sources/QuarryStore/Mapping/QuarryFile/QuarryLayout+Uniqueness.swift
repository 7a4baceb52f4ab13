import GRDB

/// Uniqueness constraints (`uniqueness = { {"a"}, {"b", "c"} }`, Core Data's
/// `uniquenessConstraints`) are unique indexes on the table that holds the entity's rows;
/// a hierarchy member's index covers only its rows (a partial index on `_entity`), so a
/// sub-entity's constraint on an inherited attribute does not bind its parent's rows.
extension PersistentStore {
    /// Why a constraint of `entity` cannot be made: it names a key the entity does not have.
    func uniquenessProblem(_ entity: EntityDescription, declared: [String: EntityDescription]) -> String? {
        if entity.uniqueness.isEmpty { return nil }
        var declared = declared
        declared[entity.name] = entity
        let keys = Set((ManagedObjectModel.ancestors(of: entity.name, in: declared) + [entity]).flatMap { $0.attributeNames + $0.toOneRelationships.map(\.name) })
        for constraint in entity.uniqueness {
            if constraint.isEmpty { return "a uniqueness constraint names no attribute" }
            if let unknown = constraint.first(where: { !keys.contains($0) }) {
                return "the uniqueness constraint (\(constraint.joined(separator: ", "))) names '\(unknown)', which is not an attribute of \(entity.name)"
            }
        }
        return nil
    }
}

extension SQLiteStore {
    /// Makes the unique indexes of `members` (declared; all stored in `table`) what their
    /// constraints say, dropping those no constraint asks for any more. `tags` gives each
    /// hierarchy member's `_entity` values; nil for an entity alone in its table.
    func syncUniqueness(table: String, members: [(entity: EntityDescription, tags: [String]?)], in db: Database) throws {
        var wanted: [String: String] = [:]
        for (entity, tags) in members {
            for constraint in entity.uniqueness {
                let name = "quarry_unique_\(entity.name)_" + constraint.joined(separator: "_")
                let condition = tags.map { " WHERE \(quoteIdentifier(EntityStorage.entityColumn)) IN (\($0.map(Self.literal).joined(separator: ", ")))" } ?? ""
                wanted[name] = "CREATE UNIQUE INDEX \(quoteIdentifier(name)) ON \(quoteIdentifier(table)) (\(constraint.map(quoteIdentifier).joined(separator: ", ")))\(condition)"
            }
        }
        let existing = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'quarry\\_unique\\_%' ESCAPE '\\'", arguments: [table])
        var have: [String: String] = [:]
        for row in existing { have[row["name"]] = row["sql"] }
        for (name, sql) in have where wanted[name] != sql { try db.execute(sql: "DROP INDEX \(quoteIdentifier(name))") }
        for (name, sql) in wanted.sorted(by: { $0.key < $1.key }) where have[name] != sql { try db.execute(sql: sql) }
    }
}
