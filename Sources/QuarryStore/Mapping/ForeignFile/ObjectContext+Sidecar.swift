import GRDB

/// Reading and writing a foreign file's sidecar (`ForeignSidecar`): the entities imported
/// into the file and the `relate()` calls, restored at each open.
extension ObjectContext {
    /// The entities the sidecar defines whose table the file still has, as `quarry_model`'s
    /// rows are read for Quarry's own files.
    func loadSidecarEntities() throws {
        for (name, definition) in sidecar.entities {
            // A sub-entity is a view over its root's table.
            let present = try? read { db in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master WHERE type IN ('table', 'view') AND name = ?)", arguments: [name])
            }
            guard present == true else { continue }
            guard let entity = (try? StoredDefinition(text: definition))?.entity else {
                throw StoreError.database(message: "the model of entity \(name) in \(ForeignSidecar.path(for: path ?? "")) is unreadable")
            }
            remember(entity)
            declaredByName[entity.name] = entity
        }
        if declaredByName.values.contains(where: { $0.parent != nil }) { rememberEffective(entityOrder) }
    }

    /// Repeats the sidecar's `relate()` calls; one that no longer applies (a column
    /// dropped, a table renamed) is left out with a note, and kept for a later open.
    func restoreSidecarRelations() {
        for r in sidecar.relations {
            do {
                try relate(r.source, r.column, r.destination, r.destinationColumn, name: r.name, inverse: r.inverse, keep: false)
            } catch {
                openingNotes.append("relate(\"\(r.source)\", \"\(r.column)\", \"\(r.destination)\", \"\(r.destinationColumn)\") kept in \(ForeignSidecar.path(for: path ?? "")) no longer applies: \(error)")
            }
        }
    }

    /// Adds a `relate()` call to the sidecar (once). A read-only open keeps it in memory.
    func keepInSidecar(_ relation: ForeignSidecar.Relation) throws {
        guard let path, !isReadOnly, !sidecar.relations.contains(relation) else { return }
        var next = sidecar
        next.relations.append(relation)
        try next.save(for: path)
        sidecar = next
    }

    /// Adds or replaces an entity's definition in the sidecar.
    func keepInSidecar(_ name: String, definition: String) throws {
        guard let path else { return }
        var next = sidecar
        if let i = next.entities.firstIndex(where: { $0.name == name }) { next.entities[i].definition = definition }
        else { next.entities.append((name, definition)) }
        try next.save(for: path)
        sidecar = next
    }
}
