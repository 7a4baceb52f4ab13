import GRDB

/// A row another connection changed or deleted since this context read it: optimistic
/// locking, as Core Data's snapshots compare, for every store's writer.
struct SaveConflict {
    let object: ManagedObject
    let keys: Set<String>
    /// The row as stored now; nil when another connection deleted it.
    let stored: [String: Value]?
}

extension ObjectContext {
    /// The SELECT of a saved object's row as its entity reads it (`lock`: what the engine
    /// adds to hold it until the save commits), with the row's key; nil for a new object.
    func storedRowQuery(of object: ManagedObject, lock: String = "") -> (sql: String, key: Int64)? {
        guard let key = object.primaryKey else { return nil }
        let entity = currentEntity(of: object)
        let storage = mapped(entity)
        return ("SELECT \(storage.selection(of: entity)) FROM \(storage.table) WHERE \(storage.key) = ?\(lock)", key)
    }

    /// The conflict of `object` with its row as stored now (nil: the row is gone), nil
    /// when the row holds what the object was read with.
    func conflict(of object: ManagedObject, storedRow: [DatabaseValue]?) -> SaveConflict? {
        guard let storedRow else { return SaveConflict(object: object, keys: [], stored: nil) }
        let stored = values(of: currentEntity(of: object), row: storedRow)
        let changed = Set(stored.keys.filter { !Value.sameStored(stored[$0] ?? .null, object.committed[$0] ?? .null) })
        return changed.isEmpty ? nil : SaveConflict(object: object, keys: changed, stored: stored)
    }
}

extension ObjectContext {
    /// The saved objects `request` changes only through links (many-to-many) whose rows
    /// another connection deleted, as conflicts: a link to a row that is gone would be
    /// none (found by review). Only that the row is there is checked, as a link changes
    /// none of its values. `exists` reads a `storedRowQuery` for whether it finds a row.
    func goneLinkEnds(of request: SaveChangesRequest, exists: (String, Int64) throws -> Bool) throws -> [SaveConflict] {
        var seen = Set((request.updates + request.deletes).map(ObjectIdentifier.init))
        var gone: [SaveConflict] = []
        for object in request.links.flatMap({ [$0.source, $0.target] }) where !object.isInserted && seen.insert(ObjectIdentifier(object)).inserted {
            guard let query = storedRowQuery(of: object) else { continue }
            if try !exists(query.sql, query.key) { gone.append(SaveConflict(object: object, keys: [], stored: nil)) }
        }
        return gone
    }
}

extension SaveChangesResult {
    /// Settles `conflicts` as the request's policy says: refused with nothing written
    /// (`error`), or the stored rows taken as the new snapshots, with the other side's keys
    /// winning under `store`; a row the other side deleted is neither updated nor deleted,
    /// and its object is deleted after the save (`gone`).
    mutating func settle(_ conflicts: [SaveConflict]) throws {
        guard !conflicts.isEmpty else { return }
        if request.policy == .error {
            throw StoreError.conflict(conflicts.map { ConflictedObject(objectID: $0.object.objectID, keys: $0.keys.sorted(), deleted: $0.stored == nil) })
        }
        var dropped: [ObjectIdentifier: Set<String>] = [:]
        for conflict in conflicts {
            guard let stored = conflict.stored else { continue }
            adopted.append((conflict.object, stored))
            if request.policy == .store { dropped[ObjectIdentifier(conflict.object), default: []].formUnion(conflict.keys) }
        }
        self.gone = conflicts.filter { $0.stored == nil }.map(\.object)
        let gone = Set(self.gone.map(ObjectIdentifier.init))
        request.updates.removeAll { gone.contains(ObjectIdentifier($0)) }
        request.deletes.removeAll { gone.contains(ObjectIdentifier($0)) }
        request.links.removeAll { gone.contains(ObjectIdentifier($0.source)) || gone.contains(ObjectIdentifier($0.target)) }
        // Under "store", their values win for the keys they changed.
        for object in request.updates {
            for key in dropped[ObjectIdentifier(object)] ?? [] { object.pending[key] = nil }
        }
    }
}

extension Value {
    /// Whether two values read from a store are the same stored value: as `==`, and NaN
    /// the same as NaN (a PostgreSQL float or numeric column keeps NaN, which `==`
    /// would see as changed at every comparison).
    static func sameStored(_ a: Value, _ b: Value) -> Bool {
        if case .real(let x) = a, case .real(let y) = b, x.isNaN, y.isNaN { return true }
        return a == b
    }
}
