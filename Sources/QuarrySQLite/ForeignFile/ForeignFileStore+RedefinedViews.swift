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
        if let known = viewsAsRead.cookie, known != cookie { try rekeyRedefinedViews(in: session) }
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
        let changed = views.filter { name, sql in viewsAsRead.views[name].map { $0 != sql } ?? false }.keys.sorted()
        guard !changed.isEmpty else {
            viewsAsRead.views = views
            return
        }
        let reader = ForeignSchemaReader(session: session)
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
}
