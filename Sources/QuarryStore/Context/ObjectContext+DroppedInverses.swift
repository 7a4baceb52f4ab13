import QuarryModel

/// Redefining an entity without a relationship whose inverse another entity declares
/// (issue 60, item 9, as the contract's Context paragraph decides): the other end stays,
/// without an inverse, its links kept (a to-many's moved to a link table of its own,
/// `QuarryDefinition.moveLinks`; a to-one's column kept), and the redefined entity does
/// not get the relationship back as that end's inverse (`define`).
extension ObjectContext {
    /// The ends that lose their inverse when `definition` leaves relationships of the
    /// entity as declared out: each end's entity without that inverse, and the names of
    /// the relationships left out. Another program's tables have only derived inverses,
    /// which `tablesWithoutStaleInverses` drops; a relationship to the entity itself is
    /// the definition's own business.
    func endsLosingTheirInverse(by definition: EntityDescription) -> (dropped: Set<String>, ends: [EntityDescription]) {
        guard let existing = declaredEntity(definition.name) else { return ([], []) }
        var dropped: Set<String> = []
        var ends: [String: EntityDescription] = [:]
        for r in existing.relationships where definition.relationship(named: r.name) == nil && r.destination != definition.name {
            guard let inverse = r.inverse, store.keepsDeclaration(of: r.destination), !store.derivesInverses(of: r.destination),
                let other = ends[r.destination] ?? managedObjectModel.declaredEntity(r.destination),
                let back = other.relationship(named: inverse), back.destination == definition.name, back.inverse == r.name
            else { continue }
            dropped.insert(r.name)
            ends[other.name] = Self.withoutInverses(other, toward: definition.name, named: [r.name])
        }
        return (dropped, ends.values.sorted { $0.name < $1.name })
    }

    /// `changes` (the entities gaining inverses of a definition) with `ends` taken in,
    /// each without the inverses `dropped` names.
    static func merging(_ ends: [EntityDescription], into changes: [EntityDescription], toward entity: String, dropped: Set<String>)
        -> [EntityDescription]
    {
        guard !ends.isEmpty else { return changes }
        var byName = Dictionary(changes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for end in ends { byName[end.name] = byName[end.name].map { withoutInverses($0, toward: entity, named: dropped) } ?? end }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// `entity` with its relationships to `destination` whose inverse is one of `names`
    /// left without an inverse.
    private static func withoutInverses(_ entity: EntityDescription, toward destination: String, named names: Set<String>) -> EntityDescription {
        var result = entity
        for i in result.relationships.indices
        where result.relationships[i].destination == destination && result.relationships[i].inverse.map(names.contains) == true {
            result.relationships[i].inverse = nil
        }
        return result
    }
}
