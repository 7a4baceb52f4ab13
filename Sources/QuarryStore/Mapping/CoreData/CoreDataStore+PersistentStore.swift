import GRDB
import QuarryModel
import QuarryModelFiles

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

    package func objectChanged(_ object: ManagedObject, in context: ObjectContext) { noteVersion(object, in: context) }

    package func objectUnchanged(_ object: ManagedObject, in context: ObjectContext) { forgetVersion(object) }

    package func pendingChangesEnded(in context: ObjectContext) { forgetPending() }

    package func pendingChangesRefreshed(in context: ObjectContext) { refreshVersions(in: context) }

    /// Core Data's own persistent history: the app's saves and Quarry's alike.
    package func historyToken(in db: Database) throws -> Int64 { try PersistentHistoryReader.lastToken(db) }



    package func prepare(_ request: SaveChangesRequest, in context: ObjectContext) throws -> StoreSaveWork {
        forgetTriggerNotices(in: context)
        return StoreSaveWork(rewrites: try plannedOrderRewrites(request, context: context))
    }

    /// Core Data's key comes from `Z_MAX`, which the view's trigger raised.
    func insertedKey(of entity: EntityDescription, in db: Database, context: ObjectContext) throws -> Int64 {
        try lastInsertedKey(of: entity.name, in: db) ?? db.lastInsertedRowID
    }

    func versionMoved(_ object: ManagedObject, in db: Database, context: ObjectContext) throws -> Bool {
        try versionMoved(object, in: db)
    }

    func willDeleteRows(_ request: SaveChangesRequest, _ work: inout StoreSaveWork, keys: SaveChangesRequest.Keys,
                        in db: Database, context: ObjectContext) throws {
        try finishSave(request, rewrites: work.rewrites, keys: keys, in: db)
        // Read before the rows go: Core Data's delete copies them into the history.
        work.tombstones = try tombstones(request.deletes, in: db)
    }

    func didWriteRows(_ request: SaveChangesRequest, _ work: StoreSaveWork, keys: SaveChangesRequest.Keys,
                      in db: Database, context: ObjectContext) throws {
        try writeHistory(inserted: keys.inserted(request), updated: request.updates, deleted: request.deletes,
                         tombstones: work.tombstones, links: request.links, orders: request.orders, in: db, context: context)
    }

    package func didSave(in context: ObjectContext) {
        applyTriggerNotices(in: context)
        refreshDerivedAttributes(in: context)
    }

    package func refuseDefining(_ entity: String, whole: Bool) throws {
        throw StoreError.invalidSchema(entity: entity, reason: whole
            ? "this is a Core Data store: its entities are its own model's"
            : "this is a Core Data store: its entities are its model's, and Quarry does not change its schema")
    }

    package var modelAsRead: CoreDataModel? { model }

    /// Never reached: `define` refuses a Core Data store's entities before writing.
    package func keepDeclaration(_ name: String, definition: String, in db: Database, context: ObjectContext) throws {
        throw StoreError.invalidSchema(entity: name, reason: "this is a Core Data store: its entities are its own model's")
    }

    /// SQLite names Z-tables and Z-columns: say the model's names.
    package func inModelNames(_ error: StoreError) -> StoreError {
        if case let .sqlite(code, sql, message) = error { return .sqlite(code: code, sql: sql, message: inModelNames(message)) }
        if case var .constraint(violation) = error {
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
