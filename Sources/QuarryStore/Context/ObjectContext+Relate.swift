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
        try relate(source, [sourceColumn], destinationName, [destinationColumn], name: name, inverse: inverse, keep: keep)
    }

    /// The same through columns that name one row (issue 85, item 4): a destination column
    /// that is neither the key nor unique would give each source row one of several
    /// possible targets, and the inverse would count every pairing (128 items for a player
    /// who has 32), so it is refused, naming a repeated value. Where the destination's rows
    /// are known by several columns (`inv(player, inv_id)`), lists of columns make a to-one
    /// matched on all of them, as a foreign key of several columns is:
    /// `relate("item", { "player", "inv_id" }, "inv", { "player", "inv_id" })`.
    @discardableResult
    public func relate(
        _ source: String, _ sourceColumns: [String], _ destinationName: String, _ destinationColumns: [String],
        name: String? = nil, inverse: String? = nil, keep: Bool = true
    ) throws -> RelationshipDescription {
        guard !sourceColumns.isEmpty, sourceColumns.count == destinationColumns.count else {
            throw StoreError.invalidSchema(
                entity: source,
                reason:
                    "relate: \(sourceColumns.count) columns of \(source) for \(destinationColumns.count) of \(destinationName); give as many of each")
        }
        let from = try entity(named: source)
        let to = try entity(named: destinationName)
        // One column may be the key Quarry knows the rows by; several are attributes.
        let single = sourceColumns.count == 1
        for column in sourceColumns where from.attribute(named: column) == nil && !(single && column == mapped(from).keyColumn) {
            throw from.unknownKey(column)
        }
        for column in destinationColumns where to.attribute(named: column) == nil && !(single && column == mapped(to).keyColumn) {
            throw to.unknownKey(column)
        }
        if !single, store.keepsRelationInModel(from, to) {
            throw StoreError.invalidSchema(
                entity: source,
                reason:
                    "relate: a link through several columns is made between another program's tables; between Quarry's own entities, define a relationship"
            )
        }
        let targetKeys = destinationColumns == [mapped(to).keyColumn] ? nil : destinationColumns
        // Kept from an earlier run (the model, the sidecar): the same call again is a no-op.
        if let kept = try keptRelation(from: from, columns: sourceColumns, to: destinationName, targetKeys: targetKeys, name: name, inverse: inverse)
        {
            return kept
        }
        // Checked when asked for, not at each replay: opening reads no table whole.
        if keep { try refuseRepeatedValues(source, to, destinationColumns) }
        let apart = !store.keepsRelationInModel(from, to)
        let before = apart ? relationshipNames() : []
        defer { if apart { relationshipsDeclaredApart.formUnion(relationshipNames().subtracting(before)) } }
        // In a file another program made, the same kind of relationship as a foreign key
        // declared with no action, whose parent a delete leaves alone while children refer
        // to it (SQLite's NO ACTION): the children's column is that program's data (a
        // producer's name), which a nullify rule cleared on every row naming the deleted
        // object. Quarry's own files keep Core Data's nullify.
        let relationship = try link(
            source, columns: sourceColumns, to: destinationName, targetKeys: targetKeys, name: name,
            inverse: inverse, persist: store.keepsRelationInModel(from, to), inverseRule: apart ? .deny : .nullify)
        if keep {
            var relation = ForeignSidecar.Relation(
                source: source, column: sourceColumns[0], destination: destinationName,
                destinationColumn: destinationColumns[0], name: name, inverse: inverse)
            if !single { (relation.columns, relation.destinationColumns) = (sourceColumns, destinationColumns) }
            do {
                try store.keep(.relation(relation), session: session)
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

    /// Every relationship of the model, as `Entity.name`.
    private func relationshipNames() -> Set<String> {
        Set(entities.flatMap { entity in entity.relationships.map { entity.name + "." + $0.name } })
    }

    /// Refuses `destination`'s `columns` when a value (a combination, for several) is in
    /// more than one of its rows: a link through them would name several rows. Its key
    /// holds each value once; NULLs name no row and are left out.
    func refuseRepeatedValues(_ source: String, _ destination: EntityDescription, _ columns: [String]) throws {
        let storage = mapped(destination)
        guard columns != [storage.keyColumn] else { return }
        let quoted = columns.map { storage.column($0) }
        let list = quoted.joined(separator: ", ")
        let sql =
            "SELECT \(list), count(*) FROM \(storage.table) WHERE " + quoted.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
            + " GROUP BY \(list) HAVING count(*) > 1 LIMIT 1"
        guard let row = try connection.row(sql), row.count == columns.count + 1 else { return }
        let value = zip(columns, row).map { column, value in
            let shown = value.kindName == "string" ? "'\(value.displayString)'" : value.displayString
            return columns.count == 1 ? shown : "\(column) = \(shown)"
        }.joined(separator: ", ")
        let article = source.first.map { "aeiouAEIOU".contains($0) } == true ? "an " : "a "
        let named = columns.count == 1 ? "\(destination.name).\(columns[0])" : "(\(columns.joined(separator: ", ")))"
        throw StoreError.invalidSchema(
            entity: destination.name,
            reason: "relate: \(named) is neither the key of \(destination.name) nor unique: \(value) is in \(row[columns.count].displayString) rows, "
                + "so \(article)\(source) row would name several; relate to columns that name one row (lists for several: { \"a\", \"b\" })")
    }

    /// The to-one from `source` through `columns` to the `destinationName` rows whose
    /// `targetKeys` hold their values (nil: its key), and its inverse to-many, for
    /// `relate()` and a foreign key alike. One column is named by the one rule
    /// (`ForeignNaming.linkNames`), the names earlier rules gave kept as other names;
    /// several as a foreign key of several columns is (`compositeRelationshipName`).
    /// `persist`: kept in the store's own model (one column between Quarry's entities).
    @discardableResult
    func link(
        _ source: String, columns: [String], to destinationName: String, targetKeys: [String]?, name: String?,
        inverse givenInverse: String? = nil, persist: Bool, inverseRule: DeleteRule = .nullify, numbered: Bool = false
    ) throws -> RelationshipDescription {
        var from = try entity(named: source)
        var to = try entity(named: destinationName)
        let same = source == destinationName
        func free(_ name: String, in entity: EntityDescription) -> Bool { isFreeKey(name, in: entity) }
        let names: ForeignNaming.LinkNames
        if columns.count == 1 {
            names = ForeignNaming.linkNames(
                source: from, column: columns[0], destination: to, parentColumn: targetKeys?.first ?? mapped(to).keyColumn, name: name,
                inverse: givenInverse, numbered: numbered, isFree: free)
        } else {
            let relationshipName =
                name ?? ForeignNaming.compositeRelationshipName(columns: columns, destination: destinationName) { free($0, in: from) }
            let inverseName =
                givenInverse
                ?? ForeignNaming.inverseName(source: source, relationship: relationshipName, selfReference: same) {
                    free($0, in: to) && !(same && $0 == relationshipName)
                }
            names = ForeignNaming.LinkNames(relationship: relationshipName, inverse: inverseName)
        }
        let (relationshipName, inverseName) = (names.relationship, names.inverse)
        guard free(relationshipName, in: from) else {
            throw StoreError.invalidSchema(entity: source, reason: "'\(relationshipName)' is taken; pass a name as the fifth argument")
        }
        // A name the user gave is used as given, or refused.
        guard free(inverseName, in: to), !(same && inverseName == relationshipName) else {
            throw StoreError.invalidSchema(
                entity: destinationName, reason: "'\(inverseName)' is taken; pass another inverse name as the sixth argument")
        }
        var relationship = RelationshipDescription(
            name: relationshipName, destination: destinationName, inverse: inverseName,
            isToMany: false, column: columns[0], targetKey: targetKeys?[0])
        if columns.count > 1 { (relationship.columns, relationship.targetKeys) = (columns, targetKeys) }
        from.appendRelationship(relationship)
        if same { to = from }
        to.appendRelationship(
            RelationshipDescription(
                name: inverseName, destination: source, inverse: relationshipName, isToMany: true,
                deleteRule: inverseRule))
        to.alias(names.inverseAliases, to: inverseName)
        if same { from = to }
        from.alias(names.relationshipAliases, to: relationshipName)
        if same { to = from }
        if persist, columns.count == 1 {
            try store.keep(.link(from: from, to: to, column: columns[0], targetKey: targetKeys?[0]), session: session)
        }
        remember(from)
        if !same { remember(to) }
        if persist, columns.count == 1 {
            declare(relationshipName, of: from)
            declare(inverseName, of: same ? from : to)
        }
        bumpGeneration()
        return relationship
    }

    /// Puts the relationship `name` of `entity` (as objects see it) in its declaration
    /// too, where the store keeps one: `.schema` prints declarations, and reopening the
    /// file reads the link into them, so without this a `relate()` made in the session was
    /// missing from `.schema` (and `Item:swift()`) until the file was opened again.
    private func declare(_ name: String, of entity: EntityDescription) {
        guard var declared = managedObjectModel.declaredByName[entity.name], declared.relationship(named: name) == nil,
            let relationship = entity.relationship(named: name)
        else { return }
        declared.appendRelationship(relationship)
        for (other, target) in entity.relationshipAliases where target == name { declared.relationshipAliases[other] = target }
        managedObjectModel.setDeclared(declared, named: entity.name)
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
        from: EntityDescription, columns: [String], to destination: String, targetKeys: [String]?, name: String?, inverse: String?
    ) throws -> RelationshipDescription? {
        func sameLink(_ kept: RelationshipDescription) -> Bool {
            guard !kept.isToMany, kept.destination == destination, inverse == nil || kept.inverse == inverse else { return false }
            guard let composite = kept.compositeKey else {
                return columns.count == 1 && kept.column == columns[0] && kept.targetKey == targetKeys?.first
            }
            return composite.columns == columns && composite.targetKeys == targetKeys
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
