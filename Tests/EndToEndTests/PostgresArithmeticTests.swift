import Foundation
import QuarryTestSupport
import Testing

/// Arithmetic and functions in predicates and grouped properties on a PostgreSQL schema
/// print what they print on a SQLite file of the same flights; what PostgreSQL cannot
/// compute as Quarry does stops in one line.
@Suite struct PostgresArithmeticTests {
    static let script = #"""
        local preds = {
          "arr_delay - dep_delay > 10", "dep_delay + arr_delay < 0", "distance / 2 > 500", "distance / 3 == 333",
          "month * 100 + day == 101", "month * 100 + day < 315", "abs:(dep_delay) > 100", "floor:(dep_delay / 60) == 1",
          "ceiling:(distance / 1000.0) == 2", "trunc:(arr_delay / 60) < 0", "sqrt:(distance) > 30", "ln:(distance) < 6",
          "log:(distance) >= 3", "exp:(month) > 1000", "sqrt:(dep_delay) > 2", "ln:(dep_delay) < 1",
          "uppercase:(tailnum) BEGINSWITH 'N1'", "lowercase:(airlines.name) CONTAINS 'delta'", "lowercase:(origin) == 'jfk'",
          "dep_delay / 0 == nil", "(dep_delay - arr_delay) / distance > 0.01", "distance * 2 > dep_delay * 100",
          "flight - month > 1500", "-dep_delay > 5", "distance * distance > 4000000", "year * 1000000000000 > 2.0e15",
          "distance ** 2 > 1000000", "dep_delay ** 0.5 > 3", "month ** -1 < 0.2", "(dep_delay - arr_delay) ** 3 > 1000",
          "modulus:by:(flight, 7) == 3", "modulus:by:(dep_delay, 7) < 0", "modulus:by:(dep_delay, 0) == nil",
        }
        for _, p in ipairs(preds) do print(p, count("flights", p)) end
        for _, f in ipairs(fetch{"flights", predicate = "arr_delay - dep_delay > 30", sort = {"id"}, limit = 5}) do print(f.id, f.dep_delay, f.arr_delay) end
        for _, d in ipairs(fetch{"flights", result = "dictionaries", properties = {"origin", "avg(arr_delay - dep_delay) AS gained", "sum(distance / 100) AS hops", "max(month * 100 + day) AS last", "sum(distance) AS miles", "sum(month * day) AS md"}, group = {"origin"}, sort = {"origin"}}) do
          print(d.origin, string.format("%.6f", d.gained), string.format("%.6f", d.hops), d.last, d.miles, math.type(d.miles), d.md, math.type(d.md))
        end
        print(flights:updateall("distance / 2 > %@", {2000}, {dest = "FAR"}))
        print(count("flights", "dest == 'FAR'"))
        print(flights:deleteall("abs:(dep_delay) > %@", {900}))
        print(count("flights"))
        """#

    @Test func arithmeticPrintsAsOnSQLite() async throws {
        let sandbox = try Sandbox()
        let (lite, postgres, url) = try await PostgresStoreTests.onBoth(sandbox, Self.script + "\nsave()\n")
        #expect(lite.status == 0, "\(lite)")
        #expect(postgres.status == 0, "\(postgres)")
        // Worth comparing: the predicates select some flights and not others.
        #expect(lite.lines.contains("month * 100 + day == 101\t6"), "\(lite)")
        #expect(lite.lines.filter { $0.hasSuffix("\t0") }.count < 8, "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")

        // Integers past Int64 go on as doubles in SQLite; PostgreSQL stops, in one line.
        let overflow = "print(count('flights', 'distance * 9223372036854775807 > 0'))"
        let liteAnswer = try await sandbox.quarry(["lite.db", "-e", overflow])
        #expect(liteAnswer.status == 0 && liteAnswer.lines.first.map { Int($0) ?? 0 > 0 } == true, "\(liteAnswer)")
        let refused = try await sandbox.quarry([url, "-e", overflow])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("integer arithmetic in this statement leaves 64-bit integers, where PostgreSQL stops"), "\(refused)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        // NaN is nil, as SQLite stores it: written so, and read so from another program's
        // row, in memory and in SQL alike (PostgresNaNTests).
        try await PostgresStoreTests.psql(
            sandbox, url,
            file: try {
                try sandbox.write("nan.sql", "CREATE TABLE w (id bigint PRIMARY KEY, f float8); INSERT INTO w VALUES (1, 'NaN');\n")
                return "nan.sql"
            }())
        let nan = try await sandbox.quarry([url, "-e", "print(w:get(1).f); w:new{ id = 2, f = 0/0 }; save(); print(count('w', 'f == nil'))"])
        #expect(nan.status == 0 && nan.lines == ["nil", "2"], "\(nan)")
        let stored = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-At", "-c", "SELECT id, f IS NULL FROM w ORDER BY id", url])
        #expect(stored.stdout == "1|f\n2|t\n", "\(stored)")
        // A decimal's arithmetic is numeric's, exact (PostgresDecimalTests); its division,
        // as every division, a real's.
        let decimal = try await sandbox.quarry([
            url, "-e",
            #"""
            entity "Price" { m = "decimal?" }; Price:new{ m = 5.05 }; Price:new{ m = 4.95 }; save()
            print(count("Price", "m * 2 > 10"), count("Price", "m * 2 == 10.1"), count("Price", "m / 2 > 2.5"))
            """#
        ])
        #expect(decimal.status == 0 && decimal.lines == ["1\t1\t1"], "\(decimal)")
    }
}
