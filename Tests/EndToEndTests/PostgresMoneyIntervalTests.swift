import Foundation
import QuarryTestSupport
import Testing

/// PostgreSQL's `money` and `interval` compare as the numbers they hold (issue 45), not
/// as their text (`'$1,200.50' < '$5.00'`, `'1 mon' < '2 days'`): money is a decimal,
/// read, compared, summed and sorted as `numeric`; an interval is a double of seconds,
/// a month 30 days, as the server compares intervals. Every answer is psql's own, on
/// the same server; memory agrees with SQL; writes go back as the server's own types.
@Suite struct PostgresMoneyIntervalTests {
    static let schema = """
        CREATE TABLE fee (id serial PRIMARY KEY, owner_id integer, c money, iv interval);
        CREATE TABLE owner (id serial PRIMARY KEY, name text);
        ALTER TABLE fee ADD FOREIGN KEY (owner_id) REFERENCES owner (id);
        INSERT INTO owner (name) VALUES ('Ann'), ('Bo');
        INSERT INTO fee (owner_id, c, iv) VALUES (1, '$5.00', '2 days'), (1, '$1200.50', '3 hours'), (2, NULL, '1 mon'),
          (2, '$10', '10 minutes'), (1, '-$3.25', '1 year'), (NULL, '$0.5', '364 days'), (2, '$6.00', NULL), (1, '$1,000', '-01:30:00');
        """

    /// Predicates and psql's SQL for the same condition over fee (`f`).
    static let conditions: [(quarry: String, psql: String)] = [
        ("c > 6", "f.c::numeric > 6"),
        ("c >= 6 AND c < 1000", "f.c::numeric >= 6 AND f.c::numeric < 1000"),
        ("c BETWEEN {0.5, 10}", "f.c::numeric BETWEEN 0.5 AND 10"),
        ("c * 2 > 20", "f.c::numeric * 2 > 20"),
        ("iv > 3600", "f.iv > interval '1 hour'"),
        ("iv < 86400 * 365", "f.iv < interval '365 days'"),
        ("iv >= 2592000", "f.iv >= interval '1 mon'"),
        ("iv < 0", "f.iv < interval '0'"),
        (
            "owner.name == 'Ann' AND iv > 86400",
            "EXISTS (SELECT 1 FROM owner o WHERE o.id = f.owner_id AND o.name = 'Ann') AND f.iv > interval '1 day'"
        )
    ]

    @Test func moneyAndIntervalsCompareAsNumbersAsPsqlDoes() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("moneyinterval", in: sandbox, schema: Self.schema)
        let psql = { (query: String) in try await PostgresDecimalTests.psqlRows(sandbox, url, query) }
        let counts = try await psql(Self.conditions.map { "SELECT count(*) FROM fee f WHERE \($0.psql)" }.joined(separator: " UNION ALL "))
        let byMoney = try await psql("SELECT string_agg(id::text, ' ' ORDER BY c NULLS FIRST, id) FROM fee")
        let byMoneyDown = try await psql("SELECT string_agg(id::text, ' ' ORDER BY c DESC NULLS LAST, id DESC) FROM fee")
        let byInterval = try await psql("SELECT string_agg(id::text, ' ' ORDER BY iv NULLS FIRST, id) FROM fee")
        let sums = try await psql("SELECT sum(c)::numeric, max(c)::numeric, min(c)::numeric FROM fee")
        let groups = try await psql("SELECT owner_id, sum(c)::numeric FROM fee WHERE owner_id IS NOT NULL GROUP BY owner_id ORDER BY owner_id")
        let ownerSums = try await psql("SELECT count(*) FROM owner o WHERE (SELECT sum(c)::numeric FROM fee WHERE owner_id = o.id) > 1000")
        let script =
            Self.conditions.map { c in
                """
                do local p = predicate("\(c.quarry)"); local k = 0
                  for _, o in ipairs(fetch("fee")) do if p:matches(o) then k = k + 1 end end
                  print(count("fee", p), k) end
                """
            }.joined(separator: "\n") + #"""

                local function ids(r) local t = {} for _, o in ipairs(r) do t[#t + 1] = o.id end return table.concat(t, " ") end
                print(fee)
                print(ids(fetch{ "fee", sort = { "c" } }))
                print(ids(fetch{ "fee", sort = { "-c" } }))
                print(ids(fetch{ "fee", sort = { "iv" } }))
                local r = fetch{ "fee", result = "dictionaries", properties = { "sum(c)", "max(c)", "min(c)" } }[1]
                print(r["sum(c)"] .. "\t" .. r["max(c)"] .. "\t" .. r["min(c)"])
                for _, g in ipairs(fetch{ "fee", predicate = "owner_id != nil", result = "dictionaries", properties = { "owner_id", "sum(c) AS s" }, group = { "owner_id" } }) do
                  print(g.owner_id .. "\t" .. g.s) end
                print(count("owner", "fees.@sum.c > 1000"))
                local f = fee:get(2); print(f.c, typeof(f.c), f.iv, fee:get(3).iv, fee:get(5).iv)
                """#
        let result = try await sandbox.quarry([url, "-e", script])
        #expect(result.status == 0, "\(result)")
        let rest = PostgresEnumOrderTests.expectPsqlsCounts(counts, Self.conditions, result)
        #expect(rest.first == "entity fee { id: int32?, owner_id: int32?, c: decimal?, iv: double?, owner: one owner }", "\(result)")
        #expect(rest.dropFirst().first.map { $0 + "\n" } == byMoney, "\(result)")
        // Not the text's order, which puts $1,200.50 before $5.00.
        #expect(byMoney == "3 5 6 1 7 4 8 2\n")
        #expect(rest.dropFirst(2).first.map { $0 + "\n" } == byMoneyDown, "\(result)")
        #expect(rest.dropFirst(3).first.map { $0 + "\n" } == byInterval, "\(result)")
        // A year is twelve months of 30 days, as the server compares it: before 364 days.
        #expect(byInterval == "7 8 4 2 1 3 5 6\n")
        #expect(rest.dropFirst(4).first.map { $0 + "\n" } == sums, "\(result)")
        #expect(rest.dropFirst(5).prefix(2).joined(separator: "\n") + "\n" == groups, "\(result)")
        #expect(rest.dropFirst(7).first.map { $0 + "\n" } == ownerSums, "\(result)")
        #expect(rest.dropFirst(8).first == "1200.50\tdecimal\t10800.0\t2592000.0\t31104000.0", "\(result)")
    }

    /// Values written to money and interval columns are the server's: a decimal as the
    /// money it is, seconds as the interval they are; unsaved objects sort as saved rows.
    @Test func writesGoBackAsTheServersTypes() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("moneyintervalwrites", in: sandbox, schema: Self.schema)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            -- Each row by its interval, all distinct (a decimal reads back as the server's numeric: 7 is 7.00 once saved).
            local function ids(r) local t = {} for _, o in ipairs(r) do t[#t + 1] = tostring(o.iv) end return table.concat(t, " ") end
            local f = fee:get(4); f.c = decimal("12.34"); f.iv = 7200.5
            fee:new{ c = 7, iv = -30 }; fee:new{ c = decimal("1234567.89"), iv = 90061 }
            local before = { ids(fetch{ "fee", sort = { "c" } }), ids(fetch{ "fee", sort = { "-iv" } }), count("fee", "c > 7 OR iv < 60") }
            local p = predicate("c > 7 OR iv < 60"); local k = 0
            for _, o in ipairs(fetch("fee")) do if p:matches(o) then k = k + 1 end end
            local s = save(); print(s.inserted, s.updated)
            print(before[1] == ids(fetch{ "fee", sort = { "c" } }), before[2] == ids(fetch{ "fee", sort = { "-iv" } }), before[3], k, count("fee", p))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "2\t1", "\(result)")
        let agreed = try await PostgresDecimalTests.psqlRows(
            sandbox, url, "SELECT count(*) FROM fee WHERE c::numeric > 7 OR iv < interval '60 seconds'")
        #expect(result.lines.dropFirst().first == "true\ttrue\t\(agreed.dropLast())\t\(agreed.dropLast())\t\(agreed.dropLast())", "\(result)")
        let stored = try await PostgresDecimalTests.psqlRows(sandbox, url, "SELECT c::text, iv::text FROM fee WHERE id IN (4, 9, 10) ORDER BY id")
        #expect(stored == "$12.34\t02:00:00.5\n$7.00\t-00:00:30\n$1,234,567.89\t25:01:01\n", "\(stored)")

        // A double whose shortest text has an exponent is still seconds; one past the
        // interval's range is refused in one line, and nothing of that save is written.
        let edges = try await sandbox.quarry([
            url, "-e",
            #"""
            local f = fee:get(1); f.iv = 1.5e-6; save(); print(f.iv)
            fee:get(2).iv = 1e20; fee:get(3).c = 1; print(pcall(save))
            """#
        ])
        #expect(edges.status == 0, "\(edges)")
        #expect(edges.lines.first == "2e-06", "\(edges)")
        #expect(edges.lines.dropFirst().first == "false\t(command line):2: save: PostgreSQL: interval out of range", "\(edges)")
        let kept = try await PostgresDecimalTests.psqlRows(sandbox, url, "SELECT id, c::text, iv::text FROM fee WHERE id <= 3 ORDER BY id")
        #expect(kept == "1\t$5.00\t00:00:00.000002\n2\t$1,200.50\t03:00:00\n3\t\t1 mon\n", "\(kept)")
        // `updateall` writes seconds as a save does, exponent or not.
        let batch = try await sandbox.quarry([
            url, "-e", #"print(fee:updateall("id == 1", {}, { iv = 1.5e-5 }), fee:updateall("id == 2", {}, { iv = 3600.5 }), fee:get(1).iv)"#
        ])
        #expect(batch.lines == ["1\t1\t1.5e-05"], "\(batch)")
        let batched = try await PostgresDecimalTests.psqlRows(sandbox, url, "SELECT iv::text FROM fee WHERE id <= 2 ORDER BY id")
        #expect(batched == "00:00:00.000015\n01:00:00.5\n", "\(batched)")
    }

    /// An export writes money and intervals as their attributes read them (a number, and
    /// seconds), whether the rows come through COPY (no unsaved change) or object by
    /// object (one pending): the server's own text (`"$1,200.50"`, `1 mon`) was exported
    /// through COPY, another file than the same results with a change pending.
    @Test func exportsWriteTheNumbersTheAttributesRead() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("moneyexport", in: sandbox, schema: Self.schema)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local r = fetch{ "fee", predicate = "id <= 3", sort = { "id" } }
            export(r, "copied.csv"); export(r, "copied.json")
            fee:get(8).c = decimal("1")
            export(fetch{ "fee", predicate = "id <= 3", sort = { "id" } }, "objects.csv")
            print(fee:get(2).c, fee:get(3).iv)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "1200.50\t2592000.0", "\(result)")
        let copied = try String(contentsOfFile: sandbox.path("copied.csv"), encoding: .utf8)
        #expect(copied.contains("1200.50,10800.0") && copied.contains(",2592000.0"), "\(copied)")
        #expect(!copied.contains("$") && !copied.contains("mon") && !copied.contains("days"), "\(copied)")
        let json = try String(contentsOfFile: sandbox.path("copied.json"), encoding: .utf8)
        #expect(!json.contains("$") && !json.contains("mon"), "\(json)")
        let objects = try String(contentsOfFile: sandbox.path("objects.csv"), encoding: .utf8)
        #expect(objects == copied, "\(objects)\n\(copied)")
    }

    /// Money is written as a numeric, which the server makes money whatever its locale:
    /// a double whose text has an exponent (`1e-07`, `1e+16`) was refused as "invalid input
    /// syntax for type money", and under an `lc_monetary` whose decimal mark is a comma
    /// the same text (`1234.5`) was read with `.` as a thousands separator, ten times over.
    @Test func moneyIsWrittenAsItsNumber() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("moneywrites", in: sandbox, schema: Self.schema)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            local f = fee:get(1); f.c = 1e-7; fee:get(2).c = 1e16; fee:new{ c = 2.5e-3 }
            print(pcall(save))
            print(f.c, fee:get(2).c)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first?.hasPrefix("true") == true, "\(result)")
        let stored = try await PostgresDecimalTests.psqlRows(sandbox, url, "SELECT c::numeric FROM fee WHERE id IN (1, 2, 9) ORDER BY id")
        #expect(stored == "0.00\n10000000000000000.00\n0.00\n", "\(stored)")
    }
}
