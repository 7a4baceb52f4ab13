import QuarryEngine
import QuarryModel

/// Entity inheritance, as Core Data has it: a sub-entity's rows live in its root's table,
/// told apart by a column naming each row's entity (`_entity`); fetching an entity
/// includes its sub-entities' rows. The same rules serve Core Data stores (whose column
/// is `Z_ENT`, read through views as `_entity`) and Quarry's own files.
extension ObjectContext {
    /// An entity as declared: its own attributes and relationships, with its parent.
    public func declaredEntity(_ name: String) -> EntityDescription? { managedObjectModel.declaredEntity(name) }

    /// Every entity as declared, in definition order (what export and Swift write).
    public var declaredEntities: [EntityDescription] { managedObjectModel.declaredEntities }

    /// The top of `name`'s hierarchy (itself when it has no parent).
    public func rootName(of name: String) -> String { managedObjectModel.root(of: name) }

    /// Whether `name` is `ancestor` or one of its sub-entities at any depth.
    public func isKind(_ name: String, of ancestor: String) -> Bool { managedObjectModel.isKind(name, of: ancestor) }

    /// The entities that inherit from `name`, at every depth, in definition order.
    public func descendants(of name: String) -> [EntityDescription] { managedObjectModel.subentities(of: name) }

    /// Asked whenever an object is made: no array of entities is built for it.
    func hasSubentities(_ name: String) -> Bool { managedObjectModel.hasSubentities(name) }

    /// Whether `name` has a parent or sub-entities.
    public func isInHierarchy(_ name: String) -> Bool { managedObjectModel.isInHierarchy(name) }

    /// The value of the entity column that marks `name`'s own rows.
    func entityTag(of name: String) -> Value { mapping.storage(of: name).entityTag(of: name) }

    /// The entity a stored row is (nil when the row is gone or names no known entity).
    /// Asked for every row of a parent's results: one cached statement, outside the
    /// savepoint `read` makes (whose `PRAGMA query_only` expires every prepared statement).
    func rowEntity(of entity: EntityDescription, primaryKey: Int64) throws -> EntityDescription? {
        try storedEntityTag(of: entity, primaryKey: primaryKey).flatMap { ownEntity(of: entity, tag: $0) }
    }

    /// The entity column of a stored row of `entity`'s hierarchy, as read (nil when the
    /// row is gone).
    func storedEntityTag(of entity: EntityDescription, primaryKey: Int64) throws -> Value? {
        let sql = "SELECT \(quoteIdentifier(EntityStorage.entityColumn)) FROM \(mapped(entity).table) WHERE \(mapped(entity).key) = ?"
        return try connection.row(sql, arguments: [.integer(primaryKey)], cached: true)?.first
    }

    /// Which of `entity` and its sub-entities a row whose entity column holds `tag` (as
    /// read, `StoreRow.value(at:)`) is; nil when the tag names none of them. Tags compare as
    /// stored values do (`Value.storedEqual`: a tag read as 1.0 is 1).
    public func ownEntity(of entity: EntityDescription, tag: Value) -> EntityDescription? {
        ([entity] + descendants(of: entity.name)).first { Value.storedEqual(entityTag(of: $0.name), tag) }
    }

    /// The entity each of these stored rows of `entity`'s hierarchy is, by key (rows gone
    /// or naming no known entity left out): a row another program deletes can no longer be
    /// read, so observers keep this to tell it as what it was. Many keys are read in one
    /// pass over the table, a few by key.
    public func ownEntityNames(of entity: EntityDescription, keys: [Int64]) throws -> [Int64: String] {
        guard !keys.isEmpty else { return [:] }
        let storage = mapped(entity)
        let select = "SELECT \(storage.key), \(quoteIdentifier(EntityStorage.entityColumn)) FROM \(storage.table)"
        var names = OwnEntityNames(self, entity)
        var found: [Int64: String] = [:]
        func take(_ row: StoreRow) {
            guard let key = row.value(at: 0).storedInteger, let name = names.name(of: row.value(at: 1)) else { return }
            found[key] = name
        }
        if keys.count > 2_000 {
            let wanted = Set(keys)
            try connection.forEachRow(select) { row in
                if let key = row.value(at: 0).storedInteger, wanted.contains(key) { take(row) }
            }
        } else {
            try forEachChunk(keys) { chunk in
                let sql = select + " WHERE \(storage.key) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                try connection.forEachRow(sql, arguments: chunk.map(Value.integer)) { take($0) }
            }
        }
        return found
    }

    /// `found` (rows by the entity they were reached as) by the entity each row is, read in
    /// a batch change's transaction, so that a change made through a parent names a
    /// sub-entity's rows as that sub-entity's (whose observers listen by its name): rows
    /// of an entity with sub-entities are told apart by the entity column; rows naming no
    /// known entity stay where they were found.
    package func keysByOwnEntity(_ found: [String: Set<Int64>], in statements: some WriteStatements) throws -> [String: [Int64]] {
        var grouped: [String: Set<Int64>] = [:]
        for (name, keys) in found where !keys.isEmpty {
            guard hasSubentities(name), let entity = managedObjectModel.entitiesByName[name] else {
                grouped[name, default: []].formUnion(keys)
                continue
            }
            let storage = mapped(entity)
            var placed: Set<Int64> = []
            try forEachChunk(keys.sorted()) { chunk in
                let query =
                    "SELECT \(storage.key), \(quoteIdentifier(EntityStorage.entityColumn)) FROM \(storage.table) WHERE \(storage.key) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                for row in try statements.rows(query, chunk.map(Value.integer)) {
                    guard let key = row.first?.storedInteger, row.count > 1 else { continue }
                    let own = ownEntity(of: entity, tag: row[1])?.name ?? name
                    grouped[own, default: []].insert(key)
                    placed.insert(key)
                }
            }
            grouped[name, default: []].formUnion(keys.subtracting(placed))
        }
        return grouped.filter { !$0.value.isEmpty }.mapValues { $0.sorted() }
    }

    /// A parent's row (as `selectionSQL` reads it) as the row of its sub-entity `own`: a
    /// parent's columns include every sub-entity's, so no second query is needed. Nil when
    /// a column is missing (the caller then reads the row through `own`'s view).
    func values(_ values: [Value], of parent: EntityDescription, as own: EntityDescription) -> [Value]? {
        let parentToOne = parent.toOneRelationships.map(\.name)
        guard values.count == 1 + parent.attributes.count + parentToOne.count else { return nil }
        var result = [values[0]]
        for name in own.attributeNames {
            guard let i = parent.rowColumn(of: name) else { return nil }
            result.append(values[i])
        }
        for r in own.toOneRelationships {
            guard let j = parentToOne.firstIndex(of: r.name) else { return nil }
            result.append(values[1 + parent.attributes.count + j])
        }
        return result
    }

    /// The SQL condition that keeps only `entity`'s own rows, leaving out its sub-entities'
    /// (`subentities = false`); nil when it has none.
    public func ownRowsCondition(of entity: EntityDescription, qualifier: String) -> (sql: String, argument: Value)? {
        guard hasSubentities(entity.name) else { return nil }
        return ("\(qualifier).\(quoteIdentifier(EntityStorage.entityColumn)) = ?", entityTag(of: entity.name))
    }
}

/// Which of an entity and its sub-entities each tag read from the entity column names,
/// worked out once per distinct tag (a hierarchy has a few; a table may have many rows).
package struct OwnEntityNames {
    private let context: ObjectContext
    private let entity: EntityDescription
    private var known: [(tag: Value, name: String?)] = []

    package init(_ context: ObjectContext, _ entity: EntityDescription) {
        self.context = context
        self.entity = entity
    }

    package mutating func name(of tag: Value) -> String? {
        if let hit = known.first(where: { Value.storedEqual($0.tag, tag) }) { return hit.name }
        let name = context.ownEntity(of: entity, tag: tag)?.name
        // Bounded: a column of garbage tags is worked out row by row past this.
        if known.count < 64 { known.append((tag, name)) }
        return name
    }
}
