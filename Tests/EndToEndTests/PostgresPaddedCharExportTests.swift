import Foundation
import QuarryTestSupport
import Testing

/// A `char(6)` value `'ab'` is exported as psql's `\copy` writes it, `ab` and four spaces,
/// whether the rows stream from the server (COPY) or come from objects because a change is
/// pending (issue 60, item 8); objects still read it as it compares, `ab`. Against a real
/// server (`PostgresServer`): fails, never skips, without one.
@Suite struct PostgresPaddedCharExportTests {
    @Test func aCharColumnExportsPaddedBothWays() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "paddedchar", in: sandbox,
            schema: """
                CREATE TABLE code (id int PRIMARY KEY, c char(6), note text);
                INSERT INTO code VALUES (1, 'ab', 'x'), (2, NULL, 'y'), (3, 'abcdef', 'z'), (4, 'é', 'w');
                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local copied = fetch{ "code", sort = { "id" } }
            print(export(copied, "copy.csv"), export(copied, "copy.json"), code:get(1).c, count("code", "c == 'ab'"))
            code:get(2).note = "changed"
            local pending = fetch{ "code", sort = { "id" } }
            print(export(pending, "pending.csv"), export(pending, "pending.json"))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["4\t4\tab\t1", "4\t4"], "\(result)")
        let copied = try sandbox.read("copy.csv")
        #expect(copied == "id,c,note\n1,ab    ,x\n2,,y\n3,abcdef,z\n4,é     ,w\n", "\(copied)")
        #expect(try sandbox.read("pending.csv") == copied.replacingOccurrences(of: "2,,y", with: "2,,changed"))
        let json = try sandbox.read("copy.json")
        #expect(try sandbox.read("pending.json") == json.replacingOccurrences(of: #""note": "y""#, with: #""note": "changed""#), "\(json)")

        let psql = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            ["-qAt", url, "-c", #"\copy (SELECT * FROM code ORDER BY id) TO 'psql.csv' WITH (FORMAT csv, HEADER)"#])
        #expect(psql.status == 0, "\(psql)")
        #expect(try sandbox.read("psql.csv") == copied)
    }
}
