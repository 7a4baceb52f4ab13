import GRDB

/// Commits by other connections (another process, the sqlite3 shell), noticed through
/// `PRAGMA data_version` and the store's history, and objects read again from the store.
extension ObjectContext {
    /// `o:refresh()`: drops the object's unsaved changes and reads its row again, as Core
    /// Data's `refresh(_:mergeChanges: false)`. An object not yet saved is left as it is;
    /// one whose row is gone is deleted. Returns whether anything changed.
    @discardableResult
    public func refresh(_ object: ManagedObject) throws -> Bool {
        guard object.context === self, let key = object.primaryKey, !object.isInserted else { return false }
        let entity = currentEntity(of: object)
        let sql = "SELECT \(mapped(entity).selection(of: entity)) FROM \(mapped(entity).table) WHERE \(mapped(entity).key) = ?"
        let row = try read { db in try Row.fetchOne(db, sql: sql, arguments: [key]) }
        let hadChanges = object.hasChanges
        object.pending = [:]
        object.pendingToOne = [:]
        unsaved.links.removeAll { $0.source === object || $0.target === object }
        unsaved.updated[ObjectIdentifier(object)] = nil
        unsaved.deleted[ObjectIdentifier(object)] = nil
        store.objectUnchanged(object, in: self)
        guard let row else {
            unregister(object)
            object.isDeleted = true
            object.context = nil
            bumpPendingGeneration(touching: object)
            return true
        }
        object.isDeleted = false
        let fresh = values(of: entity, row: row)
        let changed = fresh != object.committed
        object.committed = fresh
        bumpPendingGeneration(touching: object)
        return changed || hadChanges
    }

    /// Notices commits by other connections (another process, the sqlite3 shell) through
    /// `PRAGMA data_version`; when there were some, reloads the objects in use and tells
    /// the listeners, with what Quarry's history says changed. Returns whether anything did.
    @discardableResult
    public func refreshFromStore() throws -> Bool {
        let version = try read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        defer { outsideChanges.lastDataVersion = version }
        guard let last = outsideChanges.lastDataVersion, last != version else { return false }
        outsideChangeNoticed()
        var changes = ChangeSet()
        let token = try historyToken()
        let transactions = try history(since: outsideChanges.lastHistoryToken ?? token).filter { !outsideChanges.ownHistoryTokens.contains($0.token) }
        outsideChanges.lastHistoryToken = token
        outsideChanges.ownHistoryTokens = []
        var updatedIDs = Set(transactions.flatMap(\.updated))
        let insertedIDs = Set(transactions.flatMap(\.inserted))
        // Reload every registered object: a writer that keeps no history is seen this way.
        for (entityName, keys) in registeredKeysByEntity() {
            guard let entity = managedObjectModel.entitiesByName[entityName] else { continue }
            let rows = try storedRows(of: entity, keys: keys)
            for key in keys {
                guard let object = registeredObject(entity: entityName, primaryKey: key) else { continue }
                guard let row = rows[key] else {
                    if !object.hasChanges { changes.deleted.append(object); unregister(object); object.isDeleted = true; object.context = nil }
                    continue
                }
                let fresh = values(of: entity, row: row)
                let changedKeys = Set(fresh.keys.filter { fresh[$0] != object.committed[$0] })
                if !changedKeys.isEmpty {
                    changes.oldValues[ObjectIdentifier(object)] = object.committed
                    object.committed = fresh
                    changes.updated.append((object, changedKeys))
                    updatedIDs.remove(object.objectID)
                }
            }
        }
        // Rows the history names as updated but no object holds: by key.
        for id in updatedIDs.sorted() {
            let parts = id.split(separator: "/")
            if parts.count == 2, let key = Int64(parts[1]) { changes.batchUpdated[String(parts[0]), default: []].insert(key) }
        }
        for id in insertedIDs.sorted() {
            let parts = id.split(separator: "/")
            if parts.count == 2, let key = Int64(parts[1]), let object = try? object(entityName: String(parts[0]), primaryKey: key) {
                changes.inserted.append(object)
            }
        }
        addOutsideRowChanges(to: &changes)
        store.pendingChangesRefreshed(in: self)
        changes.isExternal = true
        bumpGeneration()
        notify(changes)
        return true
    }

    func values(of entity: EntityDescription, row: Row) -> [String: Value] {
        var committed: [String: Value] = [:]
        for (index, attribute) in entity.attributes.enumerated() {
            committed[attribute.name] = attribute.type.decode(Value(row[index + 1] as DatabaseValue))
        }
        for (i, relationship) in entity.toOneRelationships.enumerated() {
            committed[relationship.name] = Value(row[1 + entity.attributes.count + i] as DatabaseValue)
        }
        return committed
    }

    /// Starts watching for other connections' commits from now.
    public func startNoticingOtherConnections() throws {
        // One read for both: every read is a transaction of its own, set up and ended.
        (outsideChanges.lastDataVersion, outsideChanges.lastHistoryToken) = try read { db in
            (try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0, try store.historyToken(in: db))
        }
    }
}
