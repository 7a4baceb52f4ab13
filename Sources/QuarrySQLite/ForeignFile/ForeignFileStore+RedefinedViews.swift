import GRDB
import QuarryEngine
import QuarryModel
import QuarryStore

/// A view another program redefines while a session is open (issue 81, item 2): its
/// entity was keyed at the open from the definition then (`ForeignSchema+Views`), and
/// kept reading the new definition through that key: redefined as a `UNION ALL`, one
/// object stood for two rows (`v/1, v/1, v/2`); redefined with a text `id`, none of its
/// rows read. SQLite's schema cookie (`PRAGMA schema_version`) moves with every change of
/// the file's schema, and is read with the commit counter wherever the session looks for
/// other programs' commits (at the prompt, `refresh()`, a save): when it moved, each view
/// whose SQL changed is read again as at an open (its columns, its key), its temporary
/// view made anew, and its objects in use forgotten, since their keys may name other rows.
/// So is a view whose temporary view's name a table made since has taken (issue 81, item
/// 15): the temporary view would hide it from `sql()`; a table without a rowid read
/// through such a temporary view takes another name for it too.
extension ForeignFileStore {
    /// The schema cookie and each view's SQL, by name, as last read.
    struct ViewsAsRead {
        var cookie: Int?
        var views: [String: String] = [:]
    }

    /// The commit counter, as every SQLite store reads it; a moved schema cookie first
    /// re-keys the views another program redefined.
    package func outsideChangeCounter(session: StoreSession) throws -> Int {
        let (counter, cookie) = try session.connection.read { db in
            (try outsideChangeCounter(in: db), try Int.fetchOne(db, sql: "PRAGMA main.schema_version") ?? 0)
        }
        if let known = viewsAsRead.cookie, known != cookie {
            try rekeyRedefinedViews(in: session)
            try noteRelationsMadeSinceOpen(in: session)
        }
        viewsAsRead.cookie = cookie
        return counter
    }

    /// Reads the cookie and the views' SQL (at the open).
    func noteViews(in session: StoreSession) throws {
        viewsAsRead = try session.connection.read { db in
            ViewsAsRead(cookie: try Int.fetchOne(db, sql: "PRAGMA main.schema_version") ?? 0, views: try SQLiteSchemaText(db).views)
        }
    }

    /// Each view entity whose view's SQL changed, read again as at an open.
    private func rekeyRedefinedViews(in session: StoreSession) throws {
        let (views, taken) = try session.connection.read { db in
            (
                try SQLiteSchemaText(db).views,
                Set(
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'quarry\\_rows %' ESCAPE '\\'").map(
                        DeferredViews.folded))
            )
        }
        // A view whose temporary view's name the file now has too (another program made a
        // table of that name after the session chose it) is read again as well, so its
        // temporary view takes another name rather than hide the file's from `sql()`.
        let shadowing = { (name: String) -> Bool in
            guard let entity = session.managedObjectModel.entitiesByName[name], session.mapped(entity).layout == .foreignView else { return false }
            return taken.contains(DeferredViews.folded(session.mapped(entity).relation))
        }
        let changed = views.filter { name, sql in viewsAsRead.views[name].map { $0 != sql } ?? false || shadowing(name) }.keys.sorted()
        // So is a table without a rowid, read through a temporary view of the same kind
        // (`ForeignSchemaReader+KeyedTables`).
        let shadowedTables = session.managedObjectModel.entityOrder.filter { name in
            guard let entity = session.managedObjectModel.entitiesByName[name], session.mapped(entity).numberedRows != nil,
                session.mapped(entity).layout == .foreignTable
            else { return false }
            return taken.contains(DeferredViews.folded(session.mapped(entity).relation))
        }
        guard !changed.isEmpty || !shadowedTables.isEmpty else {
            viewsAsRead.views = views
            return
        }
        let reader = ForeignSchemaReader(session: session)
        try renameNumberedRows(of: shadowedTables, taken: taken, reader: reader, in: session)
        let schema = try reader.catalog(of: [], views: changed)
        for view in changed {
            guard let old = session.managedObjectModel.entitiesByName[view], session.mapped(old).layout == .foreignView,
                let relation = schema.relations[view]
            else { continue }
            // The temporary view made, or still to be made, from the old definition goes.
            let temporary = session.mapped(old).relation
            try session.connection.database.writeWithoutTransaction { db in
                try db.execute(sql: "DROP VIEW IF EXISTS temp.\(quoteIdentifier(temporary))")
            }
            session.connection.deferredViews?.forget(temporary)
            session.forgetObjects(of: view)
            guard case (var entity, let storage)? = try reader.viewEntity(relation, taken: taken) else { continue }
            // Relationships `relate()` gave it stay.
            entity.relationships = old.relationships
            session.remember(entity, storage: storage)
        }
        // Kept only now: a read that failed above finds the same views changed next time.
        viewsAsRead.views = views
        session.bumpGeneration()
    }

    /// Each table of `names` (without a rowid) read through a temporary view under a name
    /// another program's table took since: the temporary view is made anew under a name no
    /// relation of the file has now. Its rows keep their numbers, so its objects stay.
    private func renameNumberedRows(of names: [String], taken: Set<String>, reader: ForeignSchemaReader, in session: StoreSession) throws {
        guard !names.isEmpty else { return }
        let catalog = try reader.catalog(of: names, views: [])
        for name in names {
            guard let entity = session.managedObjectModel.entitiesByName[name], let relation = catalog.relations[name] else { continue }
            var storage = session.mapped(entity)
            let temporary = storage.relation
            // The columns it read: its attributes', its to-ones' and its key's.
            let kept = Set(entity.attributeNames + entity.toOneRelationships.map(\.keyColumn) + (storage.numberedRows?.keys ?? []))
            guard let (_, fresh) = try reader.keyedTableEntity(relation, columns: relation.columns.filter { kept.contains($0.name) }, taken: taken)
            else { continue }
            try session.connection.database.writeWithoutTransaction { db in
                try db.execute(sql: "DROP VIEW IF EXISTS temp.\(quoteIdentifier(temporary))")
            }
            session.connection.deferredViews?.forget(temporary)
            storage.relation = fresh.relation
            storage.numberedRows = fresh.numberedRows
            session.remember(entity, storage: storage)
        }
    }
}
