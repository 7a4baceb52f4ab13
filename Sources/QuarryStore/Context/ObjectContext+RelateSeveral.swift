import QuarryModel

/// `relate()` to columns that name one row (issue 85, item 4): a destination column that
/// is neither the key nor unique gives each source row one of several possible targets,
/// and the inverse counts every pairing (128 items for a player who has 32), so it is
/// refused, naming a repeated value. Where the destination's rows are known by several
/// columns (`inv(player, inv_id)`), `relate()` takes lists of columns and makes a to-one
/// matched on all of them, as a foreign key of several columns is.
extension ObjectContext {
    /// `relate("item", { "player", "inv_id" }, "inv", { "player", "inv_id" })`: a to-one
    /// from `source` to the `destination` row whose `destinationColumns` hold the values of
    /// `sourceColumns`, with its inverse to-many, named as a foreign key of several columns
    /// is (`ForeignNaming.compositeRelationshipName`). Kept as `relate()` of one column is.
    @discardableResult
    public func relate(
        _ source: String, _ sourceColumns: [String], _ destinationName: String, _ destinationColumns: [String],
        name: String? = nil, inverse: String? = nil, keep: Bool = true
    ) throws -> RelationshipDescription {
        if sourceColumns.count == 1, destinationColumns.count == 1 {
            return try relate(source, sourceColumns[0], destinationName, destinationColumns[0], name: name, inverse: inverse, keep: keep)
        }
        guard !sourceColumns.isEmpty, sourceColumns.count == destinationColumns.count else {
            throw StoreError.invalidSchema(
                entity: source,
                reason:
                    "relate: \(sourceColumns.count) columns of \(source) for \(destinationColumns.count) of \(destinationName); give as many of each")
        }
        var from = try entity(named: source)
        var to = try entity(named: destinationName)
        for column in sourceColumns where from.attribute(named: column) == nil { throw from.unknownKey(column) }
        for column in destinationColumns where to.attribute(named: column) == nil { throw to.unknownKey(column) }
        if store.keepsRelationInModel(from, to) {
            throw StoreError.invalidSchema(
                entity: source,
                reason:
                    "relate: a link through several columns is made between another program's tables; between Quarry's own entities, define a relationship"
            )
        }
        if let kept = from.toOneRelationships.first(where: {
            $0.columns == sourceColumns && $0.targetKeys == destinationColumns && $0.destination == destinationName
                && (name == nil || $0.name == name) && (inverse == nil || $0.inverse == inverse)
        }) {
            return kept
        }
        if keep { try refuseRepeatedValues(source, to, destinationColumns) }
        let same = source == destinationName
        let relationshipName =
            name ?? ForeignNaming.compositeRelationshipName(columns: sourceColumns, destination: destinationName) { isFreeKey($0, in: from) }
        guard isFreeKey(relationshipName, in: from) else {
            throw StoreError.invalidSchema(entity: source, reason: "'\(relationshipName)' is taken; pass a name as the fifth argument")
        }
        let inverseName =
            inverse
            ?? ForeignNaming.inverseName(source: source, relationship: relationshipName, selfReference: same) {
                isFreeKey($0, in: to) && !(same && $0 == relationshipName)
            }
        guard isFreeKey(inverseName, in: to), !(same && inverseName == relationshipName) else {
            throw StoreError.invalidSchema(
                entity: destinationName, reason: "'\(inverseName)' is taken; pass another inverse name as the sixth argument")
        }
        var relationship = RelationshipDescription(
            name: relationshipName, destination: destinationName, inverse: inverseName, isToMany: false,
            column: sourceColumns[0], targetKey: destinationColumns[0])
        relationship.columns = sourceColumns
        relationship.targetKeys = destinationColumns
        from.appendRelationship(relationship)
        if same { to = from }
        to.appendRelationship(RelationshipDescription(name: inverseName, destination: source, inverse: relationshipName, isToMany: true))
        if same { from = to }
        if keep {
            var relation = ForeignSidecar.Relation(
                source: source, column: sourceColumns[0], destination: destinationName, destinationColumn: destinationColumns[0],
                name: name, inverse: inverse)
            (relation.columns, relation.destinationColumns) = (sourceColumns, destinationColumns)
            try store.keep(.relation(relation), session: session)
        }
        remember(from)
        if !same { remember(to) }
        bumpGeneration()
        store.didRelate(source, in: session)
        return relationship
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
}
