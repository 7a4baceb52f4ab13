import QuarryModel
import QuarryStore

extension StoreDiff {
    /// `entity`'s to-many relationships whose members both stores keep in an order (Core
    /// Data's ordered relationships), where the owners are known by their row keys.
    static func orderedRelationships(
        _ old: ObjectContext, _ a: EntityDescription, _ new: ObjectContext, _ b: EntityDescription, identity: DiffIdentity
    ) -> [RelationshipDescription] {
        guard identity.attributes.isEmpty else { return [] }
        return a.relationships.filter { r in
            r.isToMany && old.store.isOrdered(r.name, of: a.name) && b.relationship(named: r.name)?.isToMany == true
                && new.store.isOrdered(r.name, of: b.name)
        }
    }

    /// The moves within each ordered relationship of the object keyed `key` in both stores:
    /// among the members both orders hold, those outside the longest run kept in the same
    /// relative order (the fewest members that, moved, turn one order into the other),
    /// each with its place before and after (1-based). Members added or removed are the
    /// to-one's or the links' changes, reported there.
    mutating func compareOrder(
        _ old: ObjectContext, _ a: EntityDescription, _ new: ObjectContext, _ b: EntityDescription, key: Int64,
        relationships: [RelationshipDescription]
    ) throws {
        guard let owner = try old.object(entityName: a.name, primaryKey: key),
            let other = try new.object(entityName: b.name, primaryKey: key)
        else { return }
        for r in relationships {
            let before = try old.relatedObjects(r.name, of: owner).compactMap(\.primaryKey)
            let after = try new.relatedObjects(r.name, of: other).compactMap(\.primaryKey)
            guard before != after else { continue }
            let placeAfter = Dictionary(after.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let common = before.filter { placeAfter[$0] != nil }
            let kept = Self.longestIncreasingRun(common.compactMap { placeAfter[$0] })
            let placeBefore = Dictionary(before.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            for (i, member) in common.enumerated() where !kept.contains(i) {
                let reference = "\(r.destination)/\(member)"
                changes.append(
                    ObjectChange(
                        .changed, entity: b.name, key: [.integer(key)], property: r.name,
                        old: .text("\(reference) at \((placeBefore[member] ?? 0) + 1)"),
                        new: .text("\(reference) at \((placeAfter[member] ?? 0) + 1)")))
            }
        }
    }

    /// The indexes of a longest strictly increasing subsequence of `values`.
    package static func longestIncreasingRun(_ values: [Int]) -> Set<Int> { Set(longestIncreasingIndexes(values)) }
}
