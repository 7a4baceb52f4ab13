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

extension ColumnAffinity {

    /// Whether SQLite's `target = owner` holds for an owner column of affinity `ownAffinity`
    /// holding `owner` and a destination column of affinity `targetAffinity` holding
    /// `target` (each as its column stores it): numeric affinity is given to the side
    /// that has none of its own against a numeric column, TEXT affinity to an untyped
    /// side against a TEXT column; then numbers compare as numbers, text by `collation`
    /// (NOCASE folds ASCII letters, RTRIM leaves out trailing spaces), and values of
    /// different kinds, or NULL, are not equal.
    static func joinEquals(
        _ owner: Value, _ ownAffinity: ColumnAffinity?, _ target: Value, _ targetAffinity: ColumnAffinity?, collation: String?
    ) -> Bool {
        var (l, r) = (target, owner)
        if let ownAffinity, let targetAffinity {
            if ownAffinity.isNumericAffinity, !targetAffinity.isNumericAffinity {
                l = ColumnAffinity.numeric.stored(l)
            } else if targetAffinity.isNumericAffinity, !ownAffinity.isNumericAffinity {
                r = ColumnAffinity.numeric.stored(r)
            } else if ownAffinity == .text, targetAffinity == .none {
                l = ColumnAffinity.text.stored(l)
            } else if targetAffinity == .text, ownAffinity == .none {
                r = ColumnAffinity.text.stored(r)
            }
        }
        switch (l, r) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer(let a), .real(let b)): return Double(a) == b
        case (.real(let a), .integer(let b)): return a == Double(b)
        case (.real(let a), .real(let b)): return a == b
        case (.text(let a), .text(let b)): return collated(a, collation) == collated(b, collation)
        case (.blob(let a), .blob(let b)): return a == b
        default: return false
        }
    }

    private var isNumericAffinity: Bool { self == .integer || self == .real || self == .numeric }

    /// Text's bytes as SQLite's collation compares them.
    private static func collated(_ text: String, _ collation: String?) -> [UInt8] {
        var bytes = Array(text.utf8)
        switch collation {
        case "NOCASE": bytes = bytes.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }
        case "RTRIM": while bytes.last == 0x20 { bytes.removeLast() }
        default: break
        }
        return bytes
    }
}
