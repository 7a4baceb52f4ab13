/// A join table another program made is an entity too (Sakila's `film_actor`, whose
/// `last_update` a link of the pair cannot give): its own rows, inserted, changed or
/// deleted and not yet saved, are links of the pair it gives (`actor.films`,
/// `film.actors`), as its own to-manys (`actor.film_actors`) already show them. Without
/// this, `#a.films` and `ANY actors.actor_id == 1` missed a new `film_actor` until the save.
extension ObjectContext {
    /// A pair of objects the pending rows behind `link` link, and by how many rows more
    /// (or fewer) than as saved: each row counts +1 for the pair it links now and -1 for
    /// the one it linked as saved, so rows that swap their ends, or a row deleted and
    /// another inserted for the same pair, change nothing.
    struct JoinRowChange {
        let source: ManagedObject
        let target: ManagedObject
        var rows: Int
    }

    /// The pairs whose number of rows behind `link` unsaved changes moved, in the order
    /// their rows come (inserted first, then by key).
    func pendingJoinRowChanges(_ link: String) -> [JoinRowChange] {
        guard !unsaved.inserted.isEmpty || !unsaved.updated.isEmpty || !unsaved.deleted.isEmpty else { return [] }
        // The join tables behind the link; only their rows are looked at, and sorted
        // (a loop reading members while thousands of other objects are pending).
        let tables = Set(entities.filter { mapped($0).pairLink == link }.map(\.name))
        guard !tables.isEmpty else { return [] }
        func behind(_ row: ManagedObject) -> Bool { tables.contains(row.entity.name) }
        let rows =
            unsaved.inserted.filter(behind) + Self.inKeyOrder(unsaved.updated.values.filter(behind))
            + Self.inKeyOrder(unsaved.deleted.values.filter(behind))
        var changes: [JoinRowChange] = []
        var places: [[ObjectIdentifier]: Int] = [:]
        func count(_ source: ManagedObject, _ target: ManagedObject, _ rows: Int) {
            let pair = [ObjectIdentifier(source), ObjectIdentifier(target)]
            if let place = places[pair] {
                changes[place].rows += rows
            } else {
                places[pair] = changes.count
                changes.append(JoinRowChange(source: source, target: target, rows: rows))
            }
        }
        for row in rows {
            // The ends as the link view reads them (`isUnlinkedJoinRow`).
            let storage = mapped(row.entity)
            let keys = currentEntity(of: row).toOneRelationships.filter { $0.column != nil }
            guard keys.count == 2, let s = keys.firstIndex(where: { $0.column == storage.pairSourceColumn }) else { continue }
            if !row.isInserted, let source = committedTarget(keys[s], of: row), let target = committedTarget(keys[1 - s], of: row) {
                count(source, target, -1)
            }
            if !row.isDeleted, let source = try? relatedObject(keys[s].name, of: row), let target = try? relatedObject(keys[1 - s].name, of: row) {
                count(source, target, 1)
            }
        }
        return changes.filter { $0.rows != 0 }
    }

    /// `members` of `object` through the pair's `link` (`saved`: as saved, a link held
    /// twice listed twice) with the join table's own unsaved rows: a member stays while
    /// any row links it. `mineIsSource`: whether `object` is the link view's source. (A
    /// positioned pair's new member comes last until the save places it.)
    func applyPendingJoinRows(
        to members: inout [ManagedObject], saved: [ManagedObject], link: String, mineIsSource: Bool, of object: ManagedObject
    ) {
        for change in pendingJoinRowChanges(link) {
            let (me, other) = mineIsSource ? (change.source, change.target) : (change.target, change.source)
            guard me === object else { continue }
            if saved.count(where: { $0 === other }) + change.rows > 0 {
                if !members.contains(where: { $0 === other }) { members.append(other) }
            } else {
                members.removeAll { $0 === other }
            }
        }
    }
}
