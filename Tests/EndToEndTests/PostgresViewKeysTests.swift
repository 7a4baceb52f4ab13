import Foundation
import QuarryTestSupport
import Testing

/// A schema's views are keyed when SQL first reads them, as a SQLite file's are
/// (`DeferredViews`): opening reads none of them, a view whose ids are distinct integers is
/// keyed by them, one whose ids repeat by its rows' places, a session that lost its
/// connection makes them again, and SQL a person writes reads the schema's own view.
/// Against a real server (`PostgresServer`): the test fails, never skips, without one.
@Suite struct PostgresViewKeysTests {
    @Test func viewsAreKeyedWhenFirstRead() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "viewkeys",
            schema: """
                CREATE TABLE item (id integer PRIMARY KEY, kind text, price float8);
                INSERT INTO item VALUES (3, 'a', 1.5), (5, 'b', 2.0), (8, 'a', 4.0);
                CREATE VIEW priced AS SELECT id, price FROM item;
                CREATE VIEW kinds AS SELECT 1 AS id, kind, sum(price) AS total FROM item GROUP BY kind;
                """, in: sandbox)
        let temporary = #"sql("SELECT string_agg(relname, ',' ORDER BY relname) AS v FROM pg_class WHERE relnamespace = pg_my_temp_schema()")[1].v"#
        let result = try await sandbox.quarry([
            url, "-e",
            """
            print(\(temporary))
            print(priced:get(5).price, \(temporary))
            local k = fetch{ "kinds", sort = { "kind" } }
            print(#k, k[1].id, k[2].id, k[1].total, k[2].total, k[1] == k[2])
            print(\(temporary))
            print(#sql("SELECT * FROM priced"), sql("SELECT * FROM kinds ORDER BY kind")[2].total, sql("SELECT * FROM priced ORDER BY id")[1]._row)
            -- A new connection makes the views already made again.
            print((pcall(sql, "SELECT pg_terminate_backend(pg_backend_pid())")))
            print(count("kinds"), priced:get(8).price, \(temporary))
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "nil", "2.0\tquarry_rows priced", "2\t1\t1\t5.5\t2.0\tfalse", "quarry_rows kinds,quarry_rows priced", "3\t2.0\tnil", "false",
                "2\t4.0\tquarry_rows kinds,quarry_rows priced"
            ], "\(result)")
        // The ids of `kinds` repeat: its objects are its rows' places.
        let places = try await sandbox.quarry([url, "-e", #"for _, o in ipairs(fetch{ "kinds", sort = { "kind" } }) do print(o:objectID()) end"#])
        #expect(places.lines.sorted() == ["kinds/1", "kinds/2"], "\(places)")
    }

    /// A view's columns are typed by the server, as a table's: a `timestamptz` compares
    /// with `date(...)` and a boolean with `true` in the server's SQL (a view was read as a
    /// SQLite file's, whose SQL asked `typeof()`, which the server lacks), sorts and groups.
    @Test func aViewsDatesAndBooleansCompareAsTheServersTypes() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "viewtypes",
            schema: """
                CREATE TABLE ev (id integer PRIMARY KEY, at timestamptz, done boolean, day date);
                INSERT INTO ev VALUES (1, '2021-01-01T10:00:00Z', true, '2021-01-01'), (2, '2022-06-01T00:00:00Z', false, '2022-06-01'),
                  (3, '2023-03-01T12:30:00Z', true, '2023-03-01'), (4, NULL, NULL, NULL);
                CREATE VIEW recent AS SELECT id, at, done, day FROM ev;
                """, in: sandbox)
        let result = try await sandbox.quarry([
            url, "-e",
            """
            print(count("recent", "at > %@", date("2022-01-01T00:00:00Z")), count("recent", "done == true"), count("recent", "at == nil"))
            print(count("recent", "day >= %@", date("2022-06-01T00:00:00Z")))
            local r = fetch{ "recent", predicate = "done == false OR at < %@", args = { date("2021-06-01T00:00:00Z") }, sort = { "-at" } }
            print(#r, r[1].id, r[2].id, typeof(r[1].at))
            local p = predicate("at > %@ AND done == true", date("2022-01-01T00:00:00Z"))
            local n = 0; for _, o in ipairs(fetch("recent")) do if p:matches(o) then n = n + 1 end end
            print(n, count("recent", p))
            print(#fetch{ "recent", result = "dictionaries", properties = { "done", "count(*) AS n" }, group = { "done" } })
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["2\t2\t1", "2", "2\t2\t1\tdate", "1\t1", "3"], "\(result)")
    }

    /// A connection lost during a view's first read is no answer: the read fails, saying
    /// so, and the view is made at the next read, keyed by the ids its definition shows
    /// (once, a lost check of its rows counted as "ids repeat", keying it by row places).
    @Test func aFirstReadThatLosesItsConnectionDecidesNothing() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "viewlost",
            schema: """
                CREATE TABLE item (id integer PRIMARY KEY, kind text);
                INSERT INTO item VALUES (3, 'a'), (5, 'b');
                CREATE TABLE pause (id integer PRIMARY KEY, seconds float8);
                INSERT INTO pause VALUES (1, 60);
                CREATE VIEW slow AS SELECT id, kind FROM item WHERE (SELECT pg_sleep(seconds) FROM pause WHERE id = 1) IS NOT NULL;
                """, in: sandbox)
        // Ends the session's backend while it reads the view, which holds it for 60 s.
        let killer = #"""
            for i in $(seq 1 600); do
              n=$(/usr/bin/psql "$1" -qAt -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%slow%' AND pid <> pg_backend_pid()")
              [ "$n" != 0 ] && break; sleep 0.1
            done
            """#
        let killerPath = try sandbox.write("killer.sh", killer)
        let result = try await sandbox.quarry(
            [
                url, "-e",
                """
                os.execute("sh '\(killerPath)' '\(url)' &")
                local ok, message = pcall(count, "slow")
                print(ok, (tostring(message):find("connection to the server was lost", 1, true)) ~= nil)
                pause:get(1).seconds = 0
                save()
                print(count("slow"))
                for _, o in ipairs(fetch{ "slow", sort = { "id" } }) do print(o:objectID()) end
                """
            ], timeout: 120)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["false\ttrue", "2", "slow/3", "slow/5"], "\(result)")
    }

    /// Views whose temporary view's name PostgreSQL would cut at 63 bytes (two long names
    /// alike for their first 51 bytes) or that SQL quotes with a doubled `"`: each reads its
    /// own rows. Cut bare, the second view's name was the first's, so it read the first's
    /// rows; a quoted name was never made ("relation does not exist"). A relation of the
    /// schema named as a temporary view would be keeps its name for SQL.
    @Test func longAndQuotedViewNamesReadTheirOwnRows() async throws {
        let sandbox = try Sandbox()
        let long = String(repeating: "a_very_long_view_name_", count: 2) + "padding_"
        let url = try await PostgresStoreTests.database(
            "viewnames",
            schema: """
                CREATE TABLE one (id integer PRIMARY KEY, a text);
                CREATE TABLE two (id integer PRIMARY KEY, a text);
                INSERT INTO one VALUES (1, 'one'); INSERT INTO two VALUES (1, 'two');
                CREATE VIEW "\(long)1" AS SELECT id, a FROM one;
                CREATE VIEW "\(long)2" AS SELECT id, a FROM two;
                CREATE VIEW "q""uote" AS SELECT id, a FROM two;
                CREATE VIEW v AS SELECT id, a FROM one;
                CREATE TABLE "quarry_rows v" (id integer PRIMARY KEY, note text);
                INSERT INTO "quarry_rows v" VALUES (42, 'mine');
                """, in: sandbox)
        let result = try await sandbox.quarry([
            url, "-e",
            """
            print(fetch{ "\(long)1" }[1].a, fetch{ "\(long)2" }[1].a, fetch{ "\(long)2" }[1].a)
            print(fetch{ 'q"uote' }[1].a, count('q"uote'))
            print(fetch{ "v" }[1].a, sql('SELECT * FROM "quarry_rows v"')[1].note)
            """
        ])
        #expect(result.status == 0, "\(result)")
        // The schema's own "quarry_rows v" is not shadowed by the session's view that keys v.
        #expect(result.lines == ["one\ttwo\ttwo", "two\t1", "one\tmine"], "\(result)")
    }
}
