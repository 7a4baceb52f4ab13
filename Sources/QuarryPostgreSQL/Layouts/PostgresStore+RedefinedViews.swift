import QuarryEngine
import QuarryModel
import QuarryStore

/// A view another session redefines while this one is open (issue 81, item 2): its entity
/// was keyed at the open from the definition then (`PostgresStore+Views`), and kept
/// reading the new definition through that key: redefined as a `UNION ALL`, one object
/// stood for two rows; redefined with a text `id` (dropped with `CASCADE`, which drops the
/// session's temporary view over it too), none of its rows read. A view's definition is
/// its rewrite rule: `CREATE OR REPLACE VIEW` writes the rule's row anew (a new `xmin`),
/// and a view made again has a new oid. Wherever the session looks for other sessions'
/// commits (at the prompt, `refresh()`, a save), one short read of the schema's views'
/// oids and rules tells whether any moved; each view entity whose view moved is then read
/// again as at an open (its columns, its key), its temporary view made anew, and its
/// objects in use forgotten, since their keys may name other rows. The SQLite file's
/// twin reads the schema cookie (`ForeignFileStore+RedefinedViews`).
extension PostgresStore {
    /// The schema's views as last read: a digest of them all, and each one's oid and rule;
    /// and the connection's count of statements then (`statementsStarted`).
    struct ViewsAsRead {
        var digest: String?
        var stamps: [String: String] = [:]
        var lookedAt = 0
    }

    /// Each view's oid and rewrite rule's transaction, by name; `digest` asks one value
    /// for them all.
    private func viewStamps(digest: Bool) -> String {
        let stamp = "c.oid::text || '.' || r.xmin::text"
        return """
            SELECT \(digest ? "md5(coalesce(string_agg(\(stamp), ',' ORDER BY c.oid), ''))" : "c.relname, \(stamp)")
            FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_catalog.pg_rewrite r ON r.ev_class = c.oid WHERE n.nspname = ? AND c.relkind = 'v'
            """
    }

    /// Reads the views' stamps (at the open, once the views are mapped). A schema none of
    /// whose views is an entity is not looked at again.
    func noteViews(in session: StoreSession) throws {
        let stamps = try readViewStamps(session)
        let readsViews = stamps.keys.contains { name in
            session.managedObjectModel.entitiesByName[name].map { session.mapped($0).layout == .foreignView } ?? false
        }
        guard readsViews else { return }
        viewsAsRead = ViewsAsRead(
            digest: try session.connection.scalar(viewStamps(digest: true), arguments: [.text(schema)])?.textValue, stamps: stamps)
    }

    private func readViewStamps(_ session: StoreSession) throws -> [String: String] {
        var stamps: [String: String] = [:]
        for row in try session.connection.rows(viewStamps(digest: false), arguments: [.text(schema)]) {
            if let name = row[0].textValue, let stamp = row[1].textValue { stamps[name] = stamp }
        }
        return stamps
    }

    /// Re-keys the views another session redefined since they were last read; nothing
    /// when none moved, or inside a transaction (the next look outside one does it). Read
    /// only when the session started a statement since it last looked (`refresh()` does):
    /// the REPL's wait, which looks twice a second, sends nothing to an idle server, nor
    /// waits on one that no longer answers.
    func rekeyRedefinedViews(_ server: PostgresConnection, in session: StoreSession) throws {
        guard let known = viewsAsRead.digest, server.transactionDepth == 0, server.statementsStarted != viewsAsRead.lookedAt else { return }
        let digest = try session.connection.scalar(viewStamps(digest: true), arguments: [.text(schema)])?.textValue
        guard digest != known else {
            viewsAsRead.lookedAt = server.statementsStarted
            return
        }
        let stamps = try readViewStamps(session)
        let changed = stamps.filter { name, stamp in viewsAsRead.stamps[name].map { $0 != stamp } ?? false }.keys.sorted().filter {
            guard let entity = session.managedObjectModel.entitiesByName[$0] else { return false }
            return session.mapped(entity).layout == .foreignView && !declared.contains($0)
        }
        if !changed.isEmpty {
            let catalog = try readCatalog(session)
            let keyed = try keyedViews(catalog, session: session)
            for view in changed {
                guard let old = session.managedObjectModel.entitiesByName[view], let relation = catalog.relations[view], relation.isView else {
                    continue
                }
                // The temporary view made, or still to be made, from the old definition
                // goes, and a new connection no longer makes it.
                let drop = "DROP VIEW IF EXISTS pg_temp.\(quoteIdentifier(session.mapped(old).relation))"
                try server.executeOnce(inTransaction: [drop])
                server.forgetSessionSteps { $0.contains(drop) }
                session.connection.deferredViews?.forget(session.mapped(old).relation)
                session.forgetObjects(of: view)
                guard let (made, storage) = viewEntity(relation, taken: Set(catalog.relations.keys), keyed: keyed, session: session) else {
                    continue
                }
                // Relationships `relate()` gave it stay.
                var entity = made
                entity.relationships = old.relationships
                session.remember(entity, storage: storage)
            }
            session.bumpGeneration()
        }
        // Read after the re-keying: a failure above leaves them to be re-keyed next time.
        viewsAsRead = ViewsAsRead(digest: digest, stamps: stamps, lookedAt: server.statementsStarted)
    }
}
