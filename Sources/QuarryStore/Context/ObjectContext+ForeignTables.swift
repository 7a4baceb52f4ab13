import GRDB

/// Any SQLite file opens: tables Quarry did not create become entities (columns by their
/// declared affinity, `INTEGER PRIMARY KEY` or rowid as identity), and their foreign keys
/// become to-one relationships with an inverse to-many. Nothing is written to the file.
extension ObjectContext {
    func introspectForeignTables() throws {
        let tables = try read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'quarry\\_%' ESCAPE '\\' ORDER BY name")
        }
        var found: [EntityDescription] = []
        for table in tables where entitiesByName[table] == nil {
            if let entity = try foreignEntity(table) { found.append(entity) }
        }
        for entity in found { remember(entity) }
        for entity in found { try addForeignKeys(of: entity.name) }
        let views = try read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view' AND name NOT LIKE 'quarry\\_%' ESCAPE '\\' ORDER BY name")
        }
        for view in views where entitiesByName[view] == nil {
            if let entity = try viewEntity(view) { remember(entity) }
        }
    }

    /// A view becomes a read-only entity when it has a column to identify its rows: an
    /// integer one named `id`, `rowid` or `_pk`, else its first column when that is an
    /// integer (a view has no rowid of its own). Other views are left out.
    private func viewEntity(_ view: String) throws -> EntityDescription? {
        // A view that no longer compiles (a table it reads was dropped) is left out too.
        guard let columns = try? read({ db in try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoteIdentifier(view)))") }), !columns.isEmpty else { return nil }
        let names: [String] = columns.map { $0["name"] }
        let types: [AttributeType] = columns.map { Self.attributeType(declared: $0["type"] ?? "") }
        let identity = names.indices.first { ["id", "rowid", "_pk"].contains(names[$0].lowercased()) && types[$0] == .int64 }
            ?? (types.first == .int64 ? 0 : nil)
        guard let key = identity else { return nil }
        let attributes = names.indices.map { AttributeDescription(name: names[$0], type: types[$0], isOptional: true) }
        var entity = EntityDescription(name: view, attributes: attributes, primaryKey: names[key])
        entity.isForeign = true
        entity.isView = true
        return entity
    }

    private func foreignEntity(_ table: String) throws -> EntityDescription? {
        let columns = try read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoteIdentifier(table)))") }
        let keyColumns = columns.filter { ($0["pk"] as Int? ?? 0) > 0 }
        var primaryKey = "rowid"
        var keyMayHoldOthers = false
        if keyColumns.count == 1, let type: String = keyColumns[0]["type"], type.uppercased() == "INTEGER" {
            primaryKey = keyColumns[0]["name"]
            // Without a rowid the column is no alias of one, and takes text as well.
            keyMayHoldOthers = (try? read { db in try db.execute(sql: "SELECT rowid FROM \(quoteIdentifier(table)) LIMIT 0") }) == nil
        } else {
            // A column named rowid hides the rowid under that name; SQLite knows two more.
            let names = Set(columns.map { (($0["name"] as String?) ?? "").lowercased() })
            guard let alias = ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) }) else { return nil }
            primaryKey = alias
            // A WITHOUT ROWID table has no stable integer identity to give its objects.
            let hasRowid = (try? read { db in try db.execute(sql: "SELECT \(alias) FROM \(quoteIdentifier(table)) LIMIT 0") }) != nil
            guard hasRowid else { return nil }
        }
        let attributes = columns.map { column -> AttributeDescription in
            let name: String = column["name"]
            let declared: String = column["type"] ?? ""
            let notNull = (column["notnull"] as Int? ?? 0) == 1
            let hasDefault = !(column["dflt_value"] as DatabaseValue).isNull
            return AttributeDescription(name: name, type: Self.attributeType(declared: declared),
                                        isOptional: !notNull || hasDefault || name == primaryKey)
        }
        var entity = EntityDescription(name: table, attributes: attributes, primaryKey: primaryKey)
        entity.isForeign = true
        entity.keyMayHoldOthers = keyMayHoldOthers
        return entity
    }

    /// SQLite's affinity rules, read as Quarry's types.
    static func attributeType(declared: String) -> AttributeType {
        let type = declared.uppercased()
        if type.contains("INT") { return .int64 }
        if type.contains("BOOL") { return .bool }
        if type.contains("DATE") || type.contains("TIME") { return .date }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .string }
        if type.contains("BLOB") { return .binary }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") || type.contains("NUM") || type.contains("DEC") { return .double }
        return .string
    }

    private func addForeignKeys(of table: String) throws {
        let keys = try read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(quoteIdentifier(table)))") }
        let single = Dictionary(grouping: keys, by: { $0["id"] as Int }).values.filter { $0.count == 1 }.map { $0[0] }
        for key in single.sorted(by: { ($0["from"] as String) < ($1["from"] as String) }) {
            let parent: String = key["table"]
            let column: String = key["from"]
            guard let destination = entitiesByName[parent] else { continue }
            let to: String? = key["to"]
            let targetKey = (to == nil || to == destination.primaryKey) ? nil : to
            try link(table, column: column, to: parent, targetKey: targetKey, name: nil, persist: false)
        }
    }

    /// `relate("Flight", "carrier", "Airline", "carrier")`: a to-one relationship from
    /// `source` through its column to the `destination` rows whose `destinationColumn`
    /// matches, with its inverse to-many (`Airline.flight_set`). Kept in the model of a
    /// store Quarry manages; in memory only for a file it did not create.
    @discardableResult
    public func relate(_ source: String, _ sourceColumn: String, _ destinationName: String, _ destinationColumn: String,
                       name: String? = nil, inverse: String? = nil) throws -> RelationshipDescription {
        let from = try entity(named: source), to = try entity(named: destinationName)
        guard from.attribute(named: sourceColumn) != nil || sourceColumn == from.primaryKey else { throw from.unknownKey(sourceColumn) }
        guard to.attribute(named: destinationColumn) != nil || destinationColumn == to.primaryKey else { throw to.unknownKey(destinationColumn) }
        let targetKey = destinationColumn == to.primaryKey ? nil : destinationColumn
        return try link(source, column: sourceColumn, to: destinationName, targetKey: targetKey, name: name,
                        inverse: inverse, persist: !from.isForeign && !to.isForeign)
    }

    private func link(_ source: String, column: String, to destinationName: String, targetKey: String?, name: String?,
                      inverse givenInverse: String? = nil, persist: Bool) throws -> RelationshipDescription {
        var from = try entity(named: source)
        var to = try entity(named: destinationName)
        func free(_ candidate: String, in entity: EntityDescription) -> Bool {
            !entity.keyNames.contains(candidate) && candidate != entity.primaryKey
        }
        // The names, as the contract says: the column minus a trailing `_id`, else the
        // destination's name; for a foreign key of a file (which must open whatever its
        // names), else the first followed by `_rel`. The inverse: `<source>_set`, else
        // `<source>_<relationship>_set`; then `_` until free.
        let base = column.hasSuffix("_id") && column.count > 3 ? String(column.dropLast(3)) : column
        var relationshipName = name ?? base
        if name == nil, !free(relationshipName, in: from) { relationshipName = destinationName.prefix(1).lowercased() + destinationName.dropFirst() }
        if name == nil, !persist, !free(relationshipName, in: from) {
            relationshipName = base + "_rel"
            while !free(relationshipName, in: from) { relationshipName += "_" }
        }
        guard free(relationshipName, in: from) else {
            throw StoreError.invalidSchema(entity: source, reason: "'\(relationshipName)' is taken; pass a name as the fifth argument")
        }
        var inverseName = givenInverse ?? source.lowercased() + "_set"
        if let givenInverse {
            // A name the user gave is used as given, or refused.
            guard free(givenInverse, in: to), !(source == destinationName && givenInverse == relationshipName) else {
                throw StoreError.invalidSchema(entity: destinationName, reason: "'\(givenInverse)' is taken; pass another inverse name as the sixth argument")
            }
        } else {
            if !free(inverseName, in: to) || (source == destinationName && inverseName == relationshipName) {
                inverseName = source.lowercased() + "_" + relationshipName + "_set"
            }
            while !free(inverseName, in: to) || (source == destinationName && inverseName == relationshipName) { inverseName += "_" }
        }
        let relationship = RelationshipDescription(name: relationshipName, destination: destinationName, inverse: inverseName,
                                                   isToMany: false, column: column, targetKey: targetKey)
        from.relationships.append(relationship)
        if source == destinationName { to = from }
        to.relationships.append(RelationshipDescription(name: inverseName, destination: source, inverse: relationshipName, isToMany: true))
        if source == destinationName { from = to }
        if persist {
            if isReadOnly { throw StoreError.readOnly(operation: "relate") }
            do {
                try database.write { db in
                    try write(from, replacing: entitiesByName[source], in: db)
                    if source != destinationName { try write(to, replacing: entitiesByName[destinationName], in: db) }
                    // Inverse sets look rows up by the column.
                    try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quoteIdentifier("quarry_rel_\(source)_\(column)")) ON \(quoteIdentifier(source)) (\(quoteIdentifier(column)))")
                    // Key paths (`airline.name`) join the destination by the matched column;
                    // its index serves the join and the check for an earlier row with the
                    // same value (a table's key needs none). Only in Quarry's own stores: a
                    // file Quarry did not create keeps its bytes, and SQLite builds a
                    // transient index there when a join needs one.
                    if let targetKey, !to.isView {
                        try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quoteIdentifier("quarry_rel_\(destinationName)_\(targetKey)")) ON \(quoteIdentifier(destinationName)) (\(quoteIdentifier(targetKey)))")
                    }
                }
            } catch let error as DatabaseError { throw StoreError(error) }
        }
        remember(from)
        if source != destinationName { remember(to) }
        bumpGeneration()
        return relationship
    }
}
