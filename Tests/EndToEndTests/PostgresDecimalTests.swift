import Foundation
import QuarryTestSupport
import Testing

/// PostgreSQL's `numeric` is exact (issue 45, item 4): a `numeric(10,2)` column is a
/// decimal attribute whose values, sums and averages print as psql prints them (`1.90`,
/// not `1.9`), whose sums and arithmetic run as numeric on the server, compared with
/// exact arguments, answered alike in memory, and written back exactly.
@Suite struct PostgresDecimalTests {
    static let schema = """
        CREATE TABLE customer (customer_id integer PRIMARY KEY, name text);
        CREATE TABLE invoice (invoice_id integer PRIMARY KEY, customer_id integer REFERENCES customer (customer_id),
          country text, total numeric(10,2) NOT NULL, rate float8);
        INSERT INTO customer VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');
        INSERT INTO invoice VALUES (1, 1, 'Norway', 0.99, 0.5), (2, 1, 'Norway', 1.98, 0.1), (3, 2, 'Brazil', 3.96, 0.2),
          (4, 2, 'Brazil', 5.94, 0.3), (5, 2, 'Chile', 8.91, NULL), (6, 1, 'Chile', 13.86, 1), (7, 1, 'Norway', 0.10, 2),
          (8, 2, 'Brazil', 0.20, 3), (9, 1, 'Chile', 1.90, 4), (10, NULL, 'Chile', 0.30, 5);
        """

    static func psqlRows(_ sandbox: Sandbox, _ url: String, _ query: String) async throws -> String {
        let result = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-At", "-F", "\t", "-c", query, url], timeout: 60)
        guard result.status == 0 else { throw HarnessError("psql -c \(query) failed: \(result)") }
        return result.stdout
    }

    @Test func numericIsAnExactDecimal() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("decimals", in: sandbox, schema: Self.schema)
        // What psql prints, to the digit, before Quarry writes.
        let sums = try await Self.psqlRows(sandbox, url, "SELECT sum(total), avg(total), sum(total * 2) FROM invoice")
        let groups = try await Self.psqlRows(sandbox, url, "SELECT country, sum(total) FROM invoice GROUP BY country ORDER BY country")
        let counts = try await Self.psqlRows(
            sandbox, url,
            """
            SELECT (SELECT count(*) FROM invoice WHERE total > 1.98), (SELECT count(*) FROM invoice WHERE total > 1.98),
              (SELECT count(*) FROM invoice WHERE total = 0.1), (SELECT count(*) FROM invoice WHERE total * 2 >= 3.96),
              (SELECT count(*) FROM invoice WHERE total + total = 0.20), (SELECT count(*) FROM invoice WHERE total * rate > 1)
            """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            print(invoice)
            local o = invoice:get(9)
            print(o.total, typeof(o.total), invoice:get(7).total)
            local r = fetch{ "invoice", result = "dictionaries", properties = { "sum(total)", "avg(total)", "sum(total * 2) AS twice" } }[1]
            print(r["sum(total)"], r["avg(total)"], r.twice)
            for _, g in ipairs(fetch{ "invoice", result = "dictionaries", properties = { "country", "sum(total) AS s" }, group = { "country" } }) do
              print(g.country, g.s)
            end
            print(sql("SELECT sum(total) AS s FROM invoice")[1].s)
            print(count("invoice", "total > %@", 1.98), count("invoice", "total > %@", decimal("1.98")), count("invoice", "total == 0.1"),
              count("invoice", "total * 2 >= 3.96"), count("invoice", "total + total == %@", decimal("0.20")), count("invoice", "total * rate > 1"))
            local p = predicate("total * 3 > %@ AND total - 1 < 9", decimal("2.97")); local n = 0
            for _, i in ipairs(fetch("invoice")) do if p:matches(i) then n = n + 1 end end
            print(n, count("invoice", p))
            local q = predicate("invoices.@sum.total > %@ OR invoices.@sum.total == 16.95", decimal("16.00")); local m = 0
            for _, c in ipairs(fetch("customer")) do if q:matches(c) then m = m + 1 end end
            print(m, count("customer", q))
            local w = predicate("total * rate > 1"); local k = 0
            for _, i in ipairs(fetch("invoice")) do if w:matches(i) then k = k + 1 end end
            print(k)
            o.total = decimal("12.30"); invoice:get(1).total = 2.675; invoice:get(2).total = 7
            print(save().updated)
            print(o.total + decimal("0.05"), o.total * 2, -o.total, o.total < 13, o.total == decimal("12.3"), o.total.number)
            print(invoice:get(1).total, fetch{ "invoice", sort = { "-total" }, limit = 1 }[1].invoice_id)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(
            lines.first
                == "entity invoice { invoice_id: int32?, customer_id: int32?, country: string?, total: decimal, rate: double?, customer: one customer }",
            "\(result)")
        #expect(lines.dropFirst().first == "1.90\tdecimal\t0.10", "\(result)")
        #expect(sums == "38.14\t3.8140000000000000\t76.28\n")
        #expect(lines.dropFirst(2).first.map { $0 + "\n" } == sums, "\(result)")
        #expect(lines.dropFirst(3).prefix(3).joined(separator: "\n") + "\n" == groups, "\(result)")
        #expect(groups.contains("Chile\t24.97"), "\(groups)")
        #expect(lines.dropFirst(6).first == "38.14", "\(result)")
        // Arguments bound exactly; arithmetic of decimals as numeric, with a float8 as float8.
        #expect(lines.dropFirst(7).first.map { $0 + "\n" } == counts, "\(result)")
        // Memory agrees with SQL.
        #expect(lines.dropFirst(8).first == "5\t5", "\(result)")
        #expect(lines.dropFirst(9).first == "2\t2", "\(result)")
        #expect(lines.dropFirst(10).first == counts.split(separator: "\t").last.map { String($0.dropLast()) }, "\(result)")
        // Written exactly: 2.675 is the text "2.675", which numeric(10,2) rounds up.
        #expect(lines.dropFirst(11).first == "3", "\(result)")
        #expect(lines.dropFirst(12).first == "12.35\t24.60\t-12.30\ttrue\ttrue\t12.3", "\(result)")
        #expect(lines.dropFirst(13).first == "2.68\t6", "\(result)")
        let stored = try await Self.psqlRows(sandbox, url, "SELECT invoice_id, total FROM invoice WHERE invoice_id IN (1, 2, 9) ORDER BY invoice_id")
        #expect(stored == "1\t2.68\n2\t7.00\n9\t12.30\n", "\(stored)")
    }
}

/// Exact at any size (issue 61, item 1): a 50-digit `numeric` incremented in Lua and saved
/// keeps every digit; 41-digit values compare alike on the server (`count`) and in memory
/// (`p:matches`); 1e-70 squared does not trap; a decimal past a column's `numeric(p,s)`
/// and a value past `money`'s range name the column.
@Suite struct PostgresExactDecimalTests {
    static let fifty = "1234567890123456789012345678901234567890123456789"
    static let schema = """
        CREATE TABLE t (id integer PRIMARY KEY, x numeric, y numeric, small numeric(5,2), m money);
        INSERT INTO t VALUES (1, \(fifty)0, 1\(String(repeating: "0", count: 39))1, 1, 1),
          (2, 1e-70, 1\(String(repeating: "0", count: 39))2, 2, 2), (3, 0, 1\(String(repeating: "0", count: 39))3, 3, 3);
        """

    @Test func numericKeepsEveryDigitAndNamesItsColumn() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("exactdecimals", in: sandbox, schema: Self.schema)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local o = t:get(1)
            o.x = o.x + 1; print(save().updated, o.x)
            local big = decimal("1" .. ("0"):rep(39) .. "1")
            local p = predicate("y > %@", big); local n = 0
            for _, r in ipairs(fetch("t")) do if p:matches(r) then n = n + 1 end end
            print(count("t", "y > %@", big), n, count("t", "y == %@", big), count("t", "y + 1 == %@", decimal("1" .. ("0"):rep(39) .. "3")))
            print(pcall(function() return t:get(2).x * t:get(2).x end))
            local third = predicate("small / 3 == %@", decimal("0.33333333333333333333")); local k = 0
            for _, r in ipairs(fetch("t")) do if third:matches(r) then k = k + 1 end end
            print(count("t", third), k)
            o.small = decimal("12345.1"); print(select(2, pcall(save))); rollback()
            o.small = o.x; print(select(2, pcall(save))); rollback()
            o.m = decimal("1e20"); print(select(2, pcall(save))); rollback()
            o.m = decimal("12.345"); print(save().updated)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.first == "1\t\(Self.fifty)1", "\(result)")
        #expect(lines.dropFirst().first == "2\t2\t1\t1", "\(result)")
        #expect(lines.dropFirst(2).first == "true\t0." + String(repeating: "0", count: 139) + "1", "\(result)")
        #expect(lines.dropFirst(3).first == "1\t1", "\(result)")
        #expect(
            lines.dropFirst(4).first?.contains("t.small expects numeric(5,2), at most 3 digits before the point, got 12345.1") == true, "\(result)")
        #expect(
            lines.dropFirst(5).first?.contains("t.small expects numeric(5,2), at most 3 digits before the point, got \(Self.fifty)1") == true,
            "\(result)")
        #expect(
            lines.dropFirst(6).first?.contains("t.m expects money, from -92233720368547758.08 to 92233720368547758.07, got 100000000000000000000")
                == true, "\(result)")
        #expect(lines.dropFirst(7).first == "1", "\(result)")
        let stored = try await PostgresDecimalTests.psqlRows(sandbox, url, "SELECT x::text, small::text, m::numeric::text FROM t WHERE id = 1")
        #expect(stored == "\(Self.fifty)1\t1.00\t12.35\n", "\(stored)")
    }
}
