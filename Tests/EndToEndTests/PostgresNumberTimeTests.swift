import Foundation
import QuarryTestSupport
import Testing

/// Times a schema's table keeps as numbers (issue 60, item 3, on PostgreSQL):
/// `format(entity, attribute, layout)` makes a number column a date for the session. Every
/// expectation is psql's own answer on the raw numbers, on the same server
/// (`PostgresServer`: fails, never skips, without one).
@Suite struct PostgresNumberTimeTests {
    /// Milliseconds since 1970 (bigint), Chrome's microseconds since 1601 with 0 for
    /// "never" (bigint, past 2^53), Unix seconds with a fraction (float8), iMessage's
    /// nanoseconds since 2001 (int8).
    static let schema = """
        CREATE TABLE ev (id serial PRIMARY KEY, kind text, at_ms bigint, visit bigint, seen float8, sent int8);
        INSERT INTO ev (kind, at_ms, visit, seen, sent) VALUES
          ('a', 1704067200000, 13348540800000000, 1704067200.25, 725760000123456789),
          ('b', 1717200000123, 0, 1600000000.5, NULL),
          ('a', 1577836800000, 13229000000000001, NULL, 600000000000000000),
          ('c', NULL, 13348540800000001, 1704067199.999, 725760000000000000),
          ('b', 1704067199999, NULL, 1700000000, 725759999999000000);
        """

    static let declarations = """
        format("ev", "at_ms", "unix-ms"); format("ev", "visit", "webkit", { never = 0 })
        format("ev", "seen", "unix-real"); format("ev", "sent", "cocoa-ns")
        """

    /// Predicates given dates, and psql's condition on the raw numbers (`e`).
    static let conditions: [(quarry: String, psql: String)] = [
        ("at_ms >= %@', date('2024-01-01T00:00:00Z')", "e.at_ms >= 1704067200000"),
        ("at_ms < %@', date('2024-01-01T00:00:00Z')", "e.at_ms < 1704067200000"),
        ("at_ms == %@', date('2024-06-01T00:00:00.123Z')", "e.at_ms = 1717200000123"),
        ("at_ms == nil'", "e.at_ms IS NULL"),
        ("visit > %@', date('2024-01-01T00:00:00Z')", "e.visit <> 0 AND e.visit > 13348540800000000"),
        ("visit == nil'", "e.visit IS NULL OR e.visit = 0"),
        (
            "visit BETWEEN {%@, %@}', date('2019-01-01T00:00:00Z'), date('2024-01-01T00:00:00Z')",
            "e.visit <> 0 AND e.visit BETWEEN 13192387200000000 AND 13348540800000000"
        ),
        ("seen >= %@', date('2024-01-01T00:00:00Z')", "e.seen >= 1704067200"),
        ("seen < %@', date('2023-11-14T22:13:20.5Z')", "e.seen < 1700000000.5"),
        ("sent > %@', date('2024-01-01T00:00:00Z')", "e.sent > 725760000000000000"),
        ("sent >= %@', date('2024-01-01T00:00:00Z')", "e.sent >= 725760000000000000"),
        ("sent == %@', date('2024-01-01T00:00:00Z')", "e.sent = 725760000000000000"),
        ("visit <= %@', date('2024-01-01T00:00:00Z')", "e.visit <> 0 AND e.visit <= 13348540800000000"),
        ("sent > at_ms'", "e.sent / 1000000000.0 + 978307200 > e.at_ms / 1000.0")
    ]

    @Test func timesKeptAsNumbersAreDatesForTheSession() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("numbertimes", in: sandbox, schema: Self.schema)
        let psql = { (query: String) in try await PostgresDecimalTests.psqlRows(sandbox, url, query) }
        let counts = try await psql(Self.conditions.map { "SELECT count(*) FROM ev e WHERE \($0.psql)" }.joined(separator: " UNION ALL "))
        let byVisit = try await psql(
            "SELECT string_agg(id::text, ' ' ORDER BY CASE WHEN visit = 0 THEN NULL ELSE visit END NULLS FIRST, id) FROM ev")
        let bySentDown = try await psql("SELECT string_agg(id::text, ' ' ORDER BY sent DESC NULLS LAST, id) FROM ev")
        // The latest time of each kind, as seconds to the microsecond (a timestamptz's).
        let groups = try await psql(
            "SELECT string_agg(kind || ':' || n || ':' || coalesce(round(s, 6)::text, 'nil'), ' ' ORDER BY kind) FROM "
                + "(SELECT kind, count(*) AS n, max(sent) / 1000000000.0 + 978307200 AS s FROM ev GROUP BY kind) g")
        let script =
            Self.declarations + "\n"
            + Self.conditions.map { c in
                """
                do local p = predicate('\(c.quarry)); local k = 0
                  for _, o in ipairs(fetch("ev")) do if p:matches(o) then k = k + 1 end end
                  print(count("ev", p), k) end
                """
            }.joined(separator: "\n") + #"""

                local function ids(r) local t = {} for _, o in ipairs(r) do t[#t + 1] = o.id end return table.concat(t, " ") end
                local function s(d) return d == nil and "nil" or string.format("%.6f", d - date(0)) end
                print(format("ev", "at_ms"), format("ev", "visit"), format("ev", "seen"), format("ev", "sent"), format("ev", "kind"))
                print(ids(fetch{ "ev", sort = { "visit", "id" } }))
                print(ids(fetch{ "ev", sort = { "-sent", "id" } }))
                local g = {}
                for _, r in ipairs(fetch{ "ev", result = "dictionaries", properties = { "kind", "count(*) AS n", "max(sent) AS m" }, group = { "kind" }, sort = { "kind" } }) do
                  g[#g + 1] = r.kind .. ":" .. r.n .. ":" .. s(r.m) end
                print(table.concat(g, " "))
                -- Bounded as raw counts too, for an index on the column.
                print(explain(fetch{ "ev", predicate = "at_ms >= %@", args = { date("2024-01-01T00:00:00Z") } }):find('"at_ms" > CAST(? AS bigint)', 1, true) ~= nil)
                local e = ev:get(1)
                print(typeof(e.at_ms), typeof(e.sent), s(e.at_ms), s(e.visit), s(e.seen), s(e.sent), s(ev:get(2).visit), s(ev:get(3).visit))
                print(export(fetch{ "ev", sort = { "id" } }, "copy.csv"), export({ sql = "SELECT * FROM ev ORDER BY id" }, "sql.csv"))
                -- Saved with their times unchanged: the integers stay as they are.
                e.kind = "z"; ev:get(3).kind = "y"
                print(export(fetch{ "ev", sort = { "id" } }, "pending.csv"))
                save()
                local f = ev:get(2); local t = date("2024-02-01T00:00:00.25Z")
                f.at_ms = t; f.visit = t; f.seen = t; f.sent = t
                ev:get(4).visit = nil
                local n = ev:new{ kind = "new", at_ms = date("2024-04-01T00:00:00Z") }
                save()
                print(s(f.sent), s(ev:get(4).visit), n.id, s(n.visit), count("ev", "visit == nil"))
                """#
        let result = try await sandbox.quarry([url, "-e", script])
        #expect(result.status == 0, "\(result)")
        let rest = PostgresEnumOrderTests.expectPsqlsCounts(counts, Self.conditions, result)
        #expect(rest.first == "unix-ms\twebkit\tunix-real\tcocoa-ns\tplain", "\(result)")
        #expect(rest.dropFirst().first.map { $0 + "\n" } == byVisit, "\(result)")
        // Never (0) and NULL first, as nil sorts; 13229000000000001 µs keeps its last µs.
        #expect(byVisit == "2 5 3 1 4\n")
        #expect(rest.dropFirst(2).first.map { $0 + "\n" } == bySentDown, "\(result)")
        #expect(rest.dropFirst(3).first.map { $0 + "\n" } == groups, "\(result)")
        #expect(groups == "a:2:1704067200.123457 b:2:1704067199.999000 c:1:1704067200.000000\n")
        #expect(rest.dropFirst(4).first == "true", "\(result)")
        #expect(
            rest.dropFirst(5).first
                == "date\tdate\t1704067200.000000\t1704067200.000000\t1704067200.250000\t1704067200.123457\tnil\t1584526400.000001",
            "\(result)")
        #expect(rest.dropFirst(6).first == "5\t5", "\(result)")
        #expect(rest.dropFirst(7).first == "5", "\(result)")
        #expect(rest.dropFirst(8).first == "1706745600.250000\tnil\t6\tnil\t3", "\(result)")

        // COPY and objects (a change pending) export the same ISO 8601 times; sql() reads
        // the stored numbers, as on a SQLite file.
        let copied = try sandbox.read("copy.csv")
        #expect(
            copied == """
                id,kind,at_ms,visit,seen,sent
                1,a,2024-01-01T00:00:00Z,2024-01-01T00:00:00Z,2024-01-01T00:00:00.25Z,2024-01-01T00:00:00.123457Z
                2,b,2024-06-01T00:00:00.123Z,,2020-09-13T12:26:40.5Z,
                3,a,2020-01-01T00:00:00Z,2020-03-18T10:13:20.000001Z,,2020-01-06T10:40:00Z
                4,c,,2024-01-01T00:00:00.000001Z,2023-12-31T23:59:59.999Z,2024-01-01T00:00:00Z
                5,b,2023-12-31T23:59:59.999Z,,2023-11-14T22:13:20Z,2023-12-31T23:59:59.999Z

                """, "\(copied)")
        #expect(
            try sandbox.read("pending.csv")
                == copied.replacingOccurrences(of: "\n1,a,", with: "\n1,z,").replacingOccurrences(of: "\n3,a,", with: "\n3,y,"))
        #expect(
            try sandbox.read("sql.csv") == """
                id,kind,at_ms,visit,seen,sent
                1,a,1704067200000,13348540800000000,1704067200.25,725760000123456789
                2,b,1717200000123,0,1600000000.5,
                3,a,1577836800000,13229000000000001,,600000000000000000
                4,c,,13348540800000001,1704067199.999,725760000000000000
                5,b,1704067199999,,1700000000.0,725759999999000000

                """)
        // Unchanged times kept to the nanosecond; changed ones in each column's unit; nil
        // as "never".
        let stored = try await psql("SELECT id, kind, at_ms, visit, seen, sent FROM ev ORDER BY id")
        #expect(
            stored == """
                1\tz\t1704067200000\t13348540800000000\t1704067200.25\t725760000123456789
                2\tb\t1706745600250\t13351219200250000\t1706745600.25\t728438400250000000
                3\ty\t1577836800000\t13229000000000001\t\t600000000000000000
                4\tc\t\t0\t1704067199.999\t725760000000000000
                5\tb\t1704067199999\t\t1700000000\t725759999999000000
                6\tnew\t1711929600000\t0\t\t

                """, "\(stored)")
    }

    /// A server's columns are typed: a time layout is for a number column of a table, the
    /// refusal names the column, and `plain` makes it a number again.
    @Test func typedColumnsTakeTimeLayoutsOnly() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "numbertimerefusals", in: sandbox,
            schema: """
                CREATE TABLE ev (id serial PRIMARY KEY, kind text, at timestamptz, at_ms bigint, fee money);
                INSERT INTO ev (kind, at, at_ms, fee) VALUES ('a', '2024-01-01 00:00:00+00', 1704067200000, '$1');
                CREATE VIEW v AS SELECT id, at_ms FROM ev;
                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            for _, a in ipairs({ { "ev", "kind", "unix-ms" }, { "ev", "kind", "iso-space" }, { "ev", "at", "unix-ms" }, { "ev", "fee", "unix" },
                                 { "ev", "at_ms", "uuid" }, { "v", "at_ms", "unix-ms" } }) do
              local ok, err = pcall(format, a[1], a[2], a[3]); print(ok, (tostring(err):gsub("^.-: entity", "entity")))
            end
            format("ev", "at_ms", "unix-ms"); print(typeof(ev:get(1).at_ms), format("ev", "at_ms"))
            format("ev", "at_ms", "plain"); print(typeof(ev:get(1).at_ms), ev:get(1).at_ms, format("ev", "at_ms"))
            entity "Book" { n = "int64" }
            local ok, err = pcall(format, "Book", "n", "unix"); print(ok, (tostring(err):gsub("^.-: entity", "entity")))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.count == 9, "\(result)")
        #expect(lines.first?.hasPrefix("false\tentity ev: 'unix-ms' is no format for string column kind") == true, "\(result)")
        #expect(lines.dropFirst().first?.hasPrefix("false\tentity ev: kind is a PostgreSQL column, which the server types") == true, "\(result)")
        #expect(
            lines.dropFirst(2).first == "false\tentity ev: 'unix-ms' is no format for date column at: the server keeps it as a date already",
            "\(result)")
        #expect(
            lines.dropFirst(3).first == "false\tentity ev: 'unix' is no format for money column fee: times are declared in a column of numbers",
            "\(result)")
        #expect(lines.dropFirst(4).first?.hasPrefix("false\tentity ev: 'uuid' is no format for int64 column at_ms") == true, "\(result)")
        #expect(lines.dropFirst(5).first?.hasPrefix("false\tentity v: v is a view of the server") == true, "\(result)")
        #expect(lines.dropFirst(6).first == "date\tunix-ms", "\(result)")
        #expect(lines.dropFirst(7).first == "number\t1704067200000\tplain", "\(result)")
        // A table Quarry made keeps Quarry's encoding.
        #expect(lines.dropFirst(8).first?.hasPrefix("false\tentity Book: Book is kept in its store's own encoding") == true, "\(result)")
    }

    /// Through a relationship too: a to-many's `@max` and `ANY`, and a to-one's path, read
    /// the time as a date in SQL as in memory.
    @Test func relationshipsReadTheTimeAsADate() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "numbertimepaths", in: sandbox,
            schema: """
                CREATE TABLE who (id serial PRIMARY KEY, name text);
                CREATE TABLE post (id serial PRIMARY KEY, who_id int REFERENCES who (id), at_ms bigint);
                INSERT INTO who (name) VALUES ('ann'), ('bo'), ('cy');
                INSERT INTO post (who_id, at_ms) VALUES (1, 1704067200000), (1, 1577836800000), (2, 1577836800000), (2, 1600000000000), (3, NULL);
                """)
        let conditions: [(quarry: String, psql: String)] = [
            ("posts.@max.at_ms > %@", "(SELECT max(at_ms) FROM post p WHERE p.who_id = w.id) > 1609459200000"),
            ("posts.@min.at_ms < %@", "(SELECT min(at_ms) FROM post p WHERE p.who_id = w.id) < 1609459200000"),
            ("ANY posts.at_ms > %@", "EXISTS (SELECT 1 FROM post p WHERE p.who_id = w.id AND p.at_ms > 1609459200000)")
        ]
        let counts = try await PostgresDecimalTests.psqlRows(
            sandbox, url, conditions.map { "SELECT count(*) FROM who w WHERE \($0.psql)" }.joined(separator: " UNION ALL "))
        let script =
            "format('post', 'at_ms', 'unix-ms')\n"
            + conditions.map { c in
                """
                do local p = predicate('\(c.quarry)', date('2021-01-01T00:00:00Z')); local k = 0
                  for _, o in ipairs(fetch("who")) do if p:matches(o) then k = k + 1 end end
                  print(count("who", p), k) end
                """
            }.joined(separator: "\n")
            + "\nprint(count('post', \"who.name == 'ann' AND at_ms > %@\", date('2021-01-01T00:00:00Z')))"
                // An observer of a date predicate hears a time moved into and out of it.
                + #"""

                local r = fetch{ "post", predicate = "at_ms > %@", args = { date("2021-01-01T00:00:00Z") }, sort = { "at_ms" } }
                observe(r, function(ev) print("inserted", #ev.inserted, "deleted", #ev.deleted) end)
                post:get(2).at_ms = date("2022-01-01T00:00:00Z"); save()
                print(#r, r[1].id)
                post:get(1).at_ms = date("2020-01-01T00:00:00Z"); save()
                print(#r, r[1].id)
                print(import("new.csv", { entity = "post" }))
                """#
        // An import writes a date into the column as its number.
        try sandbox.write("new.csv", "who_id,at_ms\n3,2024-05-01T00:00:00.5Z\n")
        let result = try await sandbox.quarry([url, "-e", script])
        #expect(result.status == 0, "\(result)")
        #expect(counts == "1\n2\n1\n")
        let stored = try await PostgresDecimalTests.psqlRows(
            sandbox, url, "SELECT string_agg(coalesce(at_ms::text, 'null'), ' ' ORDER BY id) FROM post")
        #expect(stored == "1577836800000 1640995200000 1577836800000 1600000000000 null 1714521600500\n", "\(stored)")
        let rest = PostgresEnumOrderTests.expectPsqlsCounts(counts, conditions, result)
        #expect(rest == ["1", "inserted\t1\tdeleted\t0", "2\t2", "inserted\t0\tdeleted\t1", "1\t2", "1"], "\(result)")
    }
}
