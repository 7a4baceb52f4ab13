import GRDB

/// What one `save()` wrote.
public struct SaveSummary: Equatable, Sendable {
    public var inserted = 0, updated = 0, deleted = 0
    public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
        self.inserted = inserted; self.updated = updated; self.deleted = deleted
    }
}

extension ObjectContext {
    /// Writes every pending insert, update and delete in one transaction. Validation runs
    /// first over every pending object; on any error nothing is written and the pending
    /// changes stay as they were.
    @discardableResult
    public func save() throws -> SaveSummary {
        guard hasChanges else { return SaveSummary() }
        if isReadOnly { throw StoreError.readOnly(operation: "save") }
        let inserts = insertedObjects
        let updates = updatedObjects.values.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }
        let deletes = deletedObjects.values.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }
        try validateForSave(inserts + updates)

        var newKeys: [Int64] = []
        do {
            try database.write { db in
                for object in inserts {
                    let entity = object.entity
                    let columns = entity.attributeNames.map(quoteIdentifier).joined(separator: ", ")
                    let marks = Array(repeating: "?", count: entity.attributes.count).joined(separator: ", ")
                    let sql = entity.attributes.isEmpty
                        ? "INSERT INTO \(quoteIdentifier(entity.name)) DEFAULT VALUES"
                        : "INSERT INTO \(quoteIdentifier(entity.name)) (\(columns)) VALUES (\(marks))"
                    let values = entity.attributeNames.map { object.currentValue($0).databaseValue }
                    try db.execute(sql: sql, arguments: StatementArguments(values))
                    newKeys.append(db.lastInsertedRowID)
                }
                for object in updates {
                    let changed = object.pending.keys.sorted()
                    let assignments = changed.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: ", ")
                    let values = changed.map { object.pending[$0]!.databaseValue } + [object.primaryKey!.databaseValue]
                    try db.execute(sql: "UPDATE \(quoteIdentifier(object.entity.name)) SET \(assignments) WHERE \(quoteIdentifier(object.entity.primaryKey)) = ?",
                                   arguments: StatementArguments(values))
                }
                for object in deletes {
                    try db.execute(sql: "DELETE FROM \(quoteIdentifier(object.entity.name)) WHERE \(quoteIdentifier(object.entity.primaryKey)) = ?",
                                   arguments: [object.primaryKey!])
                }
            }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }

        // The transaction committed: only now does the in-memory graph change.
        for (object, key) in zip(inserts, newKeys) {
            object.primaryKey = key
            object.committed = object.pending
            object.pending = [:]
            object.isInserted = false
            register(object)
        }
        for object in updates {
            object.committed.merge(object.pending) { _, new in new }
            object.pending = [:]
        }
        for object in deletes {
            unregister(object)
            object.context = nil
        }
        insertedObjects = []
        updatedObjects = [:]
        deletedObjects = [:]
        pruneRegistrations()
        bumpGeneration()
        return SaveSummary(inserted: inserts.count, updated: updates.count, deleted: deletes.count)
    }

    private func validateForSave(_ objects: [ManagedObject]) throws {
        var problems: [String] = []
        for object in objects {
            for attribute in object.entity.attributes where !attribute.isOptional {
                if object.currentValue(attribute.name).isNull {
                    problems.append("\(object.objectID).\(attribute.name) is required but nil")
                }
            }
        }
        guard problems.isEmpty else {
            let shown = problems.prefix(5).joined(separator: "; ") + (problems.count > 5 ? "; and \(problems.count - 5) more" : "")
            throw StoreError.validation(message: "save: " + shown)
        }
    }

    /// Discards every pending change: inserted objects are forgotten, changed ones go
    /// back to their stored values, deleted ones come back.
    public func rollback() {
        for object in insertedObjects {
            object.isInserted = false
            object.isDeleted = true
            object.context = nil
        }
        for object in updatedObjects.values { object.pending = [:] }
        for object in deletedObjects.values {
            object.isDeleted = false
            object.pending = [:]
        }
        insertedObjects = []
        updatedObjects = [:]
        deletedObjects = [:]
        bumpGeneration()
    }
}
