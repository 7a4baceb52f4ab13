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
        // Batch changes and an import into those tables are written alike.
        #expect(h.string(#"casting:deleteall("ord == 3", {})"#) == "1")
        #expect(h.string(#"actors:updateall("id == 3", {}, { name = "Cyd" })"#) == "1")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM casting") == "2")
        #expect(try sqlAnswer(path, "SELECT name FROM actors WHERE id = 3") == "Cyd")
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-mismatch-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: csv) }
        try "name\nDee\n".write(toFile: csv, atomically: true, encoding: .utf8)
        #expect(h.string("import('\(csv)', 'actors')") == "1")
        #expect(try sqlAnswer(path, "SELECT group_concat(name, ',') FROM actors") == "Ann,Bo,Cyd,Dee")
    }

    /// A save made with keys unchecked still refuses a key it breaks that SQLite can
    /// check (found by review: a row another program deleted meanwhile was named and
    /// committed). Rows broken before the save do not hold it back.
    @Test func aSaveWithKeysUncheckedStillRefusesAKeyItBreaks() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-mismatch-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let other = try DatabaseQueue(path: path, configuration: configuration)
        try other.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE p (id INTEGER PRIMARY KEY, code TEXT);
                    CREATE TABLE c (id INTEGER PRIMARY KEY, pcode TEXT REFERENCES p (code), note TEXT);
                    CREATE TABLE d (id INTEGER PRIMARY KEY, p_id INTEGER NOT NULL REFERENCES p (id), note TEXT);
                    INSERT INTO p VALUES (1, 'a'), (2, 'b'); INSERT INTO c VALUES (1, 'a', 'x'); INSERT INTO d VALUES (1, 1, 'y'), (2, 7, 'old');
                    """)
        }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"d:get(1).p_id = 2; c:get(1).pcode = "b""#)
        try other.write { db in try db.execute(sql: "DELETE FROM p WHERE id = 2") }
        try other.close()
        let refused = h.error("save()")
        #expect(refused.contains("FOREIGN KEY constraint failed") && refused.contains("d"), "\(refused)")
        #expect(try sqlAnswer(path, "SELECT p_id FROM d WHERE id = 1") == "1" && sqlAnswer(path, "SELECT pcode FROM c") == "a")
        // Without the broken key the same tables save, the old broken row (d 2) as it was.
        h.run(#"rollback(); c:get(1).note = "z"; d:get(1).note = "w"; save()"#)
        #expect(try sqlAnswer(path, "SELECT note FROM c") == "z" && sqlAnswer(path, "SELECT note FROM d WHERE id = 1") == "w")
    }
}
