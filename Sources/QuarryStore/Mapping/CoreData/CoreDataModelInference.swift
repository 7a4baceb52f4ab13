import GRDB

/// A model for a Core Data store that carries none and was given none: entities from
/// `Z_PRIMARYKEY` (names and super-entities), attributes from their table's `Z` columns
/// (`ZPREPTIME` becomes `preptime`; types from the declared column types, `TIMESTAMP` a
/// date), and an integer column named after an entity a to-one relationship to it, with a
/// to-many inverse (ordered when a `Z_FOK_` column beside the key keeps its order). Names
/// come out lowercased: the store does not keep their case.
enum CoreDataModelInference {
    static func infer(_ db: Database, numbers: CoreDataNumbers) throws -> CoreDataModel {
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        // Core Data's own history entities (CHANGE, TRANSACTION, TRANSACTIONSTRING, from
        // 16001) are listed in Z_PRIMARYKEY but are no part of the app's model.
        let history: Set = [PersistentHistoryLayout.changeEntityName, PersistentHistoryLayout.transactionEntityName,
                            PersistentHistoryLayout.stringEntityName]
        let codes = numbers.codes.filter { !(history.contains($0.key) && $0.value > 16000) }
        let byUpper = Dictionary(codes.keys.map { ($0.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var entities: [String: CoreDataEntity] = [:]
        for name in codes.keys.sorted() {
            entities[name] = CoreDataEntity(name: name, parent: numbers.supers[name], attributes: [], relationships: [])
        }
        // Only roots own tables; their columns are shared by the whole hierarchy, so they
        // are given to the root.
        for name in codes.keys.sorted() where numbers.supers[name] == nil {
            let table = "Z" + name.uppercased()
            guard tables.contains(table) else { continue }
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoteIdentifier(table)))")
            let upperNames = Set(columns.compactMap { String.fromDatabaseValue($0[1] as DatabaseValue)?.uppercased() })
            for column in columns {
                let columnName: String = try column.stored(1, table: table, column: "name")
                let declared: String = (try column.storedIfPresent(2, table: table, column: "type")) ?? ""
                let upper = columnName.uppercased()
                guard upper.hasPrefix("Z"), !upper.hasPrefix("Z_"), upper.count > 1 else { continue }
                let key = String(upper.dropFirst())
                if let destination = byUpper[key], declared.uppercased().contains("INT") {
                    let inverse = name.lowercased() + "s"
                    entities[name]?.relationships.append(CoreDataRelationship(name: key.lowercased(), destination: destination, inverse: inverse))
                    // A `Z_FOK_` column beside the key keeps the order of an ordered to-many.
                    entities[destination]?.relationships.append(CoreDataRelationship(name: inverse, destination: name, inverse: key.lowercased(), isToMany: true,
                                                                                      isOrdered: upperNames.contains("Z_FOK_" + key)))
                    continue
                }
                entities[name]?.attributes.append(CoreDataAttribute(name: key.lowercased(), type: type(declared)))
            }
        }
        return CoreDataModel(entities: entities.values.sorted { $0.name < $1.name })
    }

    /// Core Data's declared column types, read back as attribute types.
    static func type(_ declared: String) -> CoreDataAttributeType {
        let t = declared.uppercased()
        if t.contains("TIMESTAMP") { return .date }
        if t.contains("INT") { return .integer64 }
        if t.contains("FLOAT") || t.contains("REAL") || t.contains("DOUBLE") { return .double }
        if t.contains("DECIMAL") { return .decimal }
        if t.contains("BLOB") { return .binary }
        return .string
    }
}
