import Foundation
import QuarryTestSupport
import Testing

/// `sql()` reads the user's own relation even when its name is one Quarry gives its
/// temporary views and tables (`quarry_rows v`), on both engines (issue 60, item 8): the
/// session's object takes another name rather than shadow it. Against a real server
/// (`PostgresServer`): fails, never skips, without one.
@Suite struct TemporaryNamesTests {
    @Test func sqliteTablesNamedAsQuarrysTemporaryViewsAreRead() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "names.sql",
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT);
            INSERT INTO t VALUES (1, 'one');
            CREATE VIEW v AS SELECT id, a FROM t;
            CREATE VIEW w AS SELECT a FROM t;
            CREATE TABLE "quarry_rows v" (id INTEGER PRIMARY KEY, note TEXT);
            INSERT INTO "quarry_rows v" VALUES (42, 'mine');
            CREATE TABLE "Quarry_Rows W" (note TEXT);
            INSERT INTO "Quarry_Rows W" VALUES ('also mine');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "names.db", file: "names.sql")
        let result = try await sandbox.quarry([
            "names.db", "-e",
            #"""
            print(fetch{ "v" }[1].a, fetch{ "w" }[1].a)
            print(sql('SELECT * FROM "quarry_rows v"')[1].note, sql('SELECT * FROM "quarry_rows w"')[1].note)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["one\tone", "mine\talso mine"], "\(result)")
    }

    @Test func postgresTablesNamedAsQuarrysSessionTablesAreRead() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "temporarynames", in: sandbox,
            schema: """
                CREATE TABLE k (code text PRIMARY KEY, a text);
                INSERT INTO k VALUES ('x', 'keyed');
                CREATE TABLE t (id int PRIMARY KEY, a text);
                INSERT INTO t VALUES (1, 'one');
                CREATE VIEW v AS SELECT id, a FROM t;
                CREATE TABLE "quarry_rows k" (id int PRIMARY KEY, note text);
                INSERT INTO "quarry_rows k" VALUES (42, 'mine');
                CREATE TABLE "quarry_rows v" (id int PRIMARY KEY, note text);
                INSERT INTO "quarry_rows v" VALUES (43, 'mine too');
                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            print(fetch{ "k" }[1].a, k:first().code, fetch{ "v" }[1].a)
            print(sql('SELECT * FROM "quarry_rows k"')[1].note, sql('SELECT * FROM "quarry_rows v"')[1].note)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["keyed\tx\tone", "mine\tmine too"], "\(result)")
    }
}
