import Foundation
import QuarryTestSupport
import Testing

/// Found by review: on a SQLite file, `deleteall` refused at once a parent held by a key
/// of several columns that is NO ACTION, though another key's CASCADE in the same
/// `deleteall` takes the children (SQLite checks NO ACTION at the statement's end, and
/// deletes the row; deleting the object and saving did too). The children holding it
/// are checked at the end: those still there, their columns naming no parent, refuse it.
@Suite struct CompositeForeignKeyDeleteallTests {
    @Test func noActionOverSeveralColumnsIsCheckedAtTheEndOfADeleteall() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE a (k1 integer NOT NULL, k2 integer NOT NULL, PRIMARY KEY (k1, k2));
            CREATE TABLE c (id integer PRIMARY KEY, x1 integer, x2 integer, y1 integer, y2 integer, note text,
              FOREIGN KEY (x1, x2) REFERENCES a (k1, k2), FOREIGN KEY (y1, y2) REFERENCES a (k1, k2) ON DELETE CASCADE);
            CREATE TABLE d (id integer PRIMARY KEY, z1 integer, z2 integer, FOREIGN KEY (z1, z2) REFERENCES a (k1, k2));
            INSERT INTO a VALUES (1, 1), (2, 2), (3, 3);
            INSERT INTO c VALUES (1, 1, 1, 1, 1, 'x'), (2, 2, 2, 3, 3, 'y');
            INSERT INTO d VALUES (1, 3, 3);
            """)
        try sandbox.write(
            "script.lua",
            #"""
            print(a:deleteall("k1 == 1"))
            print(count("a"), count("c"), count("d"))
            -- c/2 holds a(2, 2) by its NO ACTION key, which no cascade takes: refused.
            print((pcall(function() return a:deleteall("k1 == 2") end)))
            -- d/1 holds a(3, 3), the cascade takes c/2 only: refused, naming d/1.
            local ok, message = pcall(function() return a:deleteall("k1 == 3") end)
            print(ok, tostring(message):match("d/1") ~= nil)
            print(count("a"), count("c"), count("d"))
            """#)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "schema.sql")
        let result = try await sandbox.quarry(["lite.db", "script.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["1", "2\t1\t1", "false", "false\ttrue", "2\t1\t1"], "\(result)")
        let rows = try await sandbox.run(
            URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()),
            ["lite.db", "SELECT (SELECT group_concat(k1) FROM a) || ':' || (SELECT group_concat(id) FROM c)"], timeout: 60)
        #expect(rows.stdout == "2,3:2\n", "\(rows)")
    }
}
