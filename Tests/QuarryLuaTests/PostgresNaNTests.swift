import Foundation
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A `float8` or `numeric` NaN another program stored (issue 81): Quarry has no NaN (it
/// writes one as nil, as SQLite stores it), so such a cell reads as nil in memory, and
/// the server's SQL reads it as nil too, where PostgreSQL itself orders NaN after every
/// number and equal to itself. Differential: for each predicate, `count` (the server's
/// SQL) and `p:matches` over every object (memory) select the same rows, over NaN,
/// Infinity and -Infinity in both types. Against a real server (`PostgresServer`): the
/// test fails, never skips, without one.
@Suite struct PostgresNaNTests {
    @Test func nanAndInfinitiesCountAsTheyMatch() throws {
        let url = try PostgresServer.database("nan")
        try PostgresRedefinedViewTests.psql(
            url,
            """
            CREATE TABLE n (id integer PRIMARY KEY, f float8, d numeric);
            INSERT INTO n VALUES (1, 'NaN', 'NaN'), (2, 'Infinity', 'Infinity'), (3, '-Infinity', '-Infinity'),
              (4, 1.5, 1.5), (5, 0, 0), (6, NULL, NULL), (7, -2, -2);
            """)
        let h = try Harness(context: try StoreOpener.open(url))
        let predicates = [
            "%K > 0", "%K < 0", "%K >= 1.5", "%K <= 1.5", "%K == nil", "%K != nil", "%K == 1.5", "%K != 1.5", "NOT (%K > 0)",
            "%K > 1e308", "%K < -1e308", "%K BETWEEN {-1, 2}", "%K IN {0, 1.5}", "%K * 2 > 1", "abs:(%K) > 1", "%K + 1 == nil",
            "%K == %K"
        ]
        for column in ["f", "d"] {
            for format in predicates {
                let keys = Array(repeating: "'\(column)'", count: format.components(separatedBy: "%K").count - 1)
                let p = "predicate(\(([luaString(format)] + keys).joined(separator: ", ")))"
                let memory = h.string(
                    "(function() local p, n = \(p), 0; for _, o in ipairs(fetch('n')) do if p:matches(o) then n = n + 1 end end; return n end)()")
                let sql = h.string("count('n', \(p))")
                #expect(memory == sql, "\(format.replacingOccurrences(of: "%K", with: column)): memory selects \(memory ?? "?"), SQL \(sql ?? "?")")
            }
            // Sorted by the server, nil (NaN among them) first, as memory orders nil.
            let sorted = h.string(
                "(function() local t = {}; for _, o in ipairs(fetch{ 'n', sort = { '\(column)', 'id' } }) do t[#t + 1] = o.id end; return table.concat(t, ',') end)()"
            )
            #expect(sorted == "1,6,3,7,5,4,2", "\(column) sorted: \(sorted ?? "?")")
            #expect(h.string("tostring(n:get(1).\(column))") == "nil")
        }
    }

    private func luaString(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'" }
}
