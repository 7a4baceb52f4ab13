import QuarryModel
import QuarryStore

/// A schema's views (and materialized views) as read-only entities, as a SQLite file's
/// views are (`ForeignSchema+Views` decides their key for both): each column an attribute typed by the
/// server, an object per row. A row is known by the view's column named `id`, `rowid` or
/// `_pk` (else its first column, when an integer) if the view's definition shows it as
/// the integer primary key of a table of the schema it reads some rows of, each once
/// (`keyedViews`); otherwise by its place. No row is read to decide. The entity reads a
/// temporary view of the session, `pg_temp."quarry_rows <view>"`, whose first column is
/// the row's key, so nothing is written to the schema and SQL a person writes reads the
/// schema's view as it is; it is made when SQL first reads it (`DeferredViews`), and
/// again with a new connection. Saving an object of one is refused, as for a file's view.
extension PostgresStore {
    /// The schema's views as its description has them (`PostgresStore+Catalog`).
    func mapViews(_ catalog: ForeignSchema, session: StoreSession) throws {
        let keyed = try keyedViews(catalog, session: session)
        for view in catalog.views where session.managedObjectModel.entitiesByName[view.name] == nil && !view.name.hasPrefix("quarry_") {
            do {
                try mapView(view, taken: Set(catalog.relations.keys), keyed: keyed, session: session)
            } catch {
                session.leaveOutView(view.name, because: "\(view.name) is left out: \(error)")
            }
        }
    }

    /// Tables without a primary key (nycflights13's `weather`), read only as a view is, an
    /// object per row known by its place in the table (no column or set of columns is
    /// known to tell its rows apart): a save of one is refused, as of a view's. The place
    /// is the order the server reads the table in, which an update or VACUUM of the
    /// table may change: an object held across another program's write may then read
    /// another row, as a view's does.
    func mapKeylessTables(_ tables: [String], catalog: ForeignSchema, session: StoreSession) {
        for table in tables where session.managedObjectModel.entitiesByName[table] == nil {
            guard let relation = catalog.relations[table], !relation.columns.isEmpty else {
                session.leaveOut(table, because: "\(table) has no columns, and no primary key: left out")
                continue
            }
            do {
                try mapView(relation, taken: Set(catalog.relations.keys), keyed: [], session: session)
            } catch {
                session.leaveOut(table, because: "\(table) has no primary key, and cannot be read as a view is: \(error)")
                continue
            }
            if session.managedObjectModel.entitiesByName[table] == nil {
                session.leaveOut(table, because: "\(table) has no primary key, and cannot be read by its rows' places: left out")
            }
        }
    }

    private func mapView(_ relation: ForeignSchema.Relation, taken: Set<String>, keyed: Set<String>, session: StoreSession) throws {
        guard let (entity, storage) = viewEntity(relation, taken: taken, keyed: keyed, session: session) else { return }
        session.remember(entity, storage: storage)
    }

    /// The entity of a view (or keyless table) and its storage, its temporary view deferred.
    func viewEntity(
        _ relation: ForeignSchema.Relation, taken: Set<String>, keyed: Set<String>, session: StoreSession
    ) -> (EntityDescription, EntityStorage)? {
        let engine = PostgresForeignSchema(schema: schema, keyedViews: keyed)
        guard let (entity, found) = ForeignSchema.viewEntity(relation, taken: taken, engine: engine, in: session) else { return nil }
        return (entity, found)
    }

    /// The views whose key column (`ForeignSchema.viewKeyCandidate`) shows, by their
    /// definition (`pg_get_viewdef`, `ViewDefinition`), the one-column integer primary key
    /// of a table of this schema whose rows are its own: read `ONLY`, or inherited by
    /// none (a partitioned table's key holds for all its partitions).
    func keyedViews(_ catalog: ForeignSchema, session: StoreSession) throws -> Set<String> {
        let definitions = try session.connection.rows(
            """
            SELECT c.relname, pg_catalog.pg_get_viewdef(c.oid) FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'v'
            """, arguments: [.text(schema)])
        let engine = PostgresForeignSchema(schema: schema)
        var keyed: Set<String> = []
        for row in definitions {
            guard let name = row[0].textValue, let text = row[1].textValue, let view = catalog.relations[name],
                let definition = ViewDefinition(text), definition.schema == nil || definition.schema == schema
            else { continue }
            let names = view.columns.map(\.name)
            guard let index = ForeignSchema.viewKeyCandidate(names, view.columns.map(engine.attributeType)),
                let column = definition.column(at: index, named: names[index]), let table = catalog.relations[definition.table], !table.isView,
                table.primaryKey == [column], let key = table.column(column), engine.isIntegerKey(key)
            else { continue }
            // The name as the definition writes it is this schema's table (unqualified, it
            // is the one the search path finds).
            let qualified = [definition.schema, definition.table].compactMap { $0 }
            let own = try session.connection.rows(
                """
                SELECT (c.relnamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = ?)
                  AND (? OR c.relkind = 'p' OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_inherits i WHERE i.inhparent = c.oid)))::int
                FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.to_regclass(?)
                """, arguments: [.text(schema), .bool(definition.only), .text(qualified.map(quoteIdentifier).joined(separator: "."))])
            if own.first?.first?.storedInteger == 1 { keyed.insert(name) }
        }
        return keyed
    }
}
