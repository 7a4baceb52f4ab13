import Foundation
import GRDB

/// The model lives in the database itself (table `quarry_model`), so reopening a file
/// restores every entity without a script.
extension ObjectContext {
    static let modelTable = "quarry_model"

    /// Reads the model: Quarry's own (`quarry_model`), a Core Data store's (its cache, else
    /// `modelPath`, else inferred), or a foreign file's tables and sidecar.
    func loadModel(modelPath: String?) throws {
        // One read: the stored model, and (when there is none) whether the file is a Core
        // Data store. Quarry never writes its model into a Core Data store.
        let (rows, isCoreData, hasSchema) = try read { db -> ([(String, String)], Bool, Bool) in
            let rows = try !db.hasTable(Self.modelTable) ? [] : Row.fetchAll(db, sql: "SELECT name, definition FROM \(Self.modelTable) ORDER BY rowid")
                .map { row -> (String, String) in
                    let name: String = try row.stored(0, table: Self.modelTable, column: "name")
                    // Another program's change to a row names the entity it belongs to.
                    do { return (name, try row.stored(1, table: Self.modelTable, column: "definition") as String) }
                    catch let error as StoreError { throw StoreError.during(operation: "the stored model of entity \(name)", error) }
                }
            return (rows, try rows.isEmpty && CoreDataStore.isCoreDataStore(db),
                    try rows.isEmpty && Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master)") == true)
        }
        for (name, definition) in rows {
            guard let entity = (try? StoredDefinition(text: definition))?.entity else {
                throw StoreError.database(message: "the stored model of entity \(name) is unreadable")
            }
            rememberDeclared(entity)
        }
        // A Core Data store is its model's entities; its Z-tables are not entities.
        if isCoreData {
            try loadCoreDataStore(modelPath: modelPath)
            return
        }
        // A file with a schema and no model of Quarry's is someone else's: what Quarry
        // keeps about it is in its sidecar (ForeignSidecar), never in the file.
        var foreign: ForeignFileStore?
        if hasSchema && !isCoreData, let path, path != ":memory:" {
            let opened = try ForeignFileStore(path: path)
            adopt(opened)
            try opened.loadEntities(into: self)
            foreign = opened
        }
        // Entities in a hierarchy are seen with their inherited and sub-entities' keys.
        if managedObjectModel.declaredByName.values.contains(where: { $0.parent != nil }) { rememberEffective(managedObjectModel.entityOrder) }
        try introspectForeignTables()
        foreign?.restoreRelations(in: self)
    }

    /// Adds an entity as stored (`quarry_model`, a sidecar), its declaration kept.
    func rememberDeclared(_ entity: EntityDescription) {
        remember(entity)
        managedObjectModel.declaredByName[entity.name] = entity
    }

    /// Adds or replaces `entity`, its rows kept where `storage` says (when nil, where the
    /// mapping already placed them, else in Quarry's own table).
    func remember(_ entity: EntityDescription, storage: EntityStorage? = nil) {
        let previous = managedObjectModel.entitiesByName[entity.name]
        if previous == nil { managedObjectModel.entityOrder.append(entity.name) }
        managedObjectModel.entitiesByName[entity.name] = entity
        if let storage { mapping.place(entity.name, storage) }
        if let previous, previous != entity { redescribeObjects(as: entity) }
    }

    /// `entity` was redefined (`define`, `relate`, a member of its hierarchy) while
    /// objects of it are in use: they take the new description (see `redescribe`), with
    /// the values of keys new to its layout (a migration's new column, a `relate`d
    /// to-one's key) read from the store. An object the store cannot give again keeps
    /// the values it was read with. Without this an object kept from before answered by
    /// the old description: no relationship `relate` had just added.
    private func redescribeObjects(as entity: EntityDescription) {
        var objects: [ManagedObject] = unsaved.inserted.filter { $0.entity.name == entity.name && $0.primaryKey == nil }
        for box in registrations(of: entity.name)?.values ?? [:].values {
            if let object = box.object, object.entity.name == entity.name { objects.append(object) }
        }
        guard !objects.isEmpty else { return }
        let keys = objects.compactMap { $0.isInserted ? nil : $0.primaryKey }
        let rows = (try? storedRows(of: entity, keys: keys)) ?? [:]
        for object in objects {
            object.redescribe(as: entity, stored: object.primaryKey.flatMap { rows[$0] }.map { values(of: entity, row: $0) })
        }
    }

    /// Creates the entity, or migrates the existing one in place to this definition, in
    /// one transaction. An attribute left out is dropped with its column, as a Core Data
    /// lightweight migration drops it; a type change, or a new required attribute that
    /// existing rows cannot fill, is refused, as is any change while changes are pending.
    @discardableResult
    public func define(_ definition: EntityDescription) throws -> EntityDescription {
        try store.refuseDefining(definition.name, whole: false)
        try validate(definition)
        // An existing empty file becomes Quarry's with its first entity: WAL from then on.
        if managedObjectModel.entitiesByName.isEmpty, !isReadOnly { try useWriteAheadLog() }
        // Inverses are kept in step: relationships other entities declare toward this one
        // come in, and this one's inverses are added to entities already defined.
        var kept = definition
        // Relationships made by relate() (through existing columns) survive a redefinition.
        for r in declaredEntity(definition.name)?.relationships ?? [] where r.column != nil && kept.relationship(named: r.name) == nil {
            kept.relationships.append(r)
        }
        let entity = withInversesDeclaredElsewhere(kept)
        let changes = try inverseChanges(for: entity)
        let existing = declaredEntity(entity.name)
        if existing != nil, mapped(entity).isView || mapped(entity).isForeign && entity.parent != nil {
            throw StoreError.viewIsReadOnly(entity: entity.name)
        }
        if existing == entity, changes.isEmpty { return entity }
        if isReadOnly { throw StoreError.readOnly(operation: "entity \(entity.name)") }
        if existing != nil || !changes.isEmpty, hasChanges {
            throw StoreError.migrationRefused(entity: entity.name, reason: "there are unsaved changes; save() or rollback() first")
        }
        // Inheritance: checked against the hierarchies as they are, before anything is written.
        // In a batch, entities outside any hierarchy and without constraints have nothing
        // to check, and building the map of every declaration for each would be quadratic.
        let alone = managedObjectModel.definitionIndex != nil && entity.uniqueness.isEmpty && ([entity] + changes).allSatisfy { e in
            e.parent == nil && declaredEntity(e.name)?.parent == nil && !hasSubentities(e.name)
        }
        if !alone {
            let declared = managedObjectModel.declaredMap
            if let problem = try hierarchyProblem(entity, declared: declared) {
                throw StoreError.invalidSchema(entity: entity.name, reason: problem)
            }
            if let problem = uniquenessProblem(entity, declared: declared) {
                throw StoreError.invalidSchema(entity: entity.name, reason: problem)
            }
            for changed in changes {
                if let problem = try hierarchyProblem(changed, declared: declared.merging([(entity.name, entity)]) { $1 }) {
                    throw StoreError.invalidSchema(entity: changed.name, reason: problem)
                }
            }
        }
        let hierarchical = ([entity] + changes).contains { e in
            e.parent != nil || isInHierarchy(e.name) || declaredEntity(e.name)?.parent != nil
        }
        var touched: [String] = []
        do {
            try database.write { db in
                if hierarchical {
                    touched = try writeDeclarations([entity] + changes, in: db)
                } else {
                    try write(entity, replacing: existing, in: db)
                    for changed in changes { try write(changed, replacing: declaredEntity(changed.name), in: db) }
                    // A new entity without constraints has no unique index to make or drop
                    // (and the look-up scans the whole schema).
                    if existing != nil || !entity.uniqueness.isEmpty {
                        try syncUniqueness(table: entity.name, members: [(entity, nil)], in: db)
                    }
                }
                // Link tables once both ends are known.
                for e in [entity] + changes { try createLinkTables(e, in: db, defining: entity) }
            }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
        didDefine(entity)
        for changed in changes { didDefine(changed) }
        if hierarchical { rememberEffective(touched) }
        return managedObjectModel.entitiesByName[entity.name] ?? entity
    }

    private func withInversesDeclaredElsewhere(_ entity: EntityDescription) -> EntityDescription {
        var result = entity
        // In a batch, only the entities that relate to this one (in definition order, as
        // `declaredEntities` gives them), not all of them.
        let others = managedObjectModel.definitionIndex.map { index in
            let related = index.entities(relatedTo: entity.name)
            return index.inOrder(related).compactMap { declaredEntity($0) }
        } ?? declaredEntities
        for other in others where other.name != entity.name {
            for r in other.relationships where r.destination == entity.name {
                guard let inverse = r.inverse, result.relationship(named: inverse) == nil else { continue }
                result.relationships.append(RelationshipDescription(name: inverse, destination: other.name, inverse: r.name, isToMany: true))
            }
        }
        // A relationship to itself names its inverse on the same entity.
        for r in entity.relationships where r.destination == entity.name {
            if let inverse = r.inverse, result.relationship(named: inverse) == nil {
                result.relationships.append(RelationshipDescription(name: inverse, destination: entity.name, inverse: r.name, isToMany: true))
            }
        }
        return result
    }

    /// Other entities that gain an inverse of one of `entity`'s relationships.
    private func inverseChanges(for entity: EntityDescription) throws -> [EntityDescription] {
        var changed: [String: EntityDescription] = [:]
        for r in entity.relationships {
            guard r.destination != entity.name, let destination = changed[r.destination] ?? declaredEntity(r.destination) else { continue }
            guard let inverseName = r.inverse else { continue }
            if let inverse = destination.relationship(named: inverseName) {
                if inverse.destination != entity.name {
                    throw StoreError.invalidSchema(entity: entity.name,
                        reason: "the inverse of '\(r.name)' is \(destination.name).\(inverseName), which leads to \(inverse.destination), not \(entity.name)")
                }
                if let back = inverse.inverse, back != r.name {
                    throw StoreError.invalidSchema(entity: entity.name,
                        reason: "\(destination.name).\(inverseName) names '\(back)' as its inverse, not '\(r.name)'")
                }
                if inverse.inverse == nil {
                    var updated = destination
                    updated.relationships = updated.relationships.map { $0.name == inverseName ? RelationshipDescription(
                        name: $0.name, destination: $0.destination, inverse: r.name, isToMany: $0.isToMany, deleteRule: $0.deleteRule) : $0 }
                    changed[destination.name] = updated
                }
                continue
            }
            if destination.attribute(named: inverseName) != nil {
                throw StoreError.invalidSchema(entity: entity.name, reason: "the inverse '\(inverseName)' is an attribute of \(destination.name)")
            }
            var updated = destination
            updated.relationships.append(RelationshipDescription(name: inverseName, destination: entity.name, inverse: r.name, isToMany: true))
            changed[destination.name] = updated
        }
        return changed.values.sorted { $0.name < $1.name }
    }

    /// How a relationship's links are stored, or nil while its destination is undefined.
    public func storage(of relationship: RelationshipDescription, in entity: String) -> RelationshipStorage? {
        guard let destination = managedObjectModel.entitiesByName[relationship.destination] ?? (relationship.destination == entity ? managedObjectModel.entitiesByName[entity] : nil) else { return nil }
        if !relationship.isToMany { return .foreignKey(column: relationship.keyColumn, targetKey: relationship.targetKey) }
        let inverse = relationship.inverse.flatMap { destination.relationship(named: $0) }
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

    private func createLinkTables(_ entity: EntityDescription, in db: Database, defining: EntityDescription) throws {
        // The entity being defined is not yet remembered; resolve against it directly.
        let saved = managedObjectModel.entitiesByName[defining.name]
        managedObjectModel.entitiesByName[defining.name] = defining
        defer { managedObjectModel.entitiesByName[defining.name] = saved }
        for r in entity.relationships where r.isToMany {
            guard case .linkTable(let table, _, _)? = storage(of: r, in: entity.name) else { continue }
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(table)) (source INTEGER NOT NULL, target INTEGER NOT NULL, PRIMARY KEY (source, target)) WITHOUT ROWID")
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(table + "_target")) ON \(quoteIdentifier(table)) (target, source)")
        }
    }

    /// Creates or migrates the entity's table and stores its definition, inside the
    /// caller's transaction; `didDefine` must follow once that transaction commits.
    func write(_ entity: EntityDescription, replacing existing: EntityDescription?, in db: Database) throws {
        try validate(entity)
        let definition = try StoredDefinition.text(entity)
        try store.prepareDeclarations(in: db)
        if let existing {
            try migrate(existing, to: entity, in: db)
        } else {
            if try db.hasTable(entity.name) {
                throw StoreError.invalidSchema(entity: entity.name, reason: "a table of that name already exists")
            }
            try createTable(entity, in: db)
        }
        try store.keepDeclaration(entity.name, definition: definition, in: db, context: self)
    }

    func didDefine(_ entity: EntityDescription) {
        managedObjectModel.definitionIndex?.replace(declaredEntity(entity.name), with: entity)
        if !mapped(entity).isForeign { managedObjectModel.declaredByName[entity.name] = entity }
        remember(entity)
        bumpGeneration()
    }

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

    func createTable(_ entity: EntityDescription, in db: Database) throws {
        let columns = ["\(mapped(entity).key) INTEGER PRIMARY KEY AUTOINCREMENT"]
            + entity.attributes.map { "\(quoteIdentifier($0.name)) \($0.type.sqlType)" }
            + entity.ownKeyColumns.map { "\(quoteIdentifier($0.name)) INTEGER" }
        try db.execute(sql: "CREATE TABLE \(mapped(entity).table) (\(columns.joined(separator: ", ")))")
        for attribute in entity.attributes { try createIndex(entity.name, attribute, in: db) }
        for r in entity.ownKeyColumns { try createForeignKeyIndex(entity.name, r.name, in: db) }
    }

    private func indexName(_ entity: String, _ attribute: String) -> String {
        quoteIdentifier("quarry_idx_\(entity)_\(attribute)")
    }

    /// To-one keys are indexed: inverse sets and delete rules look rows up by them.
    private func createForeignKeyIndex(_ entity: String, _ column: String, in db: Database) throws {
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quoteIdentifier("quarry_fk_\(entity)_\(column)")) ON \(quoteIdentifier(entity)) (\(quoteIdentifier(column)))")
    }

    private func createIndex(_ entity: String, _ attribute: AttributeDescription, in db: Database) throws {
        guard attribute.isIndexed || attribute.isUnique else { return }
        let unique = attribute.isUnique ? "UNIQUE " : ""
        try db.execute(sql: "CREATE \(unique)INDEX \(indexName(entity, attribute.name)) ON \(quoteIdentifier(entity)) (\(quoteIdentifier(attribute.name)))")
    }

    func migrate(_ old: EntityDescription, to new: EntityDescription, in db: Database) throws {
        let table = quoteIdentifier(new.name)
        let rowCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        // Renames first, so the checks below see each column under its new name.
        var renamed: Set<String> = []
        for attribute in new.attributes {
            guard let from = attribute.renamedFrom, from != attribute.name, old.attribute(named: attribute.name) == nil,
                  old.attribute(named: from) != nil else { continue }
            if new.attribute(named: from) != nil || new.relationship(named: from) != nil {
                throw StoreError.migrationRefused(entity: new.name,
                    reason: "'\(attribute.name)' is renamed from '\(from)', but '\(from)' is still defined; remove it or drop renamedFrom")
            }
            try db.execute(sql: "DROP INDEX IF EXISTS \(indexName(new.name, from))")
            try db.execute(sql: "ALTER TABLE \(table) RENAME COLUMN \(quoteIdentifier(from)) TO \(quoteIdentifier(attribute.name))")
            renamed.insert(from)
        }
        func previous(_ attribute: AttributeDescription) -> AttributeDescription? {
            if let same = old.attribute(named: attribute.name) { return same }
            guard let from = attribute.renamedFrom, renamed.contains(from), var moved = old.attribute(named: from) else { return nil }
            // Its index went with the old name; the checks below make it again.
            moved.isIndexed = false; moved.isUnique = false
            return moved
        }
        for attribute in new.attributes {
            guard let previous = previous(attribute) else {
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
        for r in new.ownKeyColumns where old.relationship(named: r.name).map({ !$0.isToMany && $0.column == nil }) != true {
            if old.attribute(named: r.name) != nil {
                throw StoreError.migrationRefused(entity: new.name, reason: "'\(r.name)' would change from an attribute to a relationship")
            }
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(quoteIdentifier(r.name)) INTEGER")
            try createForeignKeyIndex(new.name, r.name, in: db)
        }
        for r in old.ownKeyColumns where new.relationship(named: r.name).map({ !$0.isToMany && $0.column == nil }) != true {
            try db.execute(sql: "DROP INDEX IF EXISTS \(quoteIdentifier("quarry_fk_\(new.name)_\(r.name)"))")
            try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(quoteIdentifier(r.name))")
        }
        for attribute in old.attributes where new.attribute(named: attribute.name) == nil && !renamed.contains(attribute.name) {
            try db.execute(sql: "DROP INDEX IF EXISTS \(indexName(new.name, attribute.name))")
            try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(quoteIdentifier(attribute.name))")
        }
    }
}
