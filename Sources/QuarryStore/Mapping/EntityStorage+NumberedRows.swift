import QuarryModel

/// What every engine's table of rows known by a number made from their key (a PostgreSQL
/// table keyed by text, uuid or several columns; a SQLite table without a rowid) asks of
/// a write: a row's key is what its number is made from, so the key of a saved row stays
/// as saved (a new key would be another object), and a row written is found by its key
/// as saved, which the table's primary key index finds.
extension EntityStorage {
    /// The key columns among `names` (attributes being set): those a write may not change.
    public func keyChanges(_ names: some Sequence<String>) -> [String] {
        guard let keys = numberedRows?.keys else { return [] }
        return names.filter(keys.contains).sorted()
    }

    /// The key `object`'s row was saved with, in key order; nil when its rows are known
    /// otherwise or it has no key saved yet (a new row whose key the engine fills).
    package func savedKey(of object: ManagedObject) -> [Value]? {
        guard let keys = numberedRows?.keys else { return nil }
        let values = keys.map { object.committedValue($0) ?? .null }
        return values.contains(where: \.isNull) ? nil : values
    }

    /// The refusal of a write that changes `entity.column`, part of its rows' key: at a save
    /// or batch change, which writes nothing, or (`atSave` false) at the assignment, which
    /// leaves the object as it was.
    public static func keyChangeRefusal(_ entity: String, _ column: String, atSave: Bool = true) -> StoreError {
        .database(
            message:
                "\(entity).\(column) is the key its row is known by and cannot be changed (insert a new object with the new key and delete this one); "
                + (atSave ? "nothing was written" : "the object is unchanged")
        )
    }
}

extension StoreMapping {
    /// Refuses a save that changes the key of a saved object of such a table (`updated`:
    /// the save's changed objects), naming the first such column.
    package func refuseKeyChanges(of updated: [ManagedObject], operation: String) throws {
        for object in updated {
            let changed = object.pending.filter { !Value.sameStored($0.value, object.committedValue($0.key) ?? .null) }.keys
            if let name = storage(of: object.entity.name).keyChanges(changed).first {
                throw StoreError.during(operation: operation, EntityStorage.keyChangeRefusal(object.entity.name, name))
            }
        }
    }

    /// Refuses a batch change (`updateall`) that sets `keys` of `entity` where one is
    /// part of its rows' key. An import's columns are new rows' (it changes no saved key).
    package func refuseSettingKeys(_ keys: some Sequence<String>, of entity: String, operation: String) throws {
        guard operation != "import" else { return }
        if let name = storage(of: entity).keyChanges(keys).first {
            throw StoreError.during(operation: operation, EntityStorage.keyChangeRefusal(entity, name))
        }
    }
}
