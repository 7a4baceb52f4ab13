import QuarryEngine
import QuarryModel

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
        let row = try connection.row(SaveConflict.storedRowSQL(of: entity, session: session), arguments: [.integer(key)])
        let hadChanges = object.hasChanges
        object.pending = [:]
        object.pendingToOne = [:]
        unsaved.links.removeAll { $0.source === object || $0.target === object }
        forgetOrders(ownedBy: object)
        unsaved.updated[ObjectIdentifier(object)] = nil
        unsaved.deleted[ObjectIdentifier(object)] = nil
        store.pendingChanges(.unchanged(object), in: session)
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
    /// `asked` (`refresh()`): a store whose counter misses some commits (`unheardCommits`)
    /// reloads whatever it says.
    @discardableResult
    public func refreshFromStore(asked: Bool = false) throws -> Bool {
        // Asked, it is a statement: a server's lost connection is made again first (never
        // while the REPL waits, which would block on a server that does not answer).
        if asked { try connection.engine.catchUp() }
        let version = try store.outsideChangeCounter(session: session)
        defer { outsideChanges.lastDataVersion = version }
        let missesSome = asked && store.unheardCommits != nil
        guard let last = outsideChanges.lastDataVersion, last != version || missesSome else { return false }
        outsideChangeNoticed()
        var changes = ChangeSet()
        let token = try historyToken()
        let transactions = try history(since: outsideChanges.lastHistoryToken ?? token).filter { !outsideChanges.ownHistoryTokens.contains($0.token) }
        outsideChanges.lastHistoryToken = token
        outsideChanges.ownHistoryTokens = []
        var updatedIDs = Set(transactions.flatMap(\.updated))
        let insertedIDs = Set(transactions.flatMap(\.inserted))
        // Reload every registered object: a writer that keeps no history is seen this way.
        // By entity name (each entity's keys in order), as the batch rows below: observers
        // hear the changes in the same order in every run.
        updatedIDs.subtract(try reloadRegisteredObjects(registeredKeysByEntity().sorted(by: { $0.key < $1.key }), into: &changes))
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
        store.pendingChanges(.refreshed, in: session)
        // Asked, with nothing heard: only what the reload found counts as a change.
        if last == version, changes.isEmpty { return false }
        changes.isExternal = true
        bumpGeneration()
        notify(changes)
        return true
    }

    /// Reads the objects in use with these keys again, entity by entity: a changed row's
    /// values become the object's committed ones (a pending change keeps what it was made
    /// against, for the save's check), a row gone deletes an object with no changes; what
    /// moved is added to `changes`. Returns the history IDs of the objects it found updated.
    private func reloadRegisteredObjects(_ keysByEntity: [(key: String, value: [Int64])], into changes: inout ChangeSet) throws -> Set<String> {
        var updated = Set<String>()
        for (entityName, keys) in keysByEntity {
            guard let entity = managedObjectModel.entitiesByName[entityName] else { continue }
            let rows = try storedRows(of: entity, keys: keys)
            for key in keys {
                guard let object = registeredObject(entity: entityName, primaryKey: key) else { continue }
                guard let row = rows[key] else {
                    if !object.hasChanges {
                        changes.deleted.append(object)
                        unregister(object)
                        object.isDeleted = true
                        object.context = nil
                    }
                    continue
                }
                let fresh = values(of: entity, row: row)
                let changedKeys = Set(fresh.keys.filter { fresh[$0] != object.committedValue($0) })
                if !changedKeys.isEmpty {
                    changes.oldValues[ObjectIdentifier(object)] = object.committed
                    object.commitOutsideChange(fresh)
                    changes.updated.append((object, changedKeys))
                    updated.insert(object.historyID)
                }
            }
        }
        return updated
    }

    /// After this session's own write (a save, `updateall`, `deleteall`): the objects in
    /// use of views are read again, as observers hear it. A view's rows follow the tables
    /// it reads, which the write may have changed, and a view keyed by its rows' places
    /// may name other rows by the same keys now; without this, a fetch of the view handed
    /// back its objects as they were read before. The write has committed, so a view that
    /// fails to read now is left as it was, for the next read to say why.
    func addReloadedViews(to changes: inout ChangeSet) {
        let views = Set(managedObjectModel.entitiesByName.values.filter { mapped($0).isView }.map(\.name))
        guard !views.isEmpty else { return }
        // Each view on its own: one that fails to read leaves the others read again.
        for entry in registeredKeysByEntity().filter({ views.contains($0.key) }).sorted(by: { $0.key < $1.key }) {
            _ = try? reloadRegisteredObjects([entry], into: &changes)
        }
    }

    /// A row (`selection(of:)`, as any engine reads it) as an object's committed values:
    /// each value in storage form (`Value.storedForm`), then decoded by its attribute's
    /// type, as an object decodes its row.
    package func values(of entity: EntityDescription, row: [Value]) -> [String: Value] {
        let toOne = entity.toOneRelationships
        // Sized once: grown as filled, it was rehashed twice for a row of two values.
        var committed = [String: Value](minimumCapacity: entity.attributes.count + toOne.count)
        for (index, attribute) in entity.attributes.enumerated() {
            committed[attribute.name] = Self.value(of: attribute, at: index, row: row)
        }
        for (i, relationship) in toOne.enumerated() {
            committed[relationship.name] = Self.toOneValue(at: i, of: entity, row: row)
        }
        return committed
    }

    /// The `i`th to-one's key of such a row (after the key and the attributes), as
    /// `values(of:row:)` reads it.
    package static func toOneValue(at i: Int, of entity: EntityDescription, row: [Value]) -> Value {
        let column = 1 + entity.attributes.count + i
        return column < row.count ? row[column].storedForm : .null
    }

    /// The attribute at `index` of such a row (the key first, so in column `index + 1`),
    /// as `values(of:row:)` reads it.
    package static func value(of attribute: AttributeDescription, at index: Int, row: [Value]) -> Value {
        attribute.type.decode(index + 1 < row.count ? row[index + 1].storedForm : .null)
    }

    /// A descriptor that becomes readable when the store may have news of other sessions'
    /// commits (a PostgreSQL connection's socket), for a loop that waits on the terminal
    /// to wait on too; nil for a file, whose commits are polled.
    public var outsideChangesDescriptor: Int32? { connection.engine.changeDescriptor }

    /// Has `say` say a lost server session's one line (`connection lost, reconnecting`)
    /// whenever the engine finds it lost and makes it again: at a statement, at
    /// `refresh()`, while the REPL or a watch waits (`reconnectWhileWaiting`).
    public func sayConnectionLoss(_ say: @escaping (String) -> Void) {
        connection.engine.sayLoss = say
    }

    /// While the REPL or a watch waits, after reading other sessions' news failed: when
    /// the store's server session was found gone (a restart, `pg_terminate_backend`),
    /// makes the session again (its LISTEN and set-up with it; the engine says the loss,
    /// `sayConnectionLoss`) and reads again what others committed meanwhile, which
    /// observers and watches hear as any outside change. A server that does not answer
    /// yet is tried again about once a second. Returns whether anything changed.
    public func reconnectWhileWaiting() -> Bool {
        guard connection.engine.sessionIsLost else { return false }
        let now = ContinuousClock.now
        if let last = outsideChanges.lastReconnectTry {
            guard now - last >= .seconds(1) else { return false }
        }
        outsideChanges.lastReconnectTry = now
        // Asked: the session is made again first (`catchUp`); a new connection is news.
        guard let changed = try? refreshFromStore(asked: true) else { return false }
        outsideChanges.lastReconnectTry = nil
        return changed
    }

    /// Why some outside commits reach observers only at `refresh()` (the store's
    /// `unheardCommits`): the first time it is asked, nil after, so it is said once.
    public func takeUnheardCommitsNote() -> String? {
        guard !outsideChanges.saidUnheard, let note = store.unheardCommits else { return nil }
        outsideChanges.saidUnheard = true
        return note
    }

    /// Starts watching for other connections' commits from now.
    public func startNoticingOtherConnections() throws {
        // One read for both: every read is a transaction of its own, set up and ended.
        (outsideChanges.lastDataVersion, outsideChanges.lastHistoryToken) = (
            try store.outsideChangeCounter(session: session), try store.historyToken(session: session)
        )
    }
}

/// What another process changed in an entity whose observers must hear it. A writer that
/// keeps no Quarry history (the sqlite3 shell, an app, another PostgreSQL session) says
/// nothing of which rows it changed, and only registered objects are compared on
/// `refreshFromStore`; so for each entity an observer watches, Quarry keeps a hash of
/// each column of every row, and after an outside commit the rows whose hashes moved,
/// appeared or went are its changes, the columns that moved the keys that changed (an
/// `updated` event names them for rows no object holds, as for those one does). Local
/// saves re-hash the rows they touched, so they are never taken for outside changes.
struct RowHashes {
    /// Hashes per row: the row's attributes, then its to-one relationships.
    let width: Int
    /// Where each row's hashes start in `hashes`: one array for all rows, not one each.
    private(set) var offsets: [Int64: Int] = [:]
    private var hashes: [Int] = []
    /// For an entity with sub-entities, each row's own entity: a row another program
    /// deletes can no longer be read, and is told as what it was (`Car/7`, not the
    /// abstract `Vehicle/7`).
    var ownEntities: [Int64: String] = [:]

    init(width: Int) { self.width = width }

    func columns(of key: Int64) -> ArraySlice<Int>? {
        offsets[key].map { hashes[$0..<$0 + width] }
    }

    mutating func set(_ key: Int64, _ columns: ArraySlice<Int>) {
        guard columns.count == width else { return }
        if let offset = offsets[key] {
            hashes.replaceSubrange(offset..<offset + width, with: columns)
        } else {
            offsets[key] = hashes.count
            hashes.append(contentsOf: columns)
        }
    }

    /// The row is gone; its place in `hashes` stays until the entity is hashed whole again.
    mutating func remove(_ key: Int64) {
        offsets[key] = nil
        ownEntities[key] = nil
    }
}

extension ObjectContext {
    /// Keeps row hashes for exactly these entities (an entity observer's), taking them for
    /// the ones not watched yet.
    public func watchRows(of names: Set<String>) throws {
        for name in observers.watchedRows.keys where !names.contains(name) { observers.watchedRows[name] = nil }
        for name in names.sorted() where observers.watchedRows[name] == nil {
            guard let entity = managedObjectModel.entitiesByName[name] else { continue }
            var rows = try hashes(of: entity, keys: nil)
            if hasSubentities(name) { rows.ownEntities = try ownEntityNames(of: entity, keys: rows.offsets.keys.sorted()) }
            observers.watchedRows[name] = rows
        }
    }

    /// The keys a watched row's hashes stand for, in order (`RowHashes`).
    private func hashedKeys(of entity: EntityDescription) -> [String] {
        entity.attributeNames + entity.toOneRelationships.map(\.name)
    }

    /// Hashes of `entity`'s rows (those with `keys`, or all).
    private func hashes(of entity: EntityDescription, keys: [Int64]?) throws -> RowHashes {
        var result = RowHashes(width: hashedKeys(of: entity).count)
        let select = "SELECT \(mapped(entity).selection(of: entity)) FROM \(mapped(entity).table)"
        var columns: [Int] = []
        func take(_ row: StoreRow) {
            guard row.count == result.width + 1, let key = row.value(at: 0).storedInteger else { return }
            columns.removeAll(keepingCapacity: true)
            for i in 1..<row.count {
                var hasher = Hasher()
                row.value(at: i).hashStored(into: &hasher)
                columns.append(hasher.finalize())
            }
            result.set(key, columns[...])
        }
        guard let keys else {
            try connection.forEachRow(select) { take($0) }
            return result
        }
        try forEachChunk(keys) { chunk in
            let sql = select + " WHERE \(mapped(entity).key) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
            try connection.forEachRow(sql, arguments: chunk.map(Value.integer)) { take($0) }
        }
        return result
    }

    /// After a local change: the watched rows it touched are hashed again.
    func rehashWatchedRows(_ changes: ChangeSet) {
        guard !observers.watchedRows.isEmpty, !changes.isExternal else { return }
        var touched: [String: Set<Int64>] = [:]
        let objects = changes.inserted + changes.updated.map(\.object) + changes.deleted
        for object in objects { if let key = object.primaryKey { touched[object.entity.name, default: []].insert(key) } }
        for (name, keys) in changes.batchUpdated { touched[name, default: []].formUnion(keys) }
        for (name, keys) in changes.batchDeleted { touched[name, default: []].formUnion(keys) }
        for watched in observers.watchedRows.keys.sorted() {
            guard let entity = managedObjectModel.entitiesByName[watched] else { continue }
            let keys = touched.filter { isKind($0.key, of: watched) || isKind(watched, of: $0.key) }.flatMap(\.value)
            guard !keys.isEmpty else { continue }
            guard let fresh = try? hashes(of: entity, keys: Array(Set(keys)).sorted()) else {
                observers.watchedRows[watched] = nil
                continue
            }
            // Changed in place: a copy taken out of `watchedRows` and changed would copy every
            // row's hashes (25 ms a save with 100,000 rows watched).
            for key in keys {
                if let columns = fresh.columns(of: key) {
                    observers.watchedRows[watched]?.set(key, columns)
                } else {
                    observers.watchedRows[watched]?.remove(key)
                }
            }
            // Rows this save made: which entity each is.
            guard hasSubentities(watched) else { continue }
            let made = Set(keys).filter { key in
                observers.watchedRows[watched].map { $0.offsets[key] != nil && $0.ownEntities[key] == nil } ?? false
            }
            if !made.isEmpty, let names = try? ownEntityNames(of: entity, keys: made.sorted()) {
                for (key, name) in names { observers.watchedRows[watched]?.ownEntities[key] = name }
            }
        }
    }

    /// After an outside commit: each watched entity's rows that changed, appeared or went,
    /// added to `changes` as batch changes (those an object already reports are left).
    func addOutsideRowChanges(to changes: inout ChangeSet) {
        var reported: Set<String> = []
        for object in changes.updated.map(\.object) + changes.deleted {
            if let key = object.primaryKey { reported.insert("\(rootName(of: object.entity.name))/\(key)") }
        }
        for (name, keys) in changes.batchUpdated.merging(changes.batchDeleted, uniquingKeysWith: { $0.union($1) }) {
            for key in keys { reported.insert("\(rootName(of: name))/\(key)") }
        }
        for watched in observers.watchedRows.keys.sorted() {
            guard let entity = managedObjectModel.entitiesByName[watched], let old = observers.watchedRows[watched] else { continue }
            guard var new = try? hashes(of: entity, keys: nil) else {
                observers.watchedRows[watched] = nil
                continue
            }
            let root = rootName(of: watched)
            func fresh(_ key: Int64) -> Bool { !reported.contains("\(root)/\(key)") }
            let names = hashedKeys(of: entity)
            var updated: [Int64] = []
            for key in new.offsets.keys where fresh(key) {
                guard let was = old.columns(of: key), let now = new.columns(of: key), was != now else { continue }
                updated.append(key)
                // The keys whose columns moved: what an `updated` event names.
                let moved = zip(was, now).enumerated().filter { $0.element.0 != $0.element.1 && $0.offset < names.count }.map { names[$0.offset] }
                changes.batchUpdatedKeys[watched, default: [:]][key, default: []].formUnion(moved)
            }
            let inserted = new.offsets.keys.filter { old.offsets[$0] == nil }
            let gone = old.offsets.keys.filter { new.offsets[$0] == nil }
            let deleted = gone.filter(fresh)
            // The rows' entities: those kept, less the rows gone, with the new rows'.
            if hasSubentities(watched) {
                new.ownEntities = old.ownEntities
                for key in gone { new.ownEntities[key] = nil }
                if let names = try? ownEntityNames(of: entity, keys: inserted.sorted()) { for (key, name) in names { new.ownEntities[key] = name } }
            }
            observers.watchedRows[watched] = new
            if !updated.isEmpty { changes.batchUpdated[watched, default: []].formUnion(updated) }
            // Each under its own entity, as its observers and its objects know it.
            for key in deleted { changes.batchDeleted[old.ownEntities[key] ?? watched, default: []].insert(key) }
            for key in inserted.sorted() where !changes.inserted.contains(where: { $0.primaryKey == key && isKind($0.entity.name, of: watched) }) {
                if let object = try? object(entityName: watched, primaryKey: key) { changes.inserted.append(object) }
            }
        }
    }
}
