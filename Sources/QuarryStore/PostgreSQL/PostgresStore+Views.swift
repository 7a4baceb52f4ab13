/// A schema's views (and materialized views) as read-only entities, as a SQLite file's
/// views are (`ForeignSchema+Views` decides their key for both): each column an attribute typed by the
/// server, an object per row. A row is known by the view's column named `id`, `rowid` or
/// `_pk` (else its first column, when an integer) if that column holds a distinct
/// integer in every row; otherwise by its place. The entity reads a temporary view of the
/// session, `pg_temp."quarry_rows <view>"`, whose first column is the row's key, so nothing
/// is written to the schema and SQL a person writes reads the schema's view as it is.
/// Deciding the key reads the whole view, seconds for a grouping over millions of rows,
/// so the temporary view is made when SQL first reads it (`DeferredViews`), and again with
/// a new connection. Saving an object of one is refused, as for a file's view.
extension PostgresStore {
    /// The schema's views as its description has them (`PostgresStore+Catalog`).
    func mapViews(_ catalog: ForeignSchema, context: ObjectContext) throws {
        for view in catalog.views where context.managedObjectModel.entitiesByName[view.name] == nil && !view.name.hasPrefix("quarry_") {
            do {
                try mapView(view, taken: Set(catalog.relations.keys), context: context)
            } catch {
                context.openingNotes.append("\(view.name) is left out: \(error)")
            }
        }
    }

    private func mapView(_ relation: ForeignSchema.Relation, taken: Set<String>, context: ObjectContext) throws {
        let (view, columns) = (relation.name, relation.columns)
        let names = columns.map(\.name)
        let types = columns.map { Self.attributeType($0.declaredType) }
        let source = qualified(view)
        // In pg_temp, which is searched before the schema for the unqualified name. 1 or
        // 0: the session's raw rows read a boolean as its text. A name past 63 bytes is cut
        // with its hash (`identifier`): cut bare, two long views' would be one, the second
        // reading the first's rows.
        // Nor may it shadow the schema's own relation of that name (PostgreSQL's names are
        // exact), which SQL would then miss for it.
        let named = { (name: String) in Self.identifier(ForeignSchema.unshadowed(name) { taken.contains($0) }) }
        // Dropped first: a view made again after a read that stopped partway
        // (`restoreTaken`) may be keyed otherwise now, which OR REPLACE refuses.
        guard let rows = ForeignSchema.viewRows(view, source: source, names: names, types: types, named: named, before: { ["DROP VIEW IF EXISTS pg_temp.\(quoteIdentifier($0))"] }, distinct: { c in
            "SELECT (NOT EXISTS (SELECT 1 FROM \(source) WHERE \(c) IS NULL) AND NOT EXISTS (SELECT 1 FROM \(source) GROUP BY \(c) HAVING count(*) > 1))::int"
        }) else { return }
        context.connection.deferView(rows.relation, rows.making)
        var storage = EntityStorage(layout: .foreignView, relation: rows.relation, keyColumn: rows.key)
        for column in columns { Self.noteType(of: column, in: &storage) }
        let attributes = columns.indices.map { columns[$0].viewAttribute(types[$0]) }
        context.remember(EntityDescription(name: view, attributes: attributes), storage: storage)
    }
}
