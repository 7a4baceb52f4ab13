import QuarryModel

/// A row another connection changed or deleted since this context read it: optimistic
/// locking, as Core Data's snapshots compare, for every store's writer.
package struct SaveConflict {
    let object: ManagedObject
    let keys: Set<String>
    /// The row as stored now; nil when another connection deleted it.
    package let stored: [String: Value]?
    /// Keys the other connection changed that this save does not write: taken from the
    /// row, as `refresh()` would have taken them, with no conflict.
    package let merged: Set<String>

    package init(object: ManagedObject, keys: Set<String>, stored: [String: Value]? = nil, merged: Set<String> = []) {
        self.object = object
        self.keys = keys
        self.stored = stored
        self.merged = merged
    }

    /// No conflict: only keys the save does not write changed, and the object takes them.
    package var isMerge: Bool { keys.isEmpty && stored != nil }
}

extension SaveConflict {
    /// The SELECT of a saved object's row as its entity reads it, with the row's key (an
    /// engine may add to it: a lock held until the save commits); nil for a new object.
    package static func storedRowQuery(of object: ManagedObject, session: StoreSession) -> (sql: String, key: Int64)? {
        guard let key = object.primaryKey else { return nil }
        return (storedRowSQL(of: session.currentEntity(of: object), session: session), key)
    }

    /// The query of `storedRowQuery` for any object of `entity`.
    package static func storedRowSQL(of entity: EntityDescription, session: StoreSession) -> String {
        let storage = session.mapped(entity)
        return "SELECT \(storage.selection(of: entity)) FROM \(storage.table) WHERE \(storage.key) = ?"
    }

    /// The conflict of `object` with its row as stored now (nil: the row is gone), nil
    /// when the row holds what the object was read with. `storedRow` as the engine read it.
    /// `entity`: the object's current description, when the caller has it already.
    package static func of(
        _ object: ManagedObject, storedRow: [Value]?, entity current: EntityDescription? = nil, session: StoreSession
    ) -> SaveConflict? {
        guard let storedRow else { return SaveConflict(object: object, keys: [], stored: nil) }
        let entity = current ?? session.currentEntity(of: object)
        // One key's value at a time: `committed` decodes the whole row each time it is read.
        // A pending change is compared with what it was made against, however the outside
        // commit was noticed since (`expectedStoredValue`). Column by column, as
        // `values(of:row:)` reads them; the row as a dictionary only for a conflict (made
        // for every object, it was a third of this check in a save of many objects).
        var changed: Set<String> = []
        for (index, attribute) in entity.attributes.enumerated() {
            let stored = StoreSession.value(of: attribute, at: index, row: storedRow)
            if !Value.sameStored(stored, object.expectedStoredValue(attribute.name) ?? .null) { changed.insert(attribute.name) }
        }
        for (i, relationship) in entity.toOneRelationships.enumerated() {
            let stored = StoreSession.toOneValue(at: i, of: entity, row: storedRow)
            if !Value.sameStored(stored, object.expectedStoredValue(relationship.name) ?? .null) { changed.insert(relationship.name) }
        }
        guard !changed.isEmpty else { return nil }
        let stored = session.values(of: entity, row: storedRow)
        // A delete was made against the whole row; a change only against what it writes.
        // Another key they changed is merged, as it is once `refresh()` has noticed their
        // commit: noticed first at the save, it was a conflict (issue 81, issue 86).
        guard !object.isDeleted else { return SaveConflict(object: object, keys: changed, stored: stored) }
        var written = Set(object.pending.keys).union(object.pendingToOne.keys)
        for relationship in entity.toOneRelationships
        where written.contains(relationship.name) || relationship.linkColumns.contains(where: written.contains) {
            written.insert(relationship.name)
            written.formUnion(relationship.linkColumns)
        }
        return SaveConflict(object: object, keys: changed.intersection(written), stored: stored, merged: changed.subtracting(written))
    }
}

extension SaveChangesRequest {
    /// The saved objects the request names only through links, many-to-many ones or a new
    /// or changed object's to-one, whose rows another connection deleted, as conflicts: a
    /// link to a row that is gone would be none, or break the file's foreign key (found by
    /// review; issue 48). Only that the row is there is checked, as a link changes none of
    /// its values. `exists` reads a `storedRowQuery` for whether it finds a row.
    package func goneLinkEnds(session: StoreSession, exists: (String, Int64) throws -> Bool) throws -> [SaveConflict] {
        // No link, no end to check: the set of every saved object, and the list of every
        // new and changed object (made for nothing, 1.4% of a save of 20,000 changed
        // values), only when there is.
        guard !links.isEmpty || inserts.contains(where: { !$0.pendingToOne.isEmpty }) || updates.contains(where: { !$0.pendingToOne.isEmpty })
        else { return [] }
        let toOneTargets = (inserts + updates).flatMap { $0.pendingToOne.values.compactMap { $0 } }
        var seen = Set((updates + deletes).map(ObjectIdentifier.init))
        var gone: [SaveConflict] = []
        for object in links.flatMap({ [$0.source, $0.target] }) + toOneTargets
        where !object.isInserted && !object.isDeleted && seen.insert(ObjectIdentifier(object)).inserted {
            guard let query = SaveConflict.storedRowQuery(of: object, session: session) else { continue }
            if try !exists(query.sql, query.key) { gone.append(SaveConflict(object: object, keys: [], stored: nil)) }
        }
        return gone
    }

    /// The to-one links of the objects the request writes that name one of `gone` (rows
    /// another connection deleted), each with why a merge cannot clear it, nil when it
    /// can. A merge does what Core Data's delete propagation does with the object once it
    /// is deleted here: the link is cleared where the deleted object's rule for its way
    /// back is nullify and the link is optional; a required link, or a rule that would
    /// take the linking object with it (cascade), refuse it (deny), or leave it naming
    /// nothing (no inverse, noaction, setdefault), keeps the save from going through.
    func links(to gone: [ManagedObject], session: StoreSession) -> [GoneLink] {
        let goneIDs = Set(gone.map(ObjectIdentifier.init))
        guard !goneIDs.isEmpty else { return [] }
        var links: [GoneLink] = []
        for object in inserts + updates where !goneIDs.contains(ObjectIdentifier(object)) {
            let entity = session.currentEntity(of: object)
            for (name, target) in object.pendingToOne.sorted(by: { $0.key < $1.key }) {
                guard let target, goneIDs.contains(ObjectIdentifier(target)), let relationship = entity.relationship(named: name) else { continue }
                let back = relationship.inverse.flatMap { session.currentEntity(of: target).relationship(named: $0) }
                let reason: String?
                // Required by the model, or by its column (a file's NOT NULL key).
                let columns = relationship.linkColumns.compactMap { entity.attribute(named: $0) }
                if relationship.isRequired == true || columns.contains(where: { !$0.isOptional }) {
                    reason = "is required"
                } else if let back {
                    switch back.deleteRule {
                    case .nullify: reason = nil
                    case .cascade: reason = "would be deleted with it (\(target.entity.name).\(back.name) cascades)"
                    case .deny: reason = "keeps it from being deleted (\(target.entity.name).\(back.name) denies)"
                    case .noaction, .setdefault:
                        reason = "would name a row that is gone (\(target.entity.name).\(back.name) is \(back.deleteRule.rawValue))"
                    }
                } else {
                    reason = "would name a row that is gone (no inverse to nullify)"
                }
                links.append(GoneLink(object: object, name: name, target: target, refusal: reason))
            }
        }
        return links
    }
}

/// A to-one link, in a save, to an object whose row another connection deleted.
struct GoneLink {
    let object: ManagedObject
    let name: String
    let target: ManagedObject
    /// Why a merge cannot clear it; nil when it can.
    let refusal: String?
}

extension SaveChangesResult {
    /// Settles `conflicts` as the request's policy says: refused with nothing written
    /// (`error`), or the stored rows taken as the new snapshots, with the other side's keys
    /// winning under `store`; a row the other side deleted is neither updated nor deleted,
    /// and its object is deleted after the save (`gone`).
    ///
    /// A new or changed object's link to a row that is gone is cleared, as Core Data's
    /// nullify would clear it once the merge deletes the object here (`links(to:context:)`).
    /// Where that cannot be done, neither policy can save the object as it is: the
    /// conflict is refused whatever the policy, naming the link, and no merge is offered.
    package mutating func settle(_ found: [SaveConflict], session: StoreSession) throws {
        for merge in found where merge.isMerge {
            if let stored = merge.stored { adopted.append((merge.object, stored)) }
        }
        let conflicts = found.filter { !$0.isMerge }
        guard !conflicts.isEmpty else { return }
        let goneLinks = request.links(to: conflicts.filter { $0.stored == nil }.map(\.object), session: session)
        let held = goneLinks.filter { $0.refusal != nil }
        if request.policy == .error || !held.isEmpty {
            throw StoreError.conflict(
                conflicts.map { conflict in
                    ConflictedObject(
                        objectID: conflict.object.objectID, keys: conflict.keys.sorted(), deleted: conflict.stored == nil,
                        heldBy: held.filter { $0.target === conflict.object }.map { "\($0.object.objectID).\($0.name) \($0.refusal ?? "")" })
                })
        }
        // Cleared as the merge deletes their targets (the row is written with none).
        for link in goneLinks {
            link.object.pendingToOne[link.name] = .some(nil)
            let relationship = session.currentEntity(of: link.object).relationship(named: link.name)
            for column in relationship?.linkColumns ?? [] where session.currentEntity(of: link.object).attribute(named: column) != nil {
                link.object.pending[column] = .null
            }
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
        // Under "store", a delete of a row they changed since is theirs to keep, as a
        // change to a key they changed is: the row is not deleted.
        if request.policy == .store {
            let changed = Set(conflicts.filter { $0.stored != nil }.map { ObjectIdentifier($0.object) })
            kept = request.deletes.filter { changed.contains(ObjectIdentifier($0)) }
            request.deletes.removeAll { changed.contains(ObjectIdentifier($0)) }
        }
        request.links.removeAll { gone.contains(ObjectIdentifier($0.source)) || gone.contains(ObjectIdentifier($0.target)) }
        // Under "store", their values win for the keys they changed. A to-one is pending in
        // two places, the link (`pendingToOne`) and, on a file's key columns, the columns
        // it writes: both go, or the save wrote our link over theirs (issue 81).
        for object in request.updates {
            let entity = session.currentEntity(of: object)
            for key in dropped[ObjectIdentifier(object)] ?? [] {
                object.pending[key] = nil
                for relationship in entity.toOneRelationships where relationship.name == key || relationship.linkColumns.contains(key) {
                    object.pendingToOne[relationship.name] = nil
                    for column in relationship.linkColumns { object.pending[column] = nil }
                }
            }
        }
    }
}

extension Value {
    /// Whether two values read from a store are the same stored value: as `==`, and NaN
    /// the same as NaN (a PostgreSQL float or numeric column keeps NaN, which `==`
    /// would see as changed at every comparison).
    package static func sameStored(_ a: Value, _ b: Value) -> Bool {
        if case .real(let x) = a, case .real(let y) = b, x.isNaN, y.isNaN { return true }
        return a == b
    }
}
