/// A join table another program made is an entity too (Sakila's `film_actor`, whose
/// `last_update` a link of the pair cannot give): its own rows, inserted, changed or
/// deleted and not yet saved, are links of the pair it gives (`actor.films`,
/// `film.actors`), as its own to-manys (`actor.film_actors`) already show them. Without
/// this, `#a.films` and `ANY actors.actor_id == 1` missed a new `film_actor` until the save.
extension ObjectContext {
    /// The links that unsaved changes to the rows behind the pair's `link` view add and
    /// remove, in the order of the rows (inserted first, then by key): a row's links as
    /// saved go, and its links as it is now come, where they differ.
    func pendingJoinRowLinks(_ link: String) -> [PendingLink] {
        guard !unsaved.inserted.isEmpty || !unsaved.updated.isEmpty || !unsaved.deleted.isEmpty else { return [] }
        var links: [PendingLink] = []
        for row in unsaved.inserted + Self.inKeyOrder(unsaved.updated.values) + Self.inKeyOrder(unsaved.deleted.values) {
            let storage = mapped(row.entity)
            guard storage.pairLink == link else { continue }
            // The ends as the link view reads them (`isUnlinkedJoinRow`).
            let keys = currentEntity(of: row).toOneRelationships.filter { $0.column != nil }
            guard keys.count == 2, let s = keys.firstIndex(where: { $0.column == storage.pairSourceColumn }) else { continue }
            var saved: (ManagedObject, ManagedObject)?
            if !row.isInserted, let source = committedTarget(keys[s], of: row), let target = committedTarget(keys[1 - s], of: row) {
                saved = (source, target)
            }
            var now: (ManagedObject, ManagedObject)?
            if !row.isDeleted, let source = try? relatedObject(keys[s].name, of: row), let target = try? relatedObject(keys[1 - s].name, of: row) {
                now = (source, target)
            }
            if let saved, let now, saved.0 === now.0, saved.1 === now.1 { continue }
            if let saved { links.append(PendingLink(table: link, source: saved.0, target: saved.1, isAdd: false)) }
            if let now { links.append(PendingLink(table: link, source: now.0, target: now.1, isAdd: true)) }
        }
        return links
    }
}
