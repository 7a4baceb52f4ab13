import Foundation
import Testing

/// `relate()` on a file another program made declares what a foreign key with no action
/// would: deleting an object others refer to is refused, naming them, where a nullify rule
/// cleared the referring rows' column, that program's own data (a producer's name), at the
/// next save.
@Suite struct RelateDeleteRuleTests {
    @Test func deletingAnObjectRelateLinksToIsRefusedOnAnotherProgramsFile() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE producer (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
            CREATE TABLE reading (id INTEGER PRIMARY KEY, producer TEXT, value REAL);
            INSERT INTO producer (name) VALUES ('asus'), ('acme');
            INSERT INTO reading (producer, value) VALUES ('asus', 1.5), ('asus', 2.5), ('acme', 3.5);
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "t.db", file: "schema.sql")
        let result = try await sandbox.quarry([
            "t.db", "-e",
            #"""
            relate("reading", "producer", "producer", "name")
            local ok, err = pcall(function() producer:first("name == 'asus'"):delete() end)
            print(ok, haschanges())
            io.stderr:write(tostring(err), "\n")
            save()
            print(count("reading", "producer == 'asus'"))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["false\tfalse", "2"], "\(result)")
        #expect(result.stderr.contains("cannot be deleted") && result.stderr.contains("reading/1"), "\(result)")
        let rows = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("t.db"), "SELECT count(*) FROM reading WHERE producer = 'asus'"])
        #expect(rows.lines == ["2"], "\(rows)")
    }
}
