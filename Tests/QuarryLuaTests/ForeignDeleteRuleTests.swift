import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A foreign file's `ON DELETE` actions are its relationships' delete rules: deleting a
/// parent through Quarry and saving leaves the same rows as SQLite itself leaves, with
/// `PRAGMA foreign_keys=ON`, deleting that parent from a copy of the file.
@Suite struct ForeignDeleteRuleTests {
    /// A parent table and a child table whose key has `action`; the child's column
    /// defaults to 2 (a parent that stays), so SET DEFAULT has somewhere to point.
    private func file(_ action: String, defaultParent: Int = 2) throws -> String {
        try foreignFile(
            """
            CREATE TABLE genre (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT,
                genre_id INTEGER DEFAULT \(defaultParent) REFERENCES genre(id) ON DELETE \(action));
            INSERT INTO genre VALUES (1, 'rock'), (2, 'jazz'), (3, 'folk');
            INSERT INTO track VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 2), (4, 'd', NULL), (5, 'e', 3);
            """)
    }

    /// Every row of both tables, as text: what the comparison looks at.
    private func rows(_ path: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            let g = try String.fetchAll(db, sql: "SELECT id || ':' || name FROM genre ORDER BY id")
            let t = try String.fetchAll(db, sql: "SELECT id || ':' || title || ':' || ifnull(genre_id, 'null') FROM track ORDER BY id")
            return g.joined(separator: ",") + " | " + t.joined(separator: ",")
        }
    }

    /// What SQLite does on a copy: the rows after the delete, or nil when it refuses.
    private func sqliteDeletes(_ path: String, genre: Int) throws -> String? {
        let copy = path + ".copy"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: copy, configuration: configuration)
        do {
            try queue.write { db in try db.execute(sql: "DELETE FROM genre WHERE id = ?", arguments: [genre]) }
        } catch {
            try queue.close()
            return nil
        }
        try queue.close()
        return try rows(copy)
    }

    private func quarryDeletes(_ path: String, genre: Int) throws -> (rows: String, error: String?) {
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.runtime.run("genre:get(\(genre)):delete(); save()", chunkName: "=t")?.message
        return (try rows(path), message)
    }

    @Test(arguments: ["NO ACTION", "RESTRICT"]) func noActionAndRestrictDeny(action: String) throws {
        let path = try file(action)
        let before = try rows(path)
        #expect(try sqliteDeletes(path, genre: 1) == nil)
        let (after, error) = try quarryDeletes(path, genre: 1)
        #expect(after == before)
        // The refusal names the rule and the rows.
        #expect(error?.contains("denies") == true)
        #expect(error?.contains("track/1") == true && error?.contains("track/2") == true)
        let rule = "track.genre_id names it, and the file's foreign key on it is ON DELETE \(action)"
        #expect(error?.contains(rule) == true, "\(String(describing: error))")
        // A parent nothing points at goes, as SQLite lets it.
        let lone = try foreignFile(
            "CREATE TABLE genre (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT, genre_id INTEGER REFERENCES genre(id) ON DELETE \(action)); INSERT INTO genre VALUES (1, 'rock'), (9, 'none'); INSERT INTO track VALUES (1, 'a', 1);"
        )
        #expect(try sqliteDeletes(lone, genre: 9) == quarryDeletes(lone, genre: 9).rows)
    }

    @Test(arguments: ["CASCADE", "SET NULL", "SET DEFAULT"]) func actionsAgreeWithSQLite(action: String) throws {
        let path = try file(action)
        let expected = try sqliteDeletes(path, genre: 1)
        #expect(expected != nil)
        let (after, error) = try quarryDeletes(path, genre: 1)
        #expect(error == nil)
        #expect(after == expected)
    }

    /// The rows each action leaves, spelled out (so agreement is not agreement in error).
    @Test func actionsLeaveTheseRows() throws {
        #expect(try quarryDeletes(try file("CASCADE"), genre: 1).rows == "2:jazz,3:folk | 3:c:2,4:d:null,5:e:3")
        #expect(try quarryDeletes(try file("SET NULL"), genre: 1).rows == "2:jazz,3:folk | 1:a:null,2:b:null,3:c:2,4:d:null,5:e:3")
        #expect(try quarryDeletes(try file("SET DEFAULT"), genre: 1).rows == "2:jazz,3:folk | 1:a:2,2:b:2,3:c:2,4:d:null,5:e:3")
    }

    /// SET DEFAULT to a parent that does not exist (or is the one going) is refused by
    /// SQLite's key check; Quarry refuses it too and writes nothing.
    @Test func setDefaultToAMissingParentIsRefused() throws {
        for missing in [1, 42] {
            let path = try file("SET DEFAULT", defaultParent: missing)
            let before = try rows(path)
            #expect(try sqliteDeletes(path, genre: 1) == nil)
            let (after, error) = try quarryDeletes(path, genre: 1)
            #expect(after == before)
            #expect(error?.contains("SET DEFAULT") == true)
        }
    }

    /// deleteall takes the same rules.
    @Test(arguments: ["NO ACTION", "CASCADE", "SET NULL", "SET DEFAULT"]) func deleteallAgrees(action: String) throws {
        let path = try file(action)
        let expected = try sqliteDeletes(path, genre: 1)
        let before = try rows(path)
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.runtime.run(#"genre:deleteall("id == 1")"#, chunkName: "=t")?.message
        #expect(try rows(path) == (expected ?? before))
        #expect((message == nil) == (expected != nil))
    }
}
