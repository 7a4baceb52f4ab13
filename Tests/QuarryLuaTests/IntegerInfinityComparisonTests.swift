import Foundation
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// An integer column compared with an infinity (`zipcode < %@` with `math.huge`, an upper
/// bound left open) was refused ("'zip' is int64 and cannot be compared with number inf"),
/// where `sqlite3` takes `zip < 1e999` for every row. Every integer is below `inf` and
/// above `-inf`, none equals either: SQL and `p:matches` answer as SQLite does, on a
/// SQLite file and on a PostgreSQL server (the test fails, never skips, without one).
@Suite struct IntegerInfinityComparisonTests {
    static let cases: [(predicate: String, sql: String)] = [
        ("zip < CAST('inf', 'NSNumber')", "zip < 1e999"),
        ("zip <= CAST('inf', 'NSNumber')", "zip <= 1e999"),
        ("zip > CAST('-inf', 'NSNumber')", "zip > -1e999"),
        ("zip == CAST('inf', 'NSNumber')", "zip = 1e999"),
        ("zip != CAST('inf', 'NSNumber')", "zip IS NOT 1e999"),
        ("zip >= CAST('inf', 'NSNumber')", "zip >= 1e999"),
        ("zip BETWEEN {CAST('-inf', 'NSNumber'), 20000}", "zip BETWEEN -1e999 AND 20000"),
        ("zip IN {CAST('inf', 'NSNumber'), 10001}", "zip IN (1e999, 10001)")
    ]

    @Test func aSQLiteIntegerColumnComparesWithInfinityAsSQLiteDoes() throws {
        let path = try foreignFile(
            """
            CREATE TABLE z(id INTEGER PRIMARY KEY, zip INTEGER);
            INSERT INTO z(zip) VALUES (10001), (99999), (-9223372036854775808), (9223372036854775807), (NULL);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try sqlAnswer(path, "SELECT count(*) FROM z WHERE zip < 1e999") == "4")
        let h = try Harness(context: try StoreOpener.open(path))
        try expectCountsAgreeWithSQLite(h, path, table: "z", Self.cases)
        // As a person writes it: Lua's infinity given for %@.
        #expect(h.string(#"count("z", "zip < %@", math.huge)"#) == "4")
        #expect(h.string(#"count("z", "zip > %@", -math.huge)"#) == "4")
        #expect(h.string(#"count("z", "zip == %@", math.huge)"#) == "0")
    }

    @Test func aPostgreSQLIntegerColumnComparesWithInfinityInSQLAsInMemory() throws {
        let url = try PostgresServer.database("infinity")
        try PostgresRedefinedViewTests.psql(
            url,
            """
            CREATE TABLE z (id integer PRIMARY KEY, zip bigint, small integer);
            INSERT INTO z VALUES (1, 10001, 1), (2, 99999, -5), (3, -9223372036854775808, 0), (4, 9223372036854775807, 7), (5, NULL, NULL);
            """)
        let h = try Harness(context: try StoreOpener.open(url))
        for column in ["zip", "small"] {
            for (format, _) in Self.cases {
                let p = "predicate([[\(format.replacingOccurrences(of: "zip", with: column))]])"
                let memory = h.string(
                    "(function() local p, n = \(p), 0; for _, o in ipairs(fetch('z')) do if p:matches(o) then n = n + 1 end end; return n end)()")
                let sql = h.string("count('z', \(p))")
                #expect(memory == sql && sql != nil, "\(column): \(format): memory selects \(memory ?? "?"), SQL \(sql ?? "?")")
            }
            #expect(h.string("count('z', '\(column) < %@', math.huge)") == "4")
        }
    }
}
