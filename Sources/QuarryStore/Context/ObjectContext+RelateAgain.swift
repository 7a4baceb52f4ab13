import QuarryModel

/// `relate()` run again, as a script run twice does (issue 60, item 5): the call is kept
/// (in the model of a store Quarry manages, in a foreign file's sidecar, replayed at each
/// open), so the second run finds its relationship already there. The same call is a
/// no-op; one that asks for a kept name with other columns or another target is refused,
/// naming what the name is kept as.
extension ObjectContext {
    /// The relationship an earlier `relate()` with these arguments made (or a foreign key
    /// that gives the same link, for an unnamed call), or nil when there is none; throws
    /// when `name` is kept for another link.
    func keptRelation(
        from: EntityDescription, column: String, to destination: String, targetKey: String?, name: String?, inverse: String?
    ) throws -> RelationshipDescription? {
        func sameLink(_ kept: RelationshipDescription) -> Bool {
            !kept.isToMany && kept.compositeKey == nil && kept.column == column && kept.destination == destination
                && kept.targetKey == targetKey && (inverse == nil || kept.inverse == inverse)
        }
        guard let name else { return from.toOneRelationships.first(where: sameLink) }
        guard let kept = from.relationships.first(where: { $0.name == name }) else { return nil }
        if sameLink(kept) { return kept }
        throw StoreError.invalidSchema(
            entity: from.name,
            reason: "relate: '\(name)' is kept as \(describe(kept, of: from)); the same relate() again is a no-op, "
                + "another link needs another name")
    }

    /// `Visit.page (url → urls.id, inverse visits_set)`, as the refusal names a kept relationship.
    private func describe(_ kept: RelationshipDescription, of source: EntityDescription) -> String {
        let inverse = kept.inverse.map { ", inverse \($0)" } ?? ""
        guard !kept.isToMany, let column = kept.column else {
            return "\(source.name).\(kept.name) (\(kept.isToMany ? "to-many" : "to-one") \(kept.destination)\(inverse))"
        }
        let target =
            kept.targetKey
            ?? (try? entity(named: kept.destination)).map { mapped($0).keyColumn } ?? "key"
        return "\(source.name).\(kept.name) (\(column) → \(kept.destination).\(target)\(inverse))"
    }
}
