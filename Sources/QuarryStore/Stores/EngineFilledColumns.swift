import QuarryModel

/// The columns a new row leaves for its engine to fill: those whose default is an
/// expression (`DEFAULT (datetime('now'))`, `DEFAULT now()`), which Quarry never
/// evaluates, and which the object was not given a value for. sqlite3 and psql leave such
/// a column out of the INSERT and the engine fills it; writing NULL there instead refused
/// every new object of a NOT NULL column, and lost the value of a nullable one (issue 60,
/// item 7). A value given, nil included, is written as given.
package enum EngineFilledColumns {
    /// In the entity's attribute order, so objects leaving out the same columns write the
    /// same statement.
    package static func of(
        _ object: ManagedObject, _ entity: EntityDescription, _ storage: EntityStorage, keys: SaveChangesRequest.Keys,
        session: StoreSession
    ) -> [String] {
        guard !storage.engineDefaults.isEmpty else { return [] }
        return entity.attributeNames.filter { name in
            guard storage.engineDefaults.contains(name), !storage.generated.contains(name), object.pending[name] == nil else { return false }
            // A link kept in the column, set through its relationship, is a value given.
            if entity.toOneRelationships.contains(where: { $0.keepsLink(in: name) && object.pendingToOne[$0.name] != nil }) { return false }
            return session.insertedValue(object, name, keys: keys).isNull
        }
    }
}
