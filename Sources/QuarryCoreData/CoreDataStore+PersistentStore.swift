import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// A Core Data store's writes keep what Core Data keeps: no write Quarry cannot make as
/// Core Data would, `Z_OPT` versions for optimistic locking, ordered relationships'
/// positions, new rows' `Z_OPT` of 1, and its persistent history with tombstones.
extension CoreDataStore: SQLiteStore {
    /// Core Data's stores are SQLite files.
    package var dialect: any SQLDialect { SQLiteDialect() }
    package var runsCascadesAtOnce: Bool { true }
    /// True, as it always was, and never what decides: Quarry defines nothing in the
    /// store (`refuseDefining`), and a `relate()` between its entities, none of them
    /// Quarry's, is kept nowhere.
    package var isQuarrysFile: Bool { true }
    /// None: its entities are its model's.
    package func keepsDeclaration(of name: String) -> Bool { keepsQuarryLayout(name) }

    package func isOrdered(_ relationship: String, of entity: String) -> Bool { ordering(of: entity, relationship) != nil }

    package func pendingChanges(_ event: PendingChangeEvent, in session: StoreSession) {
        switch event {
        case .changed(let object): noteVersion(object, in: session)
        case .unchanged(let object): forgetVersion(object)
        case .ended: forgetPending()
        case .refreshed: refreshVersions(in: session)
        }
    }

    /// Core Data's own persistent history: the app's saves and Quarry's alike.
    package func historyToken(in db: Database) throws -> Int64 { try PersistentHistoryReader.lastToken(db) }

    package func prepare(_ request: SaveChangesRequest, in session: StoreSession) throws -> StoreSaveWork {
        forgetTriggerNotices(in: session)
        return StoreSaveWork(planned: CoreDataSaveWork(rewrites: try plannedOrderRewrites(request, session: session)))
    }

    /// Core Data's key comes from `Z_MAX`, which the view's trigger raised.
    package func insertedKey(of entity: EntityDescription, in db: Database, session: StoreSession) throws -> Int64 {
        try lastInsertedKey(of: entity.name, in: db) ?? db.lastInsertedRowID
    }

    package func versionMoved(_ object: ManagedObject, in db: Database, session: StoreSession) throws -> Bool {
        try versionMoved(object, in: db)
    }

    package func willDeleteRows(
        _ request: SaveChangesRequest, _ work: inout StoreSaveWork, keys: SaveChangesRequest.Keys,
        in db: Database, session: StoreSession
    ) throws {
        try finishSave(request, rewrites: work.coreData.rewrites, keys: keys, in: db)
        // Read before the rows go: Core Data's delete copies them into the history.
        work.coreData.tombstones = try tombstones(request.deletes, in: db)
    }

    package func didWriteRows(
        _ request: SaveChangesRequest, _ work: StoreSaveWork, keys: SaveChangesRequest.Keys,
        in db: Database, session: StoreSession
    ) throws {
        let inserted = keys.inserted(request)
        let changed = try changedRows(
            inserted: inserted, updated: request.updates, deleted: request.deletes, links: request.links, orders: request.orders,
            in: db, session: session)
        try raiseVersionsOfToManyOwners(changed, in: db)
        try writeHistory(
            inserted: inserted, changed: changed, deleted: request.deletes, tombstones: work.coreData.tombstones, in: db, session: session)
    }

    package func didSave(in session: StoreSession) {
        applyTriggerNotices(in: session)
        refreshDerivedAttributes(in: session)
    }

    package func refuseDefining(_ entity: String, whole: Bool) throws {
        throw StoreError.invalidSchema(
            entity: entity,
            reason: whole
                // --model gives way to the model a store carries (`read`): not offered there.
                ? (modelSource == "the store's model cache"
                    ? "this is a Core Data store: its entities are those of the model it carries (Z_MODELCACHE), which is read whatever --model names"
                    : "this is a Core Data store: its entities are its own model's (to read it with another model, open it with --model MODEL)")
                : "this is a Core Data store: its entities are its model's, and Quarry does not change its schema")
    }

    package var modelAsRead: CoreDataModel? { model }

    /// Never reached: `define` refuses a Core Data store's entities before writing.
    package func keepDeclaration(_ name: String, definition: String, in db: Database, session: StoreSession) throws {
        throw StoreError.invalidSchema(entity: name, reason: "this is a Core Data store: its entities are its own model's")
    }

    /// SQLite names Z-tables and Z-columns: say the model's names.
    package func inModelNames(_ error: StoreError) -> StoreError {
        if case .engine(let failure as SQLiteFailure) = error {
            return .engine(SQLiteFailure(code: failure.resultCode, sql: failure.sql, said: inModelNames(failure.said)))
        }
        if case .constraint(var violation) = error {
            // The parts too: the entity and its attributes, where the Z-column is one of them.
            if let table = violation.table {
                let named = violation.columns.map { columnNames["\(table).\($0)"] }
                if !named.isEmpty, let first = named[0], let dot = first.firstIndex(of: ".") {
                    let entity = String(first[...dot])
                    if named.allSatisfy({ $0?.hasPrefix(entity) == true }) {
                        violation.table = String(entity.dropLast())
                        violation.columns = named.compactMap { $0.map { String($0.dropFirst(entity.count)) } }
                    }
                }
            }
            violation.said = inModelNames(violation.said)
            return .constraint(violation)
        }
        guard case .database(let message) = error else { return error }
        return .database(message: inModelNames(message))
    }
}

/// What a Core Data store's save decided besides the rows (`StoreSaveWork.planned`): the
/// ordered relationships whose positions it rewrites, and the values of deleted rows kept
/// in the history (its tombstones), read before the rows go.
struct CoreDataSaveWork {
    var rewrites: [OrderedRewrite] = []
    var tombstones: [ObjectIdentifier: [Value]] = [:]
}

extension StoreSaveWork {
    var coreData: CoreDataSaveWork {
        get { planned as? CoreDataSaveWork ?? CoreDataSaveWork() }
        set { planned = newValue }
    }
}
