/// A schema's views (and materialized views) as read-only entities, as a SQLite file's
/// views are (`ObjectContext+ForeignTables`): each column an attribute typed by the
/// server, an object per row. A row is known by the view's column named `id`, `rowid` or
/// `_pk` (else its first column, when an integer) if that column holds a distinct
/// integer in every row; otherwise by its place: a temporary view of the same name,
/// made for this session (and again with a new connection), adds the row's number and
/// shadows the schema's for the session's unqualified names, so nothing is written to the
/// schema. Saving an object of one is refused, as for a file's view.
extension PostgresStore {
    /// `columns`: the catalog's rows of the views' columns (view, column, type, ...), in
    /// order, as `introspect` read them with the tables'.
    func mapViews(_ columns: [[Value]], context: ObjectContext) throws {
        var order: [String] = []
        var byView: [String: [(name: String, type: String)]] = [:]
        for row in columns {
            guard let view = row[0].textValue, let name = row[1].textValue, let type = row[2].textValue else { continue }
            if byView[view] == nil { order.append(view) }
            byView[view, default: []].append((name, type))
        }
        for view in order where context.managedObjectModel.entitiesByName[view] == nil && !view.hasPrefix("quarry_") {
            let viewColumns = byView[view] ?? []
            do {
                try mapView(view, viewColumns, context: context)
            } catch {
                context.openingNotes.append("\(view) is left out: \(error)")
            }
        }
    }

    private func mapView(_ view: String, _ columns: [(name: String, type: String)], context: ObjectContext) throws {
        let names = columns.map(\.name)
        let types = columns.map { Self.attributeType($0.type) }
        let isInteger = { (type: AttributeType) in [.int16, .int32, .int64].contains(type) }
        let candidate = names.indices.first { ["id", "rowid", "_pk"].contains(names[$0].lowercased()) && isInteger(types[$0]) }
            ?? (types.first.map(isInteger) == true ? 0 : nil)
        let qualifiedView = qualified(view)
        var storage: EntityStorage
        if let candidate, try keyIsDistinct(qualifiedView, names[candidate], context) {
            storage = EntityStorage(layout: .foreignView, relation: view, keyColumn: names[candidate])
            storage.schema = schema
        } else {
            let lowered = Set(names.map { $0.lowercased() })
            guard let place = ["_row", "_row_", "_view_row"].first(where: { !lowered.contains($0) }) else { return }
            let kept = names.map(quoteIdentifier).joined(separator: ", ")
            // In pg_temp, which is searched before the schema for the unqualified name.
            try server(context).executeForSession(inTransaction: [
                "CREATE TEMP VIEW \(quoteIdentifier(view)) AS SELECT row_number() OVER () AS \(quoteIdentifier(place)), \(kept) FROM \(qualifiedView)",
            ])
            storage = EntityStorage(layout: .foreignView, relation: view, keyColumn: place)
        }
        for (name, type) in columns {
            if Self.attributeType(type) == .string, !Self.plainText.contains(type) { storage.textCasts.insert(name) }
            if type == "date" { storage.dayColumns.insert(name) }
        }
        let attributes = names.indices.map { AttributeDescription(name: names[$0], type: types[$0], isOptional: true) }
        context.remember(EntityDescription(name: view, attributes: attributes), storage: storage)
    }

    /// Whether `column` of the view is set in every row, no two alike.
    private func keyIsDistinct(_ view: String, _ column: String, _ context: ObjectContext) throws -> Bool {
        let c = quoteIdentifier(column)
        let sql = "SELECT NOT EXISTS (SELECT 1 FROM \(view) WHERE \(c) IS NULL) AND NOT EXISTS (SELECT 1 FROM \(view) GROUP BY \(c) HAVING count(*) > 1)"
        return try context.connection.scalar(sql)?.storedInteger == 1
    }
}
