import QuarryModel
import QuarryStore

/// `updateall` and `deleteall` on the server (`BatchChangeWriter`, with
/// `PostgresBatchChanges`): one statement each, in a `READ WRITE` transaction, returning
/// the keys it changed. The server carries out the foreign keys'
/// `ON DELETE` actions, as the model's delete rules say them (they were read from those
/// actions, or made from the rules); the rows a cascade removes are found first, so the
/// objects in use are deleted too and observers hear every row.
extension PostgresStore {
    package func batchChanges(session: StoreSession) throws -> any BatchChangeStatements {
        PostgresBatchChanges(store: self, session: session, server: try server(session))
    }

    /// The rows a delete of `entity`'s rows `keys` takes along through cascade rules, by
    /// entity, `keys` included, in the order they were reached: followed row by row, as
    /// SQLite's delete follows the rules. The server's `ON DELETE CASCADE` takes the
    /// members whose rows hold the key; a to-one relationship whose key this row holds,
    /// and a many-to-many one, the server does not follow (it deletes links, not their
    /// ends): those rows the delete names itself (`writeBatchDelete`).
    fileprivate func cascadedRows(
        of entity: String, keys: [Int64], session: StoreSession,
        server: PostgresConnection
    ) throws -> (found: [String: Set<Int64>], order: [(String, [Int64])]) {
        var found: [String: Set<Int64>] = [entity: Set(keys)]
        var order: [(String, [Int64])] = []
        var pending: [(String, [Int64])] = [(entity, keys)]
        while !pending.isEmpty {
            let (name, fresh) = pending.removeFirst()
            guard let owner = managedObjectModel.entitiesByName[name] else { continue }
            let ownerStorage = session.mapped(owner)
            for relationship in owner.relationships where relationship.deleteRule == .cascade {
                guard let relationshipStorage = storage(of: relationship, in: name),
                    let members = managedObjectModel.entitiesByName[relationship.destination]
                else { continue }
                let membersStorage = session.mapped(members)
                let reached = try relatedKeys(relationshipStorage, from: ownerStorage, to: membersStorage, of: fresh, server: server)
                let new = reached.subtracting(found[members.name] ?? [])
                guard !new.isEmpty else { continue }
                found[members.name, default: []].formUnion(new)
                let sorted = new.sorted()
                pending.append((members.name, sorted))
                order.append((members.name, sorted))
            }
        }
        return (found, order)
    }

    /// The keys of the rows `keys` (of the owner) reach through a relationship, whatever
    /// holds the link: the member's row, the owner's, or a link table.
    private func relatedKeys(
        _ relationship: RelationshipStorage, from ownerStorage: EntityStorage, to membersStorage: EntityStorage,
        of keys: [Int64], server: PostgresConnection
    ) throws -> Set<Int64> {
        var reached: Set<Int64> = []
        try forEachChunk(keys) { chunk in
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let query: String
            switch relationship {
            case .inverseForeignKey(_, let column, let ownerKey, _):
                // A key kept in another column of the owner (a foreign key to `carrier`).
                let owners =
                    ownerKey.map { "SELECT \(quoteIdentifier($0)) FROM \(ownerStorage.table) WHERE \(ownerStorage.key) IN (\(marks))" } ?? marks
                query = "SELECT \(membersStorage.key) FROM \(membersStorage.table) WHERE \(quoteIdentifier(column)) IN (\(owners))"
            case .foreignKey(let column, let targetKey):
                let match = targetKey.map(membersStorage.column) ?? membersStorage.key
                query =
                    "SELECT \(membersStorage.key) FROM \(membersStorage.table) WHERE \(match) IN "
                    + "(SELECT \(quoteIdentifier(column)) FROM \(ownerStorage.table) WHERE \(ownerStorage.key) IN (\(marks)))"
            case .inverseCompositeKey(_, let columns, let ownerKeys, _):
                // A key of several columns: the members whose columns hold an owner's values.
                query =
                    "SELECT \(membersStorage.key) FROM \(membersStorage.table) WHERE (\(columns.map(quoteIdentifier).joined(separator: ", "))) IN "
                    + "(SELECT \(ownerKeys.map(quoteIdentifier).joined(separator: ", ")) FROM \(ownerStorage.table) WHERE \(ownerStorage.key) IN (\(marks)))"
            case .compositeKey(let columns, let targetKeys):
                query =
                    "SELECT \(membersStorage.key) FROM \(membersStorage.table) WHERE (\(targetKeys.map(quoteIdentifier).joined(separator: ", "))) IN "
                    + "(SELECT \(columns.map(quoteIdentifier).joined(separator: ", ")) FROM \(ownerStorage.table) WHERE \(ownerStorage.key) IN (\(marks)))"
            case .linkTable(let table, let sourceColumn, let targetColumn):
                query = "SELECT \(targetColumn) FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) IN (\(marks))"
            }
            for row in try server.execute(PostgreSQLDialect.numbered(query), chunk.map(Value.integer)).rows {
                if let key = row.first?.storedInteger { reached.insert(key) }
            }
        }
        return reached
    }

    /// A deny rule the rows about to go meet, refused in SQLite's words before anything is
    /// deleted: the server's foreign keys would let a link table's rows go with them (their
    /// `ON DELETE CASCADE`), and say a key's refusal in words of their own.
    fileprivate func refuseDenied(_ order: [(String, [Int64])], session: StoreSession, server: PostgresConnection) throws {
        for (name, keys) in order {
            guard let owner = managedObjectModel.entitiesByName[name] else { continue }
            for relationship in owner.relationships where relationship.deleteRule == .deny {
                guard let relationshipStorage = storage(of: relationship, in: name),
                    let members = managedObjectModel.entitiesByName[relationship.destination]
                else { continue }
                let related = try relatedKeys(relationshipStorage, from: session.mapped(owner), to: session.mapped(members), of: keys, server: server)
                guard !related.isEmpty else { continue }
                let names = related.sorted().prefix(5).map { "\(members.name)/\($0)" }.joined(separator: ", ")
                // A table Quarry did not make has the rule from its foreign key, as a file's has.
                var note = ""
                if !declared.contains(name), case .inverseForeignKey(let child, let column, _, _) = relationshipStorage {
                    note = " (the schema's foreign key \(child).\(column) is ON DELETE NO ACTION or RESTRICT)"
                }
                throw StoreError.validation(message: "deleteall: '\(relationship.name)' denies deleting \(name) rows while they hold \(names)" + note)
            }
        }
    }

    /// The server's refusal (a foreign key that restricts, a check) named by the operation.
    /// A predicate that needs Quarry's SQL functions is said as what it needs.
    /// A trigger's refusal names the trigger (`PostgresStore+TriggerRefusals`).
    fileprivate func during<T>(_ operation: String, server: PostgresConnection, _ body: () throws -> T) throws -> T {
        do { return try body() } catch StoreError.engine(let failure as PostgresFailure) {
            let (state, sql) = (failure.sqlState, failure.sql)
            let message = failure.said + (triggerNote(failure.routine, server: server) ?? "")
            let explained = PostgresConnection.explained(StoreError.postgres(sqlState: state, sql: sql, message: message), sql: sql)
            throw StoreError.during(operation: operation, explained as? StoreError ?? .postgres(sqlState: state, sql: sql, message: message))
        } catch let error as StoreError {
            // A refusal of Quarry's own names the operation already, as SQLite's does.
            if case .validation = error { throw error }
            if case .during(let named, _) = error, named == operation { throw error }
            throw StoreError.during(operation: operation, error)
        }
    }

    package func server(_ session: StoreSession) throws -> PostgresConnection {
        guard let engine = session.connection.engine as? PostgresEngine else { throw StoreConnection.needsEngine("PostgreSQL", for: "writing") }
        return engine.server
    }
}

/// `updateall` and `deleteall` in a PostgreSQL schema (`BatchChangeWriter`), in a
/// `READ WRITE` transaction each.
private struct PostgresBatchChanges: BatchChangeStatements {
    package let store: PostgresStore
    package let session: StoreSession
    package let server: PostgresConnection

    package func transaction<T>(_ operation: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try store.during(operation, server: server) { try server.inWriteTransaction { try body(server) } }
    }

    /// The rows the delete takes along are found first, locked so they stay what is found.
    package var lockingClause: String { " FOR UPDATE" }

    /// One statement, returning the keys it changed.
    package func update(
        _ entity: EntityDescription, where filter: BatchFilter?, set assignments: [(String, Value)],
        in server: PostgresConnection
    ) throws -> (keys: [Int64], assignments: [(String, Value)]) {
        let storage = session.mapped(entity)
        var sql =
            "UPDATE \(storage.table) SET "
            + assignments.map { "\(quoteIdentifier($0.0)) = \(PostgresSaveStatements.placeholder($0.0, storage))" }.joined(separator: ", ")
        if let filter { sql += " WHERE " + filter.sql }
        sql += " RETURNING \(storage.key)"
        // A date set on a number column of times goes as the column's number.
        let values = try assignments.map { try PostgresNumberTimes.written($0.1, $0.0, of: entity, session: session, operation: "updateall") }
        let rows = try server.execute(PostgreSQLDialect.numbered(sql), values + (filter?.arguments ?? [])).rows
        let keys = rows.compactMap { $0.first?.storedInteger }.sorted()
        try refuseDatesRoundedPastYear9999(entity, keys: keys, set: assignments, in: server)
        return (keys, assignments)
    }

    /// The rows as the server kept them, read before the commit when a date sent may have
    /// rounded into the year 10000 (`DatesPastYear9999`), as a save reads its rows.
    private func refuseDatesRoundedPastYear9999(
        _ entity: EntityDescription, keys: [Int64], set assignments: [(String, Value)], in server: PostgresConnection
    ) throws {
        guard DatesPastYear9999.mayRound(assignments.map(\.1)) else { return }
        let sent = Dictionary(assignments, uniquingKeysWith: { $1 })
        let storage = session.mapped(entity)
        try forEachChunk(keys) { chunk in
            let query = storage.rowsByKeyIndex(storage.selection(of: entity), count: chunk.count)
            for row in try server.execute(PostgreSQLDialect.numbered(query), chunk.map(Value.integer)).rows {
                try DatesPastYear9999.refuse(session.values(of: entity, row: row), entity, operation: "updateall") { sent[$0] ?? .null }
            }
        }
    }

    /// The objects in use take the rows as the server keeps them (its types round, its
    /// triggers change), so their next save meets no change of theirs; each as its own
    /// entity (a SportCar updated as a Car has its own columns).
    package func didUpdate(_ written: inout BatchUpdateWritten, of entity: EntityDescription, in server: PostgresConnection) throws {
        let registered = session.registeredKeysByEntity()
        for (name, keys) in written.byEntity.sorted(by: { $0.key < $1.key }) {
            guard let own = store.managedObjectModel.entitiesByName[name] else { continue }
            let ownStorage = session.mapped(own)
            let held = Set(registered[name] ?? [])
            try forEachChunk(keys.filter(held.contains)) { chunk in
                let query = ownStorage.rowsByKeyIndex(ownStorage.selection(of: own), count: chunk.count)
                for row in try server.execute(PostgreSQLDialect.numbered(query), chunk.map(Value.integer)).rows {
                    guard let key = row.first?.storedInteger else { continue }
                    written.stored[key] = session.values(of: own, row: row)
                }
            }
        }
    }

    /// One statement, the server carrying out the foreign keys' actions; what its cascade
    /// will take found first, and a deny refused before anything goes.
    package func delete(_ entity: EntityDescription, keys chosen: [Int64], where filter: BatchFilter?, in server: PostgresConnection) throws
        -> [String: [Int64]]
    {
        let storage = session.mapped(entity)
        let condition = filter.map { " WHERE " + $0.sql } ?? ""
        let (found, order) = try store.cascadedRows(of: entity.name, keys: chosen, session: session, server: server)
        try store.refuseDenied([(entity.name, chosen)] + order, session: session, server: server)
        // Named by their own entity while the rows are there (a SportCar deleted as a
        // Car is heard as a SportCar), as a Quarry file's delete names them.
        var deleted = try session.keysByOwnEntity(found, in: server)
        let keys = try server.execute(
            PostgreSQLDialect.numbered("DELETE FROM \(storage.table)\(condition) RETURNING \(storage.key)"),
            filter?.arguments ?? []
        ).rows.compactMap { $0.first?.storedInteger }
        // What the server's cascade did not take: ends of to-one and many-to-many
        // cascades, in the order they were reached (a row the server took already is
        // no longer there to delete).
        for (name, reached) in order {
            guard let member = store.managedObjectModel.entitiesByName[name] else { continue }
            let memberStorage = session.mapped(member)
            try forEachChunk(reached) { chunk in
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                try server.execute(
                    PostgreSQLDialect.numbered("DELETE FROM \(memberStorage.table) WHERE \(memberStorage.key) IN (\(marks))"),
                    chunk.map(Value.integer))
            }
        }
        let named = Set(deleted.values.joined())
        deleted[entity.name, default: []] += keys.filter { !named.contains($0) }
        return deleted.filter { !$0.value.isEmpty }.mapValues { $0.sorted() }
    }
}

extension PostgresConnection {
    /// `body` in a `READ WRITE` transaction (the session's default is read-only),
    /// committed when it returns, rolled back when it throws. The commit is announced to
    /// other sessions listening on the schema (`announce`).
    /// Inside another (an import that defines its entity), `body` runs in that one.
    package func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
        if writeDepth > 0 {
            writeDepth += 1
            defer { writeDepth -= 1 }
            return try body()
        }
        lostBeforeCommit = false
        do { try execute("BEGIN TRANSACTION READ WRITE") } catch {
            lostBeforeCommit = isLost
            throw error
        }
        writeDepth = 1
        transactionDepth += 1
        defer {
            writeDepth = 0
            transactionDepth -= 1
        }
        var committing = false
        do {
            let result = try body()
            if let schema = announcedSchema { try announce(schema) }
            committing = true
            try execute("COMMIT")
            return result
        } catch {
            // A connection lost before COMMIT was sent ends the transaction on the server
            // with nothing written; lost at COMMIT, the commit may have happened or not.
            if isLost {
                lostBeforeCommit = !committing
                if committing {
                    throw StoreError.postgres(
                        sqlState: nil, sql: "COMMIT",
                        message: "the connection to the server was lost at COMMIT: whether this write "
                            + "was committed is not known; refresh() and look before writing it again")
                }
                throw error
            }
            _ = try? execute("ROLLBACK")
            throw error
        }
    }
}
