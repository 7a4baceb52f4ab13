import Foundation
import GRDB
import QuarryShell
import QuarryStore
import Testing

/// A table or view another program makes in a SQLite file while a session is open is
/// read as an entity at the next open; asked for before that, it was "unknown entity",
/// as a typo is, though `sql()` read it (trial 22: a view made in sqlite3 beside the
/// REPL). The error says the file has it, made since the open, and what reads it.
@Suite struct TablesMadeLaterTests {
    @Test func aTableOrViewMadeSinceTheOpenIsSaidToBeNew() throws {
        let path = try foreignFile(
            """
            CREATE TABLE movies (movieId INTEGER PRIMARY KEY, title TEXT);
            INSERT INTO movies VALUES (1, 'Toy Story (1995)');
            CREATE VIRTUAL TABLE notes USING fts5(body);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"count("movies")"#) == "1")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE Watchlist (id INTEGER PRIMARY KEY, movieId INTEGER); INSERT INTO Watchlist (movieId) VALUES (1);
                    CREATE VIEW titles AS SELECT title FROM movies;
                    """)
        }
        try queue.close()
        // Seen where the session looks for others' commits: the prompt, refresh(), a save.
        h.run("refresh()")
        let later = "was made after this session opened the file, and is read as an entity once the file is opened again (.open); sql() reads it now"
        // Named as SQLite compares names, and given as the file spells it.
        #expect(h.error(#"count("watchlist")"#).contains("unknown entity 'watchlist': the file's table Watchlist " + later))
        #expect(h.error(#"fetch("titles")"#).contains("unknown entity 'titles': the file's view titles " + later))
        #expect(h.string(#"sql("SELECT count(*) AS n FROM watchlist")[1].n"#) == "1")
        // A name the file does not have is a typo, as before; so is one of the relations
        // the open passed over (a virtual table's shadow tables), which are not new.
        #expect(h.error(#"count("watchlists")"#).hasSuffix("unknown entity 'watchlists'"))
        let shadow = h.error(#"count("notes_data")"#)
        #expect(!shadow.contains("made after"), "\(shadow)")
        // Its name as a global, the handle it would have, says the same.
        let global = h.error("watchlist:first()")
        #expect(global.contains("(global 'watchlist'); the file's table Watchlist was made after this session opened the file"), "\(global)")
        #expect(!h.error("watchlists:first()").contains("made after"))
        // Dropped again, it is a name the file does not have.
        let dropping = try DatabaseQueue(path: path)
        try dropping.write { db in try db.execute(sql: "DROP TABLE Watchlist") }
        try dropping.close()
        h.run("refresh()")
        #expect(h.error(#"count("watchlist")"#).hasSuffix("unknown entity 'watchlist'"))
        #expect(h.error(#"count("titles")"#).contains("the file's view titles " + later))
        // Opened again, a table made since is an entity.
        let again = try Harness(context: try StoreOpener.open(path))
        #expect(again.string(#"count("titles")"#) == "1")
    }
}
