import QuarryModel

/// Relationships through existing columns: `relate()`, and a foreign file's keys
/// (`ForeignSchemaReader`), with the names the contract gives them.
extension ObjectContext {
    /// Whether `candidate` may be a new key of `entity`: none of its keys, nor its key
    /// column, in any case. No two keys of an entity differ only in case: a column
    /// `ReportsTo` beside a relationship `reportsTo` would read as one name and mean two.
    package func isFreeKey(_ candidate: String, in entity: EntityDescription) -> Bool {
        !entity.hasKey(candidate, ignoringCase: true) && candidate.lowercased() != mapped(entity).keyColumn.lowercased()
    }

    /// `relate("Flight", "carrier", "Airline", "carrier")`: a to-one relationship from
    /// `source` through its column to the `destination` rows whose `destinationColumn`
    /// matches, with its inverse to-many (`Airline.flights`, also read as `flight_set`, its
    /// name before issue 60), named as a foreign key is. Kept in the model of a
    /// store Quarry manages; for a file it did not create, in its sidecar (`ForeignSidecar`),
    /// which reopening replays (`keep` false), so the file's schema stays as it was.
    @discardableResult
    public func relate(
        _ source: String, _ sourceColumn: String, _ destinationName: String, _ destinationColumn: String,
        name: String? = nil, inverse: String? = nil, keep: Bool = true
    ) throws -> RelationshipDescription {
        let from = try entity(named: source)
        let to = try entity(named: destinationName)
        guard from.attribute(named: sourceColumn) != nil || sourceColumn == mapped(from).keyColumn else { throw from.unknownKey(sourceColumn) }
        guard to.attribute(named: destinationColumn) != nil || destinationColumn == mapped(to).keyColumn else {
            throw to.unknownKey(destinationColumn)
        }
        let targetKey = destinationColumn == mapped(to).keyColumn ? nil : destinationColumn
        // Kept from an earlier run (the model, the sidecar): the same call again is a no-op.
        if let kept = try keptRelation(
            from: from, column: sourceColumn, to: destinationName, targetKey: targetKey, name: name, inverse: inverse)
        {
            return kept
        }
        // Checked when asked for, not at each replay: opening reads no table whole.
        if keep { try refuseRepeatedValues(source, to, [destinationColumn]) }
        let relationship = try link(
            source, column: sourceColumn, to: destinationName, targetKey: targetKey, name: name,
            inverse: inverse, persist: store.keepsRelationInModel(from, to))
        if keep {
            do {
                try store.keep(
                    .relation(
                        ForeignSidecar.Relation(
                            source: source, column: sourceColumn, destination: destinationName,
                            destinationColumn: destinationColumn, name: name, inverse: inverse)), session: session)
            } catch {
                // A relationship that could not be kept is not made: the model stays as it was.
                remember(from)
                if source != destinationName { remember(to) }
                bumpGeneration()
                throw error
            }
        }
        store.didRelate(source, in: session)
        return relationship
    }

    func link(
        _ source: String, column: String, to destinationName: String, targetKey: String?, name: String?,
        inverse givenInverse: String? = nil, persist: Bool, inverseRule: DeleteRule = .nullify, numbered: Bool = false
    ) throws -> RelationshipDescription {
        var from = try entity(named: source)
        var to = try entity(named: destinationName)
        func free(_ name: String, in entity: EntityDescription) -> Bool { isFreeKey(name, in: entity) }
        // The names, one rule for a foreign key and relate() (`ForeignNaming.linkNames`),
        // with the names earlier rules gave the same link kept as other names.
        let names = ForeignNaming.linkNames(
            source: from, column: column, destination: to, parentColumn: targetKey ?? mapped(to).keyColumn, name: name,
            inverse: givenInverse, numbered: numbered, isFree: free)
        let (relationshipName, inverseName) = (names.relationship, names.inverse)
        guard free(relationshipName, in: from) else {
            throw StoreError.invalidSchema(entity: source, reason: "'\(relationshipName)' is taken; pass a name as the fifth argument")
        }
        // A name the user gave is used as given, or refused.
        guard free(inverseName, in: to), !(source == destinationName && inverseName == relationshipName) else {
            throw StoreError.invalidSchema(
                entity: destinationName, reason: "'\(inverseName)' is taken; pass another inverse name as the sixth argument")
        }
        let relationship = RelationshipDescription(
            name: relationshipName, destination: destinationName, inverse: inverseName,
            isToMany: false, column: column, targetKey: targetKey)
        from.appendRelationship(relationship)
        if source == destinationName { to = from }
        to.appendRelationship(
            RelationshipDescription(
                name: inverseName, destination: source, inverse: relationshipName, isToMany: true,
                deleteRule: inverseRule))
        to.alias(names.inverseAliases, to: inverseName)
        if source == destinationName { from = to }
        from.alias(names.relationshipAliases, to: relationshipName)
        if source == destinationName { to = from }
        if persist {
            try store.keep(.link(from: from, to: to, column: column, targetKey: targetKey), session: session)
        }
        remember(from)
        if source != destinationName { remember(to) }
        bumpGeneration()
        return relationship
    }
}

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

// MARK: - The ends a redefinition leaves without their inverse
