import GRDB
import QuarryEngine
import QuarryModel
import QuarryStore

/// A table or view another program makes in the file while a session is open (sqlite3's
/// `CREATE TABLE watchlist`, `CREATE VIEW movie_stats` in another terminal) becomes an
/// entity at the next open, as the file's tables are read then (`adoptNewRelation` is
/// PostgreSQL's). Asked for by name before that, it was `unknown entity 'watchlist'`, as
/// a typo is, though `sql()` read it and the file plainly had it (trial 22): the error
/// now says the file has it, made since the open, and how to read it. The file's
/// relations at the open are noted, so one the open left out without a word (a virtual
/// table's shadow tables) is not said to be new.
extension ForeignFileStore {
    /// Notes the file's tables and views at the open, by name folded as SQLite compares names.
    func noteRelations(in session: StoreSession) throws {
        relationsAtOpen = try session.connection.read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type IN ('table', 'view')").map(DeferredViews.folded))
        }
    }

    package func relationMadeSinceOpen(_ name: String, session: StoreSession) throws -> (kind: String, name: String)? {
        let found = try session.connection.read { db in
            try Row.fetchOne(
                db, sql: "SELECT type, name FROM main.sqlite_master WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
                arguments: [name])
        }
        guard let found else { return nil }
        let (kind, relation): (String, String) = (found[0], found[1])
        guard !relationsAtOpen.contains(DeferredViews.folded(relation)) else { return nil }
        return (kind, relation)
    }
}
