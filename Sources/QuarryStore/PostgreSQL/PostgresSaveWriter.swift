import GRDB

/// Writes a `SaveChangesRequest` into a PostgreSQL schema in one `READ WRITE` transaction,
/// as `SQLiteSaveWriter` writes a SQLite file: the rows this save changes are locked
/// (`SELECT ... FOR UPDATE`) and compared with what the objects were read with
/// (optimistic locking, settled by the merge policy), then inserts, updates and deletes.
/// Values go as Quarry's, typed for the server: a date as a timestamp, a boolean as one.
/// An insert leaves out nil attributes, which take the column's default, and generated
/// columns; every row written comes back (`RETURNING`) and the objects take what the
/// server made of it (its key, defaults, triggers' values), so their next save does not
/// meet the server's own changes as a conflict. Any error rolls everything back.
struct PostgresSaveWriter {
    let context: ObjectContext
    let server: PostgresConnection

    func write(_ request: SaveChangesRequest) throws -> SaveChangesResult {
        var result = SaveChangesResult(request: request)
        do {
            try server.inWriteTransaction {
                try settleConflicts(&result)
                try writeRows(&result)
            }
        } catch let overflow as PostgresNumericOverflow {
            // Said as the save's, as a value SQLite's writer cannot store is.
            throw StoreError.during(operation: "save", overflow.named(by: server))
        }
        return result
    }

    private func run(_ sql: String, _ values: [Value]) throws -> PostgresResult {
        try server.execute(PostgreSQLDialect.numbered(sql), values)
    }

    /// `run`, for a statement writing `columns` of `entity`'s row: a value past its
    /// column's precision is named (`PostgresNumericOverflow`).
    private func run(_ sql: String, _ values: [Value], writing columns: [String], of entity: EntityDescription) throws -> PostgresResult {
        do { return try run(sql, values) } catch {
            throw PostgresNumericOverflow.keeping(error, entity: entity.name, table: context.mapped(entity).table, columns: columns, values: values)
        }
    }

    private func writeRows(_ result: inout SaveChangesResult) throws {
        let request = result.request
        var keys = SaveChangesRequest.Keys()
        var laterLinks: [ManagedObject] = []
        var readBacks: [(ManagedObject, String, Value)] = []
        func key(_ object: ManagedObject?) -> Value { Value(keys.of(object)) }
        for object in request.inserts {
            let entity = context.currentEntity(of: object)
            let storage = context.mapped(entity)
            // A nil key takes the column's sequence, as SQLite gives a rowid.
            let attributes = entity.attributeNames.filter { !storage.generated.contains($0) && !context.insertedValue(object, $0, keys: keys).isNull }
            let toOne = entity.ownKeyColumns.map(\.name)
            var values = attributes.map { context.insertedValue(object, $0, keys: keys) }
            for name in toOne {
                let target = object.pendingToOne[name] ?? nil
                if let target, target.primaryKey == nil, keys.byObject[ObjectIdentifier(target)] == nil { laterLinks.append(object) }
                values.append(key(target))
            }
            let names = attributes + toOne
            let returning = " RETURNING \(storage.selection(of: entity))"
            let sql = names.isEmpty
                ? "INSERT INTO \(storage.table) DEFAULT VALUES" + returning
                : "INSERT INTO \(storage.table) (\(names.map(quoteIdentifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))" + returning
            let row = try run(sql, values, writing: names, of: entity).rows.first
            guard let newKey = row?.first?.storedInteger else {
                throw StoreError.database(message: "\(entity.name): the server returned no integer key for the new row")
            }
            readBacks += made(row, object, entity) { object.currentValue($0) }
            result.newKeys.append(newKey)
            keys.byObject[ObjectIdentifier(object)] = newKey
        }
        // Inserted objects pointing at objects inserted after them.
        for object in laterLinks {
            let own = Set(context.currentEntity(of: object).ownKeyColumns.map(\.name))
            let names = object.pendingToOne.keys.sorted().filter(own.contains)
            guard !names.isEmpty else { continue }
            try update(object, key: key(object), names, names.map { key(object.pendingToOne[$0] ?? nil) })
        }
        for object in request.updates {
            let changed = object.pending.keys.sorted()
            let ownKeys = Set(context.currentEntity(of: object).ownKeyColumns.map(\.name))
            let links = object.pendingToOne.keys.sorted().filter(ownKeys.contains)
            guard let primaryKey = object.primaryKey, !(changed.isEmpty && links.isEmpty) else { continue }
            let row = try update(object, key: .integer(primaryKey), changed + links,
                                 changed.map { object.pending[$0] ?? .null } + links.map { key(object.pendingToOne[$0] ?? nil) })
            readBacks += made(row, object, context.currentEntity(of: object)) { object.pending[$0] ?? object.committed[$0] ?? .null }
        }
        // A link kept in an attribute column (author_id) of an object whose target was
        // inserted in this save learns the target's new key.
        for link in request.attributeLinks(keys, context: context) {
            try update(link.object, key: key(link.object), [link.column], [.integer(link.key)])
        }
        // Many-to-many links (Quarry's own tables); a deleted row's go with it (ON DELETE CASCADE).
        for link in request.links {
            let sql = link.isAdd
                ? "INSERT INTO \(quoteIdentifier(link.table)) (source, target) VALUES (?, ?) ON CONFLICT DO NOTHING"
                : "DELETE FROM \(quoteIdentifier(link.table)) WHERE source = ? AND target = ?"
            _ = try run(sql, [key(link.source), key(link.target)])
        }
        for object in request.deletes {
            guard let primaryKey = object.primaryKey else { continue }
            let storage = context.mapped(object.entity)
            // Its links go first: another program's join table may refuse the row's delete
            // while they exist (NO ACTION), where Quarry's own cascade.
            for relationship in context.currentEntity(of: object).relationships {
                guard case .linkTable(let table, let sourceColumn, _)? = context.storage(of: relationship, in: object.entity.name) else { continue }
                _ = try run("DELETE FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) = ?", [.integer(primaryKey)])
            }
            let found = keyed?.keyCondition(of: object, storage) ?? (sql: "", values: [])
            _ = try run("DELETE FROM \(storage.table) WHERE \(storage.key) = ?\(found.sql)", [.integer(primaryKey)] + found.values)
        }
        result.readBacks = readBacks
    }

    /// The row as written, returned: its attributes' values.
    @discardableResult
    private func update(_ object: ManagedObject, key: Value, _ names: [String], _ values: [Value]) throws -> [Value]? {
        let entity = object.entity
        let storage = context.mapped(entity)
        let assignments = names.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: ", ")
        let found = keyed?.keyCondition(of: object, storage) ?? (sql: "", values: [])
        return try run("UPDATE \(storage.table) SET \(assignments) WHERE \(storage.key) = ?\(found.sql) RETURNING \(storage.selection(of: entity))",
                       values + [key] + found.values, writing: names, of: entity).rows.first
    }

    /// The store, for the keys of its tables keyed other than by one integer column.
    private var keyed: PostgresStore? { context.store as? PostgresStore }

    /// The attributes whose values the server made other than `sent` gave them (a
    /// default, a generated column, a trigger's change, a timestamp rounded to the
    /// microsecond), as the object will hold them.
    private func made(_ row: [Value]?, _ object: ManagedObject, _ entity: EntityDescription,
                      sent: (String) -> Value) -> [(ManagedObject, String, Value)] {
        guard let row else { return [] }
        let stored = context.values(of: entity, row: row.map(\.databaseValue))
        return entity.attributeNames.compactMap { name in
            guard let value = stored[name], !Value.sameStored(value, sent(name)) else { return nil }
            return (object, name, value)
        }
    }

    /// The rows this save updates or deletes, locked until it commits and compared with
    /// what the objects were read with.
    private func settleConflicts(_ result: inout SaveChangesResult) throws {
        var conflicts: [SaveConflict] = []
        for object in result.request.updates + result.request.deletes {
            guard let query = SaveConflict.storedRowQuery(of: object, context: context) else { continue }
            // A keyed table's row found by its key too, through the key's index (`keyCondition`).
            let found = keyed?.keyCondition(of: object, context.mapped(context.currentEntity(of: object))) ?? (sql: "", values: [])
            let row = try context.connection.row(query.sql + found.sql + " FOR UPDATE", arguments: [.integer(query.key)] + found.values)?.map(\.databaseValue)
            if let conflict = SaveConflict.of(object, storedRow: row, context: context) { conflicts.append(conflict) }
        }
        conflicts += try result.request.goneLinkEnds(context: context) { sql, key in try context.connection.row(sql + " FOR SHARE", arguments: [.integer(key)]) != nil }
        try result.settle(conflicts, context: context)
    }
}
