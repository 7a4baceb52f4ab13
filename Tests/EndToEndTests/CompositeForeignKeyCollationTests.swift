import Foundation
import QuarryTestSupport
import Testing

/// A key of several TEXT columns whose child columns declare NOCASE while the parent's
/// key is BINARY: SQLite matches a child to its parent with the parent's collation, so
/// `('A', 'b')` names only the parent `('A', 'b')`, not `('a', 'b')` nor `('a', 'B')`.
/// The to-many read from the parent, its counts in SQL, and `deleteall`'s cascade all
/// match so; before, the members were read with the children's NOCASE (every parent held
/// every child) and `deleteall` of one parent took every child.
@Suite struct CompositeForeignKeyCollationTests {
    static let schema = """
        CREATE TABLE tp (c1 text NOT NULL, c2 text NOT NULL, v integer, PRIMARY KEY (c1, c2));
        CREATE TABLE tc (id integer PRIMARY KEY, x1 text COLLATE NOCASE, x2 text COLLATE NOCASE,
          FOREIGN KEY (x1, x2) REFERENCES tp (c1, c2) ON DELETE CASCADE);
        INSERT INTO tp VALUES ('A', 'b', 1), ('a', 'b', 2), ('a', 'B', 3);
        INSERT INTO tc VALUES (1, 'a', 'b'), (2, 'A', 'b'), (3, 'A', 'B');
        """

    @Test func childrenOfANoCaseColumnMatchWithTheParentsBinaryKey() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", Self.schema)
        try sandbox.write(
            "script.lua",
            #"""
            local function ids(p) local t = {} for _, c in ipairs(p.tcs) do t[#t + 1] = c.id end table.sort(t) return table.concat(t, ",") end
            for _, p in ipairs(fetch{ "tp", sort = {"v"} }) do
              local n = #p.tcs
              print(p.v, ids(p), count("tp", "v == %@ AND tcs.@count == %@", p.v, n), predicate("tcs.@count == %@", n):matches(p))
            end
            print(tp:deleteall("v == 1"))
            local left = {} for _, c in ipairs(fetch{ "tc", sort = {"id"} }) do left[#left + 1] = c.id end
            print("left", table.concat(left, ","))
            """#)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "schema.sql")
        let result = try await sandbox.quarry(["lite.db", "script.lua"])
        #expect(result.status == 0, "\(result)")
        // SQLite's own answer: the children each parent has by the key as the engine matches it.
        let sqlite = try await sandbox.run(
            URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()),
            [sandbox.path("lite.db"), "SELECT id FROM tc ORDER BY id"], timeout: 60)
        #expect(result.lines == ["1\t2\t1\ttrue", "2\t1\t1\ttrue", "3\t\t1\ttrue", "1", "left\t1,3"], "\(result)")
        #expect(sqlite.stdout == "1\n3\n", "\(sqlite)")
    }
}
