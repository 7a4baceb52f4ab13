import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// `updateall` and `deleteall` on a store with persistent history write it as Core Data's
/// batch requests do (`NSBatchUpdateRequest`, `NSBatchDeleteRequest`, which record their
/// changes in the history for the app's history processing to merge): one transaction,
/// an update change per row with the set attributes' `ZCOLUMNS`, a delete change per row
/// (cascaded ones too) with its tombstones, inside the batch's own SQLite transaction.
/// An import writes it as `NSBatchInsertRequest` does: an insert change per row.
extension CoreDataStore {
    /// Before a batch change: the history tables as Core Data makes them, and, with an
    /// inferred model, no update (its properties' order is the model's) and no delete
    /// when the store keeps tombstones.
    func refuseUnwritableBatchHistory(_ operation: String, in session: StoreSession) throws {
        try refuseUnwritableHistory(operation, updates: operation == "updateall", deletes: operation == "deleteall", in: session)
    }

    package func keptAfterDeletion(of entity: String, keys: [Int64], in db: Database, session: StoreSession) throws -> [Int64: [Value]] {
        try tombstones(of: entity, keys: keys, operation: "deleteall", in: db)
    }

    /// Inside the batch's transaction, once its rows are written: its history. A refusal
    /// (a deleted entity whose tombstones Quarry cannot write as Core Data does) undoes
    /// the whole batch.
    package func recordBatchChange(_ change: BatchChange, in db: Database, session: StoreSession) throws {
        guard keepsPersistentHistory else { return }
        let operation = !change.inserted.isEmpty ? "import" : change.deleted.isEmpty ? "updateall" : "deleteall"
        let layout = try historyLayout(operation: operation, in: db)
        func code(_ entity: String) -> Int64? { mapped(entity)?.code }
        var changes: [PersistentHistoryWriter.Change] = []
        for (entity, keys) in change.inserted.sorted(by: { (code($0.key) ?? 0) < (code($1.key) ?? 0) }) {
            guard let number = code(entity) else { continue }
            for key in keys.sorted() { changes.append(.init(type: .insert, entity: number, key: key)) }
        }
        for (entity, keys) in change.updated.sorted(by: { (code($0.key) ?? 0) < (code($1.key) ?? 0) }) {
            guard let number = code(entity), let model else { continue }
            let bits = PersistentHistoryColumns.columns(changed: change.updatedKeys, of: entity, in: model)
            for key in keys.sorted() { changes.append(.init(type: .update, entity: number, key: key, columns: bits)) }
        }
        for (entity, keys) in change.deleted.sorted(by: { (code($0.key) ?? 0) < (code($1.key) ?? 0) }) {
            guard let number = code(entity) else { continue }
            try refuseUnwritableTombstones(of: entity, layout: layout, operation: operation)
            let kept = change.tombstones[entity] ?? [:]
            for key in keys.sorted() { changes.append(.init(type: .delete, entity: number, key: key, tombstones: kept[key] ?? [])) }
        }
        try writeHistory(changes, layout: layout, operation: operation, in: db, session: session)
    }

    /// An import's rows take their keys from the root's `Z_MAX`, one after another inside
    /// the import's transaction (the views' triggers number them as Core Data does): the
    /// keys past the count before are the rows inserted, recorded as a batch insert
    /// (`NSBatchInsertRequest`) records them, one transaction of inserts.
    package func recordingImport(into entity: EntityDescription, in db: Database, session: StoreSession, _ insert: () throws -> Int) throws -> Int {
        guard keepsPersistentHistory, let root = mapped(entity.name)?.rootCode else { return try insert() }
        func count() throws -> Int64 {
            try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM main.Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? 0
        }
        let before = try count()
        let rows = try insert()
        let after = try count()
        if after > before { try recordBatchChange(BatchChange(inserted: [entity.name: Array(before + 1...after)]), in: db, session: session) }
        return rows
    }
}
