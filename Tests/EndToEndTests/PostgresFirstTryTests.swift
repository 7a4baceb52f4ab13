import Foundation
import QuarryTestSupport
import Testing

/// Issue 60, items 5, 6 and 7 on PostgreSQL, beside the same file in SQLite where the
/// item applies to both: a script calling `relate()` runs twice; a dictionary request
/// sorts by a key it does not select; a new row takes the defaults the server computes
/// (`now()`, `nextval(...)`, `gen_random_uuid()`) and the object reads them back.
/// Against a real server (`PostgresServer`): the tests fail, never skip, without one.
@Suite struct PostgresFirstTryTests {
    static let schema = """
        CREATE TABLE urls (id integer PRIMARY KEY, title text, visit_count integer, host text);
        CREATE TABLE visits (id integer PRIMARY KEY, url integer, at integer);
        INSERT INTO urls VALUES (1, 'one', 5, 'a'), (2, 'two', 9, 'b'), (3, 'three', 5, 'a'), (4, 'four', 9, 'a'),
          (5, 'five', 1, 'b'), (6, 'six', 5, 'c'), (7, 'seven', 0, 'c');
        INSERT INTO visits VALUES (1, 1, 2), (2, 1, 3), (3, 2, 4);
        """

    static let relateScript = #"""
        print(relate("visits", "url", "urls", "id", "page"), relate("visits", "at", "urls", "id"))
        print(relate("visits", "url", "urls", "id", "page"), relate("visits", "at", "urls", "id"))
        print(visits:get(3).page.title, #urls:get(1).visits_set)
        print(pcall(relate, "visits", "at", "urls", "id", "page"))
        """#

    static let sortScript = #"""
        for _, d in ipairs(fetch{ "urls", result = "dictionaries", properties = { "title", "visit_count" }, sort = { "-visit_count", "id" }, limit = 5 }) do
          print(d.title, d.visit_count)
        end
        for _, d in ipairs(fetch{ "urls", result = "dictionaries", properties = { "host" }, group = { "host" }, sort = { "-sum(visit_count)", "host" } }) do
          print(d.host)
        end
        print(pcall(fetch, { "urls", result = "dictionaries", properties = { "count(*)" }, group = { "host" }, sort = { "id" } }))
        """#

    @Test func relateTwiceAndSortByUnselectedKeysOnBothEngines() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", Self.schema)
        try sandbox.write("relate.lua", Self.relateScript)
        try sandbox.write("sort.lua", Self.sortScript)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "schema.sql")
        let url = try await PostgresServer.database("firsttry")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        // The relate script twice (the second run finds the sidecar's on SQLite), then the sorts.
        let outputs = try await PostgresStoreTests.inTurn(sandbox, ["relate.lua", "relate.lua", "sort.lua"], on: ["lite.db", url])
        guard outputs.count == 2, outputs[0].count == 17 else {
            Issue.record("\(outputs)")
            return
        }
        let lite = outputs[0]
        // Both runs print the same; each repeats its own names.
        #expect(lite[0] == lite[1] && Array(lite[0..<4]) == Array(lite[4..<8]), "\(lite)")
        #expect(lite[0].hasPrefix("page\t"), "\(lite)")
        #expect(lite[2] == "two\t2", "\(lite)")
        #expect(lite[3].hasPrefix("false\t") && lite[3].contains("'page' is kept as visits.page (url → urls.id"), "\(lite)")
        #expect(Array(lite[8..<13]) == ["two\t9", "four\t9", "one\t5", "three\t5", "six\t5"], "\(lite)")
        #expect(Array(lite[13..<16]) == ["a", "b", "c"], "\(lite)")
        #expect(lite[16].contains("'id' is neither grouped nor an aggregate"), "\(lite)")
        let differences = PostgresStoreTests.differences(lite, outputs[1])
        #expect(differences == nil, "\(differences ?? "")")
    }

    /// A schema Quarry made keeps relate() in its model: the second run is a no-op.
    @Test func relateTwiceOnASchemaQuarryMade() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "define.lua",
            #"""
            entity "Airline" { code = "string", name = "string" }; entity "Flight" { carrier = "string" }
            Airline:new{ code = "UA", name = "United" }; Flight:new{ carrier = "UA" }; save()
            """#)
        try sandbox.write(
            "relate.lua",
            #"""
            print(relate("Flight", "carrier", "Airline", "code", "airline"), Flight:first().airline.name, #Airline:first().flight_set)
            """#)
        let url = try await PostgresServer.database("firsttrymade")
        let outputs = try await PostgresStoreTests.inTurn(sandbox, ["define.lua", "relate.lua", "relate.lua"], on: ["made.db", url])
        #expect(outputs.count == 2 && outputs[0] == ["airline\tUnited\t1", "airline\tUnited\t1"], "\(outputs)")
        #expect(outputs.count == 2 && outputs[1] == outputs[0], "\(outputs)")
    }

    /// `DEFAULT now()`, `nextval(...)`, `gen_random_uuid()` and an expression: the server
    /// fills each column a new object was not given, and the object holds what it stored.
    @Test func theServersComputedDefaultsAreFilledAndReadBack() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE SEQUENCE numbers START 100;
            CREATE TABLE notes (id bigserial PRIMARY KEY, body text, created_at timestamptz NOT NULL DEFAULT now(),
              n bigint NOT NULL DEFAULT nextval('numbers'), u uuid DEFAULT gen_random_uuid(), tag text DEFAULT lower('ABC'));
            """)
        try sandbox.write(
            "script.lua",
            #"""
            a = notes:new{ body = "a" }
            b = notes:new{ body = "b", tag = "given" }
            c = notes:new{ body = "c" }; c.tag = nil
            save()
            print(a.n, b.n, c.n, a.tag, b.tag, tostring(c.tag), a.created_at ~= nil, #tostring(a.u), a.u ~= b.u)
            local again = notes:get(a.id)
            print(tostring(again.created_at) == tostring(a.created_at), again.u == a.u)
            """#)
        let url = try await PostgresServer.database("computeddefaults")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        let result = try await sandbox.quarry([url, "script.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["100\t101\t102\tabc\tgiven\tnil\ttrue\t36\ttrue", "true\ttrue"], "\(result)")
        let psql = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            ["-At", "-c", "SELECT string_agg(body || '=' || coalesce(tag, 'NULL') || ',' || n, ' ' ORDER BY id) FROM notes", url], timeout: 60)
        #expect(psql.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "a=abc,100 b=given,101 c=NULL,102", "\(psql)")
    }
}
