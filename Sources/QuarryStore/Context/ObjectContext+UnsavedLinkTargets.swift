import QuarryModel

/// A link matched by value (`relate()`, or a foreign key naming a column that is not the
/// rowid) reads its target from the saved rows. A row inserted since the save has none
/// yet, so a link column set to name it (`st.stop_id = "X1"` after
/// `stops:new{ stop_id = "X1" }`) read as naming nothing until the save: `st.stop` was
/// nil, `s.stop_times` empty, and the in-memory evaluation of `stop == nil` or
/// `stop.stop_name == ...` disagreed with the SQL that runs after the save. The join
/// finds the saved row first (the lowest key); where none matches, the save will give
/// the first unsaved object that matches the lowest of the new keys.
extension ObjectContext {

    /// The first object inserted since the save (in the order of its insertion) of
    /// `destination` whose `targetKey` holds `value` as the link's join compares them.
    func unsavedValueMatchedTarget(
        _ name: String, value: Value, of object: ManagedObject, _ destination: EntityDescription, _ targetKey: String
    ) -> ManagedObject? {
        let candidates = unsaved.inserted.lazy.filter { !$0.isDeleted && self.isKind($0.entity.name, of: destination.name) }
        guard candidates.first != nil else { return nil }
        let owner = currentEntity(of: object)
        let column = owner.relationship(named: name)?.column
        let ownAffinity = column.flatMap { owner.attribute(named: $0) }.flatMap { ColumnAffinity(of: $0, in: mapped(owner)) }
        let targetStorage = mapped(destination)
        let targetAffinity = destination.attribute(named: targetKey).flatMap { ColumnAffinity(of: $0, in: targetStorage) }
        // The join `target = owner` compares with the destination column's collation.
        let collation = (targetStorage.collations[targetKey] ?? targetStorage.columnCollations[targetKey])?.uppercased()
        return candidates.first { candidate in
            let held = targetAffinity.map { $0.stored(candidate.currentValue(targetKey)) } ?? candidate.currentValue(targetKey)
            return ColumnAffinity.joinEquals(value, ownAffinity, held, targetAffinity, collation: collation)
        }
    }
}
