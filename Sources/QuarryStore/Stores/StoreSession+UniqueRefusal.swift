import QuarryModel

/// A row a UNIQUE constraint refused, named on every engine: the values the refused
/// object gave the constraint's columns, the object, and another object new in the same
/// save that gives the same values (its row is in the refused transaction under no key of
/// its own outside it). Where the holder is a row saved before, the engine names it
/// where it can read it (SQLite, inside the open transaction).
extension StoreSession {
    /// `violation` with the refused row's parts, where it is a uniqueness whose columns
    /// are all among `names` (the statement's columns, `values` their values, in order);
    /// nil otherwise.
    package func namingRefusal(_ violation: ConstraintViolation, of object: ManagedObject, names: [String], values: [Value])
        -> ConstraintViolation?
    {
        guard violation.kind == .unique, !violation.columns.isEmpty else { return nil }
        let given = violation.columns.compactMap { column in names.firstIndex(of: column).flatMap { $0 < values.count ? values[$0] : nil } }
        guard given.count == violation.columns.count else { return nil }
        var named = violation
        named.values = given
        named.object = object.objectID
        let columns = violation.columns
        let twin = unsavedInserts.first { other in
            other !== object && other.entity.name == object.entity.name && columns.allSatisfy { other.currentValue($0) == object.currentValue($0) }
        }
        if let twin {
            named.heldBy = twin.objectID
            named.heldByNewObject = true
        }
        return named
    }
}
