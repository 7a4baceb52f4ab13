import Foundation
import GRDB
import QuarryShell
import QuarryStore
import Testing

/// A file whose foreign key names parent columns that are not unique (an IMDb sample's
/// `actors(id) REFERENCES casting(actor_id)`): SQLite, checking keys, refuses every
/// write to either table with "foreign key mismatch", where `sqlite3` (keys unchecked)
/// writes. The opening notes say the key is read as columns; a save then writes as
/// `sqlite3` would (trial 32: nothing could be inserted or deleted in the file).
@Suite struct MismatchedForeignKeySaveTests {
    static let schema = """
        CREATE TABLE actors (id INTEGER PRIMARY KEY REFERENCES casting (actor_id), name TEXT);
        CREATE TABLE movies (id INTEGER PRIMARY KEY REFERENCES casting (movie_id), title TEXT);
        CREATE TABLE casting (movie_id INTEGER REFERENCES movies (id), actor_id INTEGER REFERENCES actors (id), ord INTEGER);
        INSERT INTO actors VALUES (1, 'Ann'), (2, 'Bo');
        INSERT INTO movies VALUES (1, 'First'), (2, 'Second');
        INSERT INTO casting VALUES (1, 1, 1), (1, 2, 2), (2, 2, 1);
        """

    @Test func aSaveWritesTablesAKeySQLiteCannotCheckNames() throws {
        // Made as sqlite3 makes it, keys unchecked (with them checked the rows go in nowhere).
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-mismatch-\(UUID().uuidString).db").path
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in try db.execute(sql: Self.schema) }
        try queue.close()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let context = try StoreOpener.open(path)
        #expect(context.openingNotes.contains { $0.contains("actors(id) references casting(actor_id), which casting does not hold unique") })
        let h = try Harness(context: context)
        h.run(#"actors:new{ name = "Cy" }; save()"#)
        #expect(try sqlAnswer(path, "SELECT group_concat(name, ',') FROM actors") == "Ann,Bo,Cy")
        h.run(#"casting:first("movie_id == 2"):delete(); movies:get(2).title = "Sequel"; save()"#)
        #expect(try sqlAnswer(path, "SELECT count(*) FROM casting") == "2")
        #expect(try sqlAnswer(path, "SELECT title FROM movies WHERE id = 2") == "Sequel")
        // The relationships Quarry did read keep their rules: a casting row names its
        // actor (casting.actor_id REFERENCES actors(id) is a to-one).
        #expect(h.string(#"casting:first("movie_id == 1 AND ord == 1").actor.name"#) == "Ann")
        h.run(#"casting:new{ movie_id = 1, actor = actors:get(3), ord = 3 }; save()"#)
        #expect(try sqlAnswer(path, "SELECT count(*) FROM casting WHERE movie_id = 1") == "3")
    }
}
