import QuarryModel

/// How `diff` compares one object's rows in two stores, whichever way they were read
/// (every row merged, or the rows SQL found different, `ChangedRows`): each row is the
/// key's values (the first `keyCount`), then the compared attributes, then the to-ones'
/// target keys. An object in one store only is inserted or deleted; in both, each
/// attribute whose values differ (`DiffValues.equal`, with the attribute's tolerance) and
/// each to-one whose target differs is one change; a row whose entity differs (a Core Data
/// row now of another sub-entity) is an object deleted and another inserted.
struct RowComparison {
    /// The entity changes and insertions are reported under (the new side's), and deletions.
    let entity: String
    let deletedEntity: String
    let keyCount: Int
    let attributes: [String]
    let toOnes: [RelationshipDescription]
    /// Whether each row ends with its entity's name (`StoreDiff.rowEntity`).
    let rowEntities: Bool
    let tolerances: [Double?]
    let types: [AttributeType?]
    /// Entities the new model renamed (old name to new), by their renaming identifiers:
    /// a row of one is the same object under its new name.
    var renamed: [String: String] = [:]

    /// The changes between `was` (nil: the object is new) and `now` (nil: it was deleted).
    func changes(_ was: [Value]?, _ now: [Value]?) -> [ObjectChange] {
        guard let was else { return now.map { [whole(.inserted, entity, $0)] } ?? [] }
        let key = Array(was[0..<keyCount])
        guard let now else { return [whole(.deleted, deletedEntity, was)] }
        // Another entity under the same key is another object: the old one deleted from its
        // entity, the new one inserted into its own.
        if rowEntities, case .text(let from)? = was.last, case .text(let to)? = now.last, (renamed[from] ?? from) != to {
            return [whole(.deleted, from, was), whole(.inserted, to, now)]
        }
        var found: [ObjectChange] = []
        for (i, name) in attributes.enumerated() {
            let (p, q) = (was[keyCount + i], now[keyCount + i])
            if !DiffValues.equal(p, q, tolerance: tolerances[i]) {
                found.append(
                    ObjectChange(
                        .changed, entity: entity, key: key, property: name, old: DiffValues.shown(p, as: types[i]),
                        new: DiffValues.shown(q, as: types[i])))
            }
        }
        for (i, r) in toOnes.enumerated() {
            let (p, q) = (was[keyCount + attributes.count + i], now[keyCount + attributes.count + i])
            if !DiffValues.equal(p, q, tolerance: nil) {
                found.append(
                    ObjectChange(
                        .changed, entity: entity, key: key, property: r.name, old: StoreDiff.reference(r.destination, p),
                        new: StoreDiff.reference(r.destination, q)))
            }
        }
        return found
    }

    /// An object inserted or deleted, with its values as a changed row shows each one.
    private func whole(_ kind: ObjectChange.Kind, _ entity: String, _ row: [Value]) -> ObjectChange {
        var change = ObjectChange(kind, entity: entity, key: Array(row[0..<keyCount]))
        for (i, name) in attributes.enumerated() where keyCount + i < row.count && !row[keyCount + i].isNull {
            change.values.append(ObjectChange.Field(name: name, value: DiffValues.shown(row[keyCount + i], as: types[i])))
        }
        for (i, r) in toOnes.enumerated() where keyCount + attributes.count + i < row.count {
            let target = StoreDiff.reference(r.destination, row[keyCount + attributes.count + i])
            if !target.isNull { change.values.append(ObjectChange.Field(name: r.name, value: target, isReference: true)) }
        }
        return change
    }
}
