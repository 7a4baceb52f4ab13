/// A schema's views (and materialized views) as read-only entities, as a SQLite file's
/// views are (`ForeignSchema+Views` decides their key for both): each column an attribute typed by the
/// server, an object per row. A row is known by the view's column named `id`, `rowid` or
/// `_pk` (else its first column, when an integer) if that column holds a distinct
/// integer in every row; otherwise by its place: a temporary view of the same name,
/// made for this session (and again with a new connection), adds the row's number and
/// shadows the schema's for the session's unqualified names, so nothing is written to the
/// schema. Saving an object of one is refused, as for a file's view.
extension PostgresStore {
    /// The schema's views as its description has them (`PostgresStore+Catalog`).
    func mapViews(_ catalog: ForeignSchema, context: ObjectContext) throws {
        for view in catalog.views where context.managedObjectModel.entitiesByName[view.name] == nil && !view.name.hasPrefix("quarry_") {
            do {
                try mapView(view, context: context)
            } catch {
                context.openingNotes.append("\(view.name) is left out: \(error)")
            }
        }
    }

    private func mapView(_ relation: ForeignSchema.Relation, context: ObjectContext) throws {
        let (view, columns) = (relation.name, relation.columns)
        let names = columns.map(\.name)
        let types = columns.map { Self.attributeType($0.declaredType) }
        let candidate = ForeignSchema.viewKeyCandidate(names, types)
        let qualifiedView = qualified(view)
        var storage: EntityStorage
        if let candidate, try keyIsDistinct(qualifiedView, names[candidate], context) {
            storage = EntityStorage(layout: .foreignView, relation: view, keyColumn: names[candidate])
            storage.schema = schema
        } else {
            guard let place = ForeignSchema.viewPlaceColumn(names) else { return }
            let kept = names.map(quoteIdentifier).joined(separator: ", ")
            // In pg_temp, which is searched before the schema for the unqualified name.
            try server(context).executeForSession(inTransaction: [
                "CREATE TEMP VIEW \(quoteIdentifier(view)) AS SELECT row_number() OVER () AS \(quoteIdentifier(place)), \(kept) FROM \(qualifiedView)",
            ])
            storage = EntityStorage(layout: .foreignView, relation: view, keyColumn: place)
        }
        for column in columns { Self.noteType(of: column, in: &storage) }
        let attributes = columns.indices.map { columns[$0].viewAttribute(types[$0]) }
        context.remember(EntityDescription(name: view, attributes: attributes), storage: storage)
    }

    /// Whether `column` of the view is set in every row, no two alike.
    private func keyIsDistinct(_ view: String, _ column: String, _ context: ObjectContext) throws -> Bool {
        let c = quoteIdentifier(column)
        let sql = "SELECT NOT EXISTS (SELECT 1 FROM \(view) WHERE \(c) IS NULL) AND NOT EXISTS (SELECT 1 FROM \(view) GROUP BY \(c) HAVING count(*) > 1)"
        return try context.connection.scalar(sql)?.storedInteger == 1
    }
}
