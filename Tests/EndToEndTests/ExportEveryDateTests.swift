import Foundation
import QuarryTestSupport
import Testing

/// A date outside the years 0001 to 9999 is exported as the date its column holds, in ISO
/// 8601's expanded form (`+10000-...`, `-0043-...`, year 0000 being 1 BC), to CSV and JSON
/// alike, never as the words "date out of range" (issue 60, item 8): a SQLite number of
/// year 10000, a PostgreSQL BC timestamp or one of year 294276, through COPY and through
/// objects with a change pending. Against a real server (`PostgresServer`): fails, never
/// skips, without one.
@Suite struct ExportEveryDateTests {
    @Test func aSQLiteNumberDateOfYear10000IsExportedAsItsDate() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "dates.sql",
            """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, at DATETIME);
            INSERT INTO ev VALUES (1, 253402300800), (2, -62167219200), (3, 253402300800.25), (4, 0);
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "dates.db", file: "dates.sql")
        let result = try await sandbox.quarry([
            "dates.db", "-e", #"print(export(fetch{ "ev", sort = { "id" } }, "ev.csv"), export(fetch{ "ev", sort = { "id" } }, "ev.json"))"#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            try sandbox.read("ev.csv")
                == "id,at\n1,+10000-01-01T00:00:00Z\n2,0000-01-01T00:00:00Z\n3,+10000-01-01T00:00:00.25Z\n4,1970-01-01T00:00:00Z\n")
        let json = try sandbox.read("ev.json")
        #expect(json.contains(#""at": "+10000-01-01T00:00:00Z""#) && json.contains(#""at": "0000-01-01T00:00:00Z""#), "\(json)")
        #expect(!json.contains("out of range"), "\(json)")
    }

    @Test func postgresBCAndFarTimestampsAreExportedAsTheirDatesBothWays() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "exportdates", in: sandbox,
            schema: """
                CREATE TABLE ev (id int PRIMARY KEY, note text, at timestamptz);
                INSERT INTO ev VALUES (1, 'a', '0044-03-15 12:00:00+00 BC'), (2, 'b', '294276-12-31 23:59:59+00'),
                  (3, 'c', '2013-01-01 05:00:00+00'), (4, 'd', 'infinity');
                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local copied = fetch{ "ev", sort = { "id" } }
            print(export(copied, "copy.csv"), export(copied, "copy.json"))
            ev:get(3).note = "changed"
            local pending = fetch{ "ev", sort = { "id" } }
            print(export(pending, "pending.csv"), export(pending, "pending.json"))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let copied = try sandbox.read("copy.csv")
        #expect(
            copied.hasPrefix("id,note,at\n1,a,-0043-03-15T12:00:00Z\n2,b,+294276-12-31T23:59:59Z\n3,c,2013-01-01T05:00:00Z\n4,d,infinity\n"),
            "\(copied)")
        #expect(try sandbox.read("pending.csv") == copied.replacingOccurrences(of: "3,c,", with: "3,changed,"))
        let json = try sandbox.read("copy.json")
        #expect(json.contains(#""at": "-0043-03-15T12:00:00Z""#) && json.contains(#""at": "+294276-12-31T23:59:59Z""#), "\(json)")
        #expect(try sandbox.read("pending.json") == json.replacingOccurrences(of: #""note": "c""#, with: #""note": "changed""#))
    }
}
