import GRDB
import QuarryEngine
import QuarryModel
import QuarryStore

/// A table or view another program makes in the file while a session is open (sqlite3's
/// `CREATE TABLE watchlist`, `CREATE VIEW movie_stats` in another terminal) becomes an
/// entity at the next open, as the file's tables are read then (`adoptNewRelation` is
/// PostgreSQL's). Asked for by name before that, it was `unknown entity 'watchlist'`, as
/// a typo is, though `sql()` read it and the file plainly had it (trial 22). When the
/// session looks for others' commits (the prompt, `refresh()`, a save) and the schema
/// cookie moved, the relations made since the open are noted as left out, with why and
/// what reads them, so `unknown entity` says so (`StoreSession.noteLeftOut`). The file's
/// relations at the open are kept, so one the open left out without a word (a virtual
/// table's shadow tables) is not said to be new.
extension ForeignFileStore {
    /// Notes the file's tables and views at the open, by name folded as SQLite compares names.
    func noteRelations(in session: StoreSession) throws {
        relationsAtOpen = Set(try relations(in: session).map { DeferredViews.folded($0.name) })
    }

    /// After the schema cookie moved: each table or view made since the open that is no
    /// entity is noted as left out (by its name and as SQLite folds it, which a person
    /// types as often), and one noted before that is gone no longer is.
    func noteRelationsMadeSinceOpen(in session: StoreSession) throws {
        var noted: Set<String> = []
        for (kind, name) in try relations(in: session) where !relationsAtOpen.contains(DeferredViews.folded(name)) {
            guard session.managedObjectModel.entitiesByName[name] == nil else { continue }
            let why =
                "the file's \(kind) \(name) was made after this session opened the file, "
                + "and is read as an entity once the file is opened again (.open); sql() reads it now"
            for spelling in [name, DeferredViews.folded(name)] where session.managedObjectModel.entitiesByName[spelling] == nil {
                session.noteLeftOut(spelling, because: why)
                noted.insert(spelling)
            }
        }
        for gone in relationsMadeSinceOpen.subtracting(noted) { session.noteLeftOut(gone, because: nil) }
        relationsMadeSinceOpen = noted
    }

    /// The file's tables and views, as `sqlite_master` names them. Read as stored values: a
    /// schema written by hand may hold a name that is no text (GRDB's String conversion
    /// would trap on it), and such a relation is no entity a person names.
    private func relations(in session: StoreSession) throws -> [(kind: String, name: String)] {
        try session.connection.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name FROM main.sqlite_master WHERE type IN ('table', 'view')").compactMap { row in
                guard case .string(let kind) = (row[0] as DatabaseValue).storage, case .string(let name) = (row[1] as DatabaseValue).storage
                else { return nil }
                return (kind, name)
            }
        }
    }
}
