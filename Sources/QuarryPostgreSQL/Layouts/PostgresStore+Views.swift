import QuarryStore

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
        guard let (entity, storage) = ForeignSchema.viewEntity(relation, taken: taken, engine: PostgresForeignSchema(schema: schema), in: context)
        else { return }
        context.remember(entity, storage: storage)
    }
}
