import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// `updateall` and `deleteall` in a SQLite store (`BatchChangeWriter`), in one GRDB
/// transaction each: each value in its column's format, 500 keys at a time, the delete
/// rules followed by Quarry as SQLite follows its foreign keys' (`deleteRows`), and the
/// store's history.
struct SQLiteBatchWriter<Store: SQLiteStore>: BatchChangeStatements {
    let session: StoreSession
    let store: Store

    /// SQLite's errors said as the store's, after the operation (`updateall: ...`), as a
    /// save's are and PostgreSQL's batch changes' (a trigger's RAISE said no operation).
    package func transaction<T>(_ operation: String, _ body: (SQLiteWriteStatements) throws -> T) throws -> T {
        do {
            // Made again from the start where the file declares a key SQLite cannot check.
            return try session.connection.database.writeUncheckingKeysSQLiteCannotCheck { db, _ in try body(SQLiteWriteStatements(db: db)) }
        } catch let error as DatabaseError {
            throw StoreError.during(operation: operation, TriggerFunctions.named(StoreError(error), session: session))
        }
    }

    // No `lockingClause`: the write transaction holds the file.

    /// The keys the filter matches, then one UPDATE per 500, each value in its column's
    /// format (objects take the values as they read back).
    package func update(
        _ entity: EntityDescription, where filter: BatchFilter?, set given: [(String, Value)],
        in statements: SQLiteWriteStatements
    ) throws -> (keys: [Int64], assignments: [(String, Value)]) {
        let db = statements.db
        // Written to the file's table (a table without a rowid is read through a view).
        let table = session.mapped(entity).writtenTable
        let key = session.mapped(entity).writtenKey
        let keys = try statements.keys(of: session.mapped(entity), where: filter)
        guard !keys.isEmpty else { return (keys, given) }
        let set = given.map { "\(quoteIdentifier($0.0)) = ?" }.joined(separator: ", ")
        // In a file Quarry did not create, each value in its column's format; objects
        // take the values as they read back.
        var formats = ColumnFormats()
        let values: [DatabaseValue]
        do { values = try given.map { try formats.stored($0.1, entity, $0.0, in: db, session: session) } } catch let error as StoreError {
            throw StoreError.during(operation: "updateall", error)
        }
        let assignments = zip(given, values).map {
            ($0.0, $0.1.databaseValue == $1 ? $0.1 : ColumnFormats.readBack($1, entity, $0.0, session: session))
        }
        try forEachChunk(keys) { chunk in
            var arguments = SQLiteArguments()
            for (stored, value) in zip(values, given) { arguments.append(stored, for: value.1) }
            arguments.append(contentsOf: chunk.map(Value.integer))
            try db.makeStatement(sql: "UPDATE \(table) SET \(set) WHERE \(key) IN (\(marks(chunk.count)))").execute(arguments)
        }
        return (keys, assignments)
    }

    package func didUpdate(_ written: inout BatchUpdateWritten, of entity: EntityDescription, in statements: SQLiteWriteStatements) throws {
        try store.recordBatchChange(
            BatchChange(updated: written.byEntity, updatedKeys: Set(written.assignments.map(\.0))), in: statements.db, session: session)
    }

    /// The rows and what their delete rules reach (`deleteRows`), and the store's history.
    package func delete(_ entity: EntityDescription, keys: [Int64], where filter: BatchFilter?, in statements: SQLiteWriteStatements) throws
        -> [String: [Int64]]
    {
        var batch = BatchChange()
        try deleteRows(entity, keys, in: statements.db, batch: &batch)
        try store.recordBatchChange(batch, in: statements.db, session: session)
        return batch.deleted
    }

    /// Deletes the rows and what their delete rules reach, as SQLite deletes them with
    /// foreign keys on: the rules act in the file's order (`ObjectContext.deleteRules`),
    /// a cascade taking its rows, and what their rules reach, before the next rule acts,
    /// so a RESTRICT key checked after a cascade that took its rows no longer holds them.
    /// A deny checked at the statement's end (NO ACTION, a deferred key, every deny of a
    /// Quarry or Core Data store, as Core Data checks it against what the save leaves)
    /// is checked once everything went. An explicit stack, not recursion: a cascade may
    /// run thousands of rows deep.
    private func deleteRows(_ entity: EntityDescription, _ keys: [Int64], in db: Database, batch: inout BatchChange) throws {
        // SQLite's own keys are checked at the commit, as one DELETE checks them at its end.
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        var atTheEnd: [(entity: EntityDescription, relationship: RelationshipDescription, storage: RelationshipStorage, keys: [Int64])] = []
        var childrenAtTheEnd: [(entity: EntityDescription, relationship: RelationshipDescription, storage: RelationshipStorage, children: [Int64])] =
            []
        var stack: [DeleteFrame] = []
        if let frame = try begin(entity, keys, in: db, batch: &batch) { stack.append(frame) }
        while let top = stack.last {
            guard top.next < top.rules.count else {
                stack.removeLast()
                try forEachChunk(top.keys) { chunk in
                    try db.execute(
                        sql:
                            "DELETE FROM \(session.mapped(top.entity).writtenTable) WHERE \(session.mapped(top.entity).writtenKey) IN (\(marks(chunk.count)))",
                        arguments: StatementArguments(chunk))
                }
                continue
            }
            stack[stack.count - 1].next += 1
            let (relationship, check) = top.rules[top.next]
            guard let storage = session.storage(of: relationship, in: top.entity.name),
                let destination = session.managedObjectModel.entitiesByName[relationship.destination]
            else { continue }
            let related = try relatedKeys(storage, from: top.entity, to: destination, of: top.keys, in: db)
            switch relationship.deleteRule {
            case .deny where !related.isEmpty:
                guard check != .restrict else { throw denial(relationship, of: top.entity, holding: related, destination) }
                switch storage {
                case .inverseForeignKey(_, _, nil, _):
                    atTheEnd.append((top.entity, relationship, storage, top.keys))
                case .inverseCompositeKey:
                    // Its parents' columns cannot be read once they went: the children
                    // holding them now are checked at the end, as SQLite checks them
                    // (another rule's cascade may take them, or clear one of the columns).
                    childrenAtTheEnd.append((top.entity, relationship, storage, related))
                default:
                    throw denial(relationship, of: top.entity, holding: related, destination)
                }
            case .cascade:
                if !related.isEmpty, let frame = try begin(destination, related, in: db, batch: &batch) { stack.append(frame) }
            case .nullify:
                if case .inverseCompositeKey(_, let columns, _, _) = storage, !related.isEmpty {
                    // Found before the parents go: their children's columns, all NULL.
                    let cleared = columns.map { "\(quoteIdentifier($0)) = NULL" }.joined(separator: ", ")
                    try forEachChunk(related) { chunk in
                        try db.execute(
                            sql:
                                "UPDATE \(session.mapped(destination).writtenTable) SET \(cleared) WHERE \(session.mapped(destination).writtenKey) IN (\(marks(chunk.count)))",
                            arguments: StatementArguments(chunk))
                    }
                }
                if case .inverseForeignKey(_, let column, nil, _) = storage {
                    try forEachChunk(top.keys) { chunk in
                        try db.execute(
                            sql:
                                "UPDATE \(session.mapped(destination).writtenTable) SET \(quoteIdentifier(column)) = NULL WHERE \(quoteIdentifier(column)) IN (\(marks(chunk.count)))",
                            arguments: StatementArguments(chunk))
                    }
                }
            case .setdefault:
                if case .inverseForeignKey(_, let column, let ownerKey, _) = storage, !related.isEmpty {
                    // As SQLite does: the children's column takes its default, which must
                    // name a parent row that stays.
                    let value = try ForeignKeyDefaults(session: session).columnDefault(column, of: destination, in: db)
                    let going = Set(top.keys + (batch.deleted[top.entity.name] ?? []))
                    try ForeignKeyDefaults(session: session).checkDefaultParent(
                        value, parent: top.entity, matchedBy: ownerKey, child: destination.name, column: column, doomed: going, in: db)
                    try forEachChunk(related) { chunk in
                        try db.execute(
                            sql:
                                "UPDATE \(session.mapped(destination).writtenTable) SET \(quoteIdentifier(column)) = ? WHERE \(session.mapped(destination).writtenKey) IN (\(marks(chunk.count)))",
                            arguments: StatementArguments([value.databaseValue] + chunk.map(\.databaseValue)))
                    }
                }
            default:
                break
            }
            if case .linkTable(let table, let sourceColumn, _) = storage {
                try forEachChunk(top.keys) { chunk in
                    try db.execute(
                        sql: "DELETE FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) IN (\(marks(chunk.count)))",
                        arguments: StatementArguments(chunk))
                }
            }
        }
        for end in atTheEnd {
            guard let destination = session.managedObjectModel.entitiesByName[end.relationship.destination] else { continue }
            let left = try relatedKeys(end.storage, from: end.entity, to: destination, of: end.keys, in: db)
            if !left.isEmpty { throw denial(end.relationship, of: end.entity, holding: left, destination) }
        }
        for end in childrenAtTheEnd {
            guard let destination = session.managedObjectModel.entitiesByName[end.relationship.destination],
                case .inverseCompositeKey(_, let columns, let ownerKeys, _) = end.storage
            else { continue }
            // Those still there whose columns, none NULL, name no parent left.
            let (owner, member) = (session.mapped(end.entity), session.mapped(destination))
            let on = RelationshipStorage.compositeCondition(parent: "quarry_o", targetKeys: ownerKeys, child: "quarry_m", columns: columns)
            let held = columns.map { "quarry_m.\(quoteIdentifier($0)) IS NOT NULL" }.joined(separator: " AND ")
            var left: [Int64] = []
            try forEachChunk(end.children) { chunk in
                left += try Int64.fetchAll(
                    db,
                    sql: "SELECT quarry_m.\(member.key) FROM \(member.table) AS quarry_m WHERE quarry_m.\(member.key) IN (\(marks(chunk.count))) "
                        + "AND \(held) AND NOT EXISTS (SELECT 1 FROM \(owner.table) AS quarry_o WHERE \(on))", arguments: StatementArguments(chunk))
            }
            if !left.isEmpty { throw denial(end.relationship, of: end.entity, holding: left.sorted(), destination) }
        }
    }

    /// Rows of `entity` going, and the order their rules act in; nil when every one has
    /// gone already in this change (a cycle of cascades). Their keys and what the store
    /// keeps of them are noted while the rows are there.
    private func begin(_ entity: EntityDescription, _ keys: [Int64], in db: Database, batch: inout BatchChange) throws -> DeleteFrame? {
        // A hierarchy's rows share one table and one run of keys, named by their own entity.
        let root = session.rootName(of: entity.name)
        let already = Set(batch.deleted.filter { session.rootName(of: $0.key) == root }.flatMap(\.value))
        let keys = keys.filter { !already.contains($0) }
        guard !keys.isEmpty else { return nil }
        for (own, ownKeys) in try session.keysByOwnEntity([entity.name: Set(keys)], in: SQLiteWriteStatements(db: db)).sorted(by: { $0.key < $1.key })
        {
            batch.deleted[own, default: []] += ownKeys
            // Read while the rows are there, before any rule changes them.
            let kept = try store.keptAfterDeletion(of: own, keys: ownKeys, in: db, session: session)
            batch.tombstones[own, default: [:]].merge(kept) { first, _ in first }
        }
        return DeleteFrame(entity: entity, keys: keys, rules: session.deleteRules(of: entity))
    }

    private func denial(
        _ relationship: RelationshipDescription, of entity: EntityDescription, holding related: [Int64], _ destination: EntityDescription
    ) -> StoreError {
        let names = related.prefix(5).map { "\(destination.name)/\($0)" }.joined(separator: ", ")
        return StoreError.validation(
            message: "deleteall: '\(relationship.name)' denies deleting \(entity.name) rows while they hold \(names)"
                + session.foreignKeyNote(relationship, of: entity.name))
    }

    private func relatedKeys(
        _ storage: RelationshipStorage, from source: EntityDescription, to destination: EntityDescription,
        of keys: [Int64], in db: Database
    ) throws -> [Int64] {
        var result: [Int64] = []
        try forEachChunk(keys) { chunk in
            let sql: String
            switch storage {
            case .inverseForeignKey(_, _, _?, _):
                return // matched by value (relate): the rules act through objects only
            case .inverseForeignKey(_, let column, nil, _):
                sql =
                    "SELECT \(session.mapped(destination).key) FROM \(session.mapped(destination).table) WHERE \(quoteIdentifier(column)) IN (\(marks(chunk.count)))"
            case .linkTable(let table, let sourceColumn, let targetColumn):
                sql = "SELECT \(targetColumn) FROM \(quoteIdentifier(table)) WHERE \(sourceColumn) IN (\(marks(chunk.count)))"
            case .foreignKey(_, _?):
                return
            case .inverseCompositeKey(_, let columns, let ownerKeys, _):
                // A key of several columns: the members whose columns hold an owner's values,
                // compared with the owner's columns' collations as SQLite's key compares
                // them (a row value's IN would take the members' own: NOCASE naming BINARY).
                let (owner, member) = (session.mapped(source), session.mapped(destination))
                let on = RelationshipStorage.compositeCondition(parent: "quarry_o", targetKeys: ownerKeys, child: "quarry_m", columns: columns)
                sql =
                    "SELECT quarry_m.\(member.key) FROM \(member.table) AS quarry_m WHERE EXISTS "
                    + "(SELECT 1 FROM \(owner.table) AS quarry_o WHERE quarry_o.\(owner.key) IN (\(marks(chunk.count))) AND \(on))"
            case .compositeKey(let columns, let targetKeys):
                sql =
                    "SELECT \(session.mapped(destination).key) FROM \(session.mapped(destination).table) WHERE (\(targetKeys.map(quoteIdentifier).joined(separator: ", "))) IN "
                    + "(SELECT \(columns.map(quoteIdentifier).joined(separator: ", ")) FROM \(session.mapped(source).table) WHERE \(session.mapped(source).key) IN (\(marks(chunk.count))))"
            case .foreignKey(let column, nil):
                sql =
                    "SELECT \(quoteIdentifier(column)) FROM \(session.mapped(source).table) WHERE \(session.mapped(source).key) IN (\(marks(chunk.count))) AND \(quoteIdentifier(column)) IS NOT NULL"
            }
            result += try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(chunk))
        }
        return Array(Set(result)).sorted()
    }
}

/// Rows of one entity being deleted by `deleteall`, and the next of their rules to act.
private struct DeleteFrame {
    let entity: EntityDescription
    let keys: [Int64]
    let rules: [(RelationshipDescription, EntityStorage.ReferencingKey.Check)]
    var next = 0
}

private func marks(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ",") }
