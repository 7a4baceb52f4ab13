import Foundation
import QuarryTestSupport
import Testing

/// A date a store holds in the last second of the year 9999 with more fraction digits than
/// a millisecond (a SQLite number `253402300799.9999`, a PostgreSQL
/// `'9999-12-31 23:59:59.9999+00'`) is a date Quarry holds: it prints (cut, not rounded,
/// so no text names the year 10000), assigns, is written by `updateall` and `new{}`, and
/// its export reads back through `import`. It read "date out of range", and assigning it
/// failed with "E.t expects date, got date" (issue 81, item 13).
@Suite struct LastInstantOfYear9999Tests {
    static let script = """
        local a = E:fetch("n == 1")[1]
        local b = E:fetch("n == 2")[1]
        print(a.t, date(253402300799.9999), date("9999-12-31T23:59:59.9999Z") == a.t)
        b.t = a.t
        E:new{ t = a.t, n = 3 }
        save()
        print(E:updateall("n == 2", {}, { t = a.t }))
        print(count("E", "t == %@", a.t), count("E", "t > %@", date("9999-12-31T23:59:59.999Z")))
        export(E:fetch("n == 1"), "e.json")
        export(E:fetch("n == 1"), "e.csv")
        import("e.json", { entity = "J" })
        import("e.csv", { entity = "C" })
        print(count("J", "t == %@", a.t), count("C", "t == %@", a.t))
        """

    @Test func aSQLiteNumberAfterTheLastMillisecondIsADate() async throws {
        let sandbox = try Sandbox()
        let sqlite = URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell())
        try sandbox.write(
            "make.lua", "entity \"E\" { t = \"date?\", n = \"int?\" }\nE:new{ t = date(\"9999-12-31T23:59:59Z\"), n = 1 }\nE:new{ n = 2 }\nsave()\n")
        let made = try await sandbox.quarry(["d.db", "make.lua"])
        #expect(made.status == 0, "\(made)")
        let moved = try await sandbox.run(sqlite, ["d.db", "UPDATE E SET t = t + 0.9999 WHERE n = 1"])
        #expect(moved.status == 0, "\(moved)")
        try sandbox.write("t.lua", Self.script)
        let result = try await sandbox.quarry(["d.db", "t.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == ["9999-12-31T23:59:59.999Z\t9999-12-31T23:59:59.999Z\ttrue", "1", "3\t3", "1\t1"], "\(result)")
        let json = try sandbox.read("e.json")
        #expect(json.contains("9999-12-31T23:59:59.9999"), "\(json)")
    }

    @Test func aPostgreSQLMicrosecondAfterTheLastMillisecondIsADate() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "lastinstant", in: sandbox,
            schema: """
                CREATE TABLE "E" (id serial PRIMARY KEY, t timestamptz, n bigint);
                INSERT INTO "E" (t, n) VALUES ('9999-12-31 23:59:59.9999+00', 1), (NULL, 2);

                """)
        try sandbox.write("t.lua", Self.script)
        let result = try await sandbox.quarry([url, "t.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == ["9999-12-31T23:59:59.999Z\t9999-12-31T23:59:59.999Z\ttrue", "1", "3\t3", "1\t1"], "\(result)")
    }
}
