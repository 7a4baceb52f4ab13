/// `updateall` and `deleteall` on the server: one statement each, in a `READ WRITE`
/// transaction, returning the keys it changed. The server carries out the foreign keys'
/// `ON DELETE` actions, as the model's delete rules say them (they were read from those
/// actions); the objects in use whose rows a cascade removed are found afterwards and
/// deleted too, so observers hear them.
extension PostgresStore {
    func writeBatchUpdate(_ entity: EntityDescription, where filter: BatchFilter?, set assignments: [(String, Value)],
                          context: ObjectContext) throws -> BatchUpdateWritten {
        let server = try self.server(context)
        let storage = context.mapped(entity)
        var sql = "UPDATE \(storage.table) SET " + assignments.map { "\(quoteIdentifier($0.0)) = ?" }.joined(separator: ", ")
        if let filter { sql += " WHERE " + filter.sql }
        sql += " RETURNING \(storage.key)"
        var written = BatchUpdateWritten(keys: [], byEntity: [:], assignments: assignments)
        try during("updateall") {
            try server.inWriteTransaction {
                let rows = try server.execute(PostgreSQLDialect.numbered(sql), assignments.map(\.1) + (filter?.arguments ?? [])).rows
                written.keys = rows.compactMap { $0.first?.storedInteger }.sorted()
                // The objects in use take the rows as the server keeps them (its types
                // round, its triggers change), so their next save meets no change of theirs.
                let held = Set(context.registeredKeysByEntity()[entity.name] ?? [])
                let kept = written.keys.filter(held.contains)
                try forEachChunk(kept) { chunk in
                    let query = "SELECT \(storage.selection(of: entity)) FROM \(storage.table) WHERE \(storage.key) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                    for row in try server.execute(PostgreSQLDialect.numbered(query), chunk.map(Value.integer)).rows {
                        guard let key = row.first?.storedInteger else { continue }
                        written.stored[key] = context.values(of: entity, row: row.map(\.databaseValue))
                    }
                }
            }
        }
        if !written.keys.isEmpty { written.byEntity = [entity.name: written.keys] }
        return written
    }

    func writeBatchDelete(_ entity: EntityDescription, where filter: BatchFilter?, context: ObjectContext) throws -> [String: [Int64]] {
        let server = try self.server(context)
        let storage = context.mapped(entity)
        var sql = "DELETE FROM \(storage.table)"
        if let filter { sql += " WHERE " + filter.sql }
        sql += " RETURNING \(storage.key)"
        var deleted: [String: [Int64]] = [:]
        try during("deleteall") { try server.inWriteTransaction {
            let keys = try server.execute(PostgreSQLDialect.numbered(sql), filter?.arguments ?? []).rows.compactMap { $0.first?.storedInteger }
            if !keys.isEmpty { deleted[entity.name] = keys.sorted() }
            // Rows of objects in use that a cascade reached, read while the transaction
            // still holds what it did.
            for name in cascaded(from: entity.name) {
                guard let target = managedObjectModel.entitiesByName[name], let held = context.registeredKeysByEntity()[name] else { continue }
                let targetStorage = context.mapped(target)
                var present: Set<Int64> = []
                try forEachChunk(held) { chunk in
                    let query = "SELECT \(targetStorage.key) FROM \(targetStorage.table) WHERE \(targetStorage.key) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                    for row in try server.execute(PostgreSQLDialect.numbered(query), chunk.map(Value.integer)).rows {
                        if let key = row.first?.storedInteger { present.insert(key) }
                    }
                }
                let gone = held.filter { !present.contains($0) }
                if !gone.isEmpty { deleted[name, default: []] += gone }
            }
        } }
        return deleted
    }

    /// The entities a delete of `entity`'s rows reaches through cascade rules, `entity`
    /// itself included when a relationship cascades back to it.
    private func cascaded(from entity: String) -> [String] {
        var reached: [String] = []
        var pending = [entity]
        while let name = pending.popLast() {
            for relationship in managedObjectModel.entitiesByName[name]?.relationships ?? [] where relationship.deleteRule == .cascade {
                guard !reached.contains(relationship.destination) else { continue }
                reached.append(relationship.destination)
                pending.append(relationship.destination)
            }
        }
        return reached
    }

    /// The server's refusal (a foreign key that restricts, a check) named by the operation.
    private func during<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StoreError { throw StoreError.during(operation: operation, error) }
    }

    func server(_ context: ObjectContext) throws -> PostgresConnection {
        guard let server = context.connection.postgres else { throw StoreConnection.notOnPostgres("writing") }
        return server
    }
}

extension PostgresConnection {
    /// `body` in a `READ WRITE` transaction (the session's default is read-only),
    /// committed when it returns, rolled back when it throws. The commit is announced to
    /// other sessions listening on the schema (`announce`).
    /// Inside another (an import that defines its entity), `body` runs in that one.
    func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
        if writeDepth > 0 {
            writeDepth += 1
            defer { writeDepth -= 1 }
            return try body()
        }
        try execute("BEGIN TRANSACTION READ WRITE")
        writeDepth = 1
        defer { writeDepth = 0 }
        do {
            let result = try body()
            if let schema = announcedSchema { try announce(schema) }
            try execute("COMMIT")
            return result
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }
}
