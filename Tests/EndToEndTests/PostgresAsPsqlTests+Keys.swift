import Foundation
import QuarryTestSupport
import Testing

/// Issue 86, items 4 and 5 and the `date` display: rows known by their keys.
extension PostgresAsPsqlTests {
    /// nycflights13's airlines, planes and flights as psql loads them with their keys
    /// (`carrier` and `tailnum` text primary keys; flights' tailnums that no plane has
    /// are kept, as in the data, so `flights.tailnum` is related by Quarry, not a key).
    static func keyedFlights(_ sandbox: Sandbox) async throws -> String {
        let url = try await PostgresStoreTests.database(
            "keyedflights", in: sandbox,
            schema: """
                CREATE TABLE airlines (carrier text PRIMARY KEY, name text);
                CREATE TABLE planes (tailnum text PRIMARY KEY, year int, type text, manufacturer text, model text, engines int,
                  seats int, speed int, engine text);
                CREATE TABLE flights (id bigserial PRIMARY KEY, year int, month int, day int, dep_time int, sched_dep_time int,
                  dep_delay double precision, arr_time int, sched_arr_time int, arr_delay double precision,
                  carrier text REFERENCES airlines (carrier), flight int, tailnum text, origin text, dest text,
                  air_time double precision, distance double precision, hour int, minute int, time_hour timestamptz);

                """)
        let columns =
            "year, month, day, dep_time, sched_dep_time, dep_delay, arr_time, sched_arr_time, arr_delay, carrier, flight, tailnum, origin, dest, air_time, distance, hour, minute, time_hour"
        for (table, file, list) in [("airlines", "airlines.csv", ""), ("planes", "planes.csv", ""), ("flights", "flights.csv", " (\(columns))")] {
            let csv = try SharedData.path("nycflights13/\(file)")
            let copy = try await sandbox.run(
                URL(fileURLWithPath: "/usr/bin/psql"),
                ["-q", "-v", "ON_ERROR_STOP=1", "-c", "\\copy \(table)\(list) FROM '\(csv)' WITH (FORMAT csv, HEADER, NULL 'NA')", url],
                timeout: 120)
            guard copy.status == 0 else { throw HarnessError("psql \\copy \(table) failed: \(copy)") }
        }
        _ = try await Self.psql(sandbox, url, "ANALYZE")
        return url
    }

    /// A to-one step through a key (`plane`, matched on `planes.tailnum`, the primary key)
    /// joins on the key: no scalar subquery sorted by the row's number, and under ANY an
    /// EXISTS the server plans as a join. The rows are psql's hand-written EXISTS ... JOIN's.
    @Test func aToOneStepThroughAKeyJoinsOnTheKey() async throws {
        let sandbox = try Sandbox()
        let url = try await Self.keyedFlights(sandbox)
        // Each predicate with its hand-written SQL over airlines `a`.
        let cases: [(predicate: String, sql: String)] = [
            (
                "ANY flights.plane.manufacturer == 'EMBRAER'",
                "EXISTS (SELECT 1 FROM flights f JOIN planes p USING (tailnum) WHERE f.carrier = a.carrier AND p.manufacturer = 'EMBRAER')"
            ),
            (
                "ANY flights.plane.year < 1970",
                "EXISTS (SELECT 1 FROM flights f JOIN planes p USING (tailnum) WHERE f.carrier = a.carrier AND p.year < 1970)"
            ),
            (
                "ANY flights.plane.model BEGINSWITH 'A3'",
                "EXISTS (SELECT 1 FROM flights f JOIN planes p USING (tailnum) WHERE f.carrier = a.carrier AND p.model LIKE 'A3%')"
            ),
            (
                "NONE flights.plane.manufacturer == 'BOEING'",
                "NOT EXISTS (SELECT 1 FROM flights f JOIN planes p USING (tailnum) WHERE f.carrier = a.carrier AND p.manufacturer = 'BOEING')"
            ),
            // Nil passes here: a flight with no plane counts, as in memory.
            (
                "ANY flights.plane.manufacturer == nil",
                "EXISTS (SELECT 1 FROM flights f LEFT JOIN planes p USING (tailnum) WHERE f.carrier = a.carrier AND p.manufacturer IS NULL)"
            )
        ]
        var script = #"relate("flights", "tailnum", "planes", "tailnum")"# + "\n"
        for (predicate, _) in cases {
            script += """
                do
                  local names = {}
                  for _, a in ipairs(fetch{ "airlines", predicate = [[\(predicate)]], sort = { "carrier" } }) do names[#names + 1] = a.carrier end
                  print(table.concat(names, ","))
                end

                """
        }
        script += """
            print(count("flights", "plane.manufacturer == 'EMBRAER'"))
            print(explain(fetch{ "airlines", predicate = "ANY flights.plane.manufacturer == %@", args = { "EMBRAER" } }))
            """
        let result = try await sandbox.quarry([url, "-e", script])
        #expect(result.status == 0, "\(result)")
        var expected: [String] = []
        for (_, sql) in cases {
            let rows = try await Self.psql(
                sandbox, url, "SELECT coalesce(string_agg(carrier, ',' ORDER BY carrier), '') FROM airlines a WHERE \(sql)")
            expected.append(rows.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // Not vacuous: the predicates select different, non-empty sets.
        #expect(Set(expected).count == expected.count && !expected.contains(""), "\(expected)")
        let joined = try await Self.psql(
            sandbox, url, "SELECT count(*) FROM flights JOIN planes USING (tailnum) WHERE planes.manufacturer = 'EMBRAER'")
        expected.append(joined.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(Array(result.lines.prefix(expected.count)) == expected, "\(result)")
        let plan = result.lines.dropFirst(expected.count).joined(separator: "\n")
        #expect(plan.contains("EXISTS (SELECT 1 FROM \"planes\""), "\(plan)")
        #expect(!plan.contains("LIMIT 1") && !plan.contains("ORDER BY \"t2\""), "\(plan)")
    }

    /// A row of a table keyed by one text or UUID column is named by its key in its object
    /// ID (`airlines/VX`); `get` takes that ID as well as the key; keys holding `/`, `%`,
    /// control characters, or reading as a number or an unsaved object's ID round-trip;
    /// number-keyed IDs are as before.
    @Test func textKeyedObjectIDsShowTheirKey() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "textids", in: sandbox,
            schema: """
                CREATE TABLE airlines (carrier text PRIMARY KEY, name text);
                INSERT INTO airlines VALUES ('VX', 'Virgin America'), ('A/B', 'Slash'), ('123', 'Digits'), ('50%', 'Percent'),
                  (E'tab\\there', 'Tab'), ('t7', 'Temporary'), ('é ü', 'Accents'), ('-4', 'Negative');
                CREATE TABLE tags (id uuid PRIMARY KEY, label text);
                INSERT INTO tags VALUES ('0b0c3f6e-8d3c-4c4e-9f55-6a1f0a2b3c4d', 'u');
                CREATE TABLE flights (id int PRIMARY KEY, carrier text REFERENCES airlines (carrier));
                INSERT INTO flights VALUES (1, 'VX');

                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            for _, a in ipairs(fetch{ "airlines", sort = { "name" } }) do
              local id = a:objectID()
              print(id, rawequal(airlines:get(id), a), rawequal(airlines:get(a.carrier), a))
            end
            print(tags:get("tags/0b0c3f6e-8d3c-4c4e-9f55-6a1f0a2b3c4d").label, tags:get("0b0c3f6e-8d3c-4c4e-9f55-6a1f0a2b3c4d"):objectID())
            local f = flights:get(1)
            print(f:objectID(), f.airline:objectID(), airlines:get("airlines/ZZ"))
            print(table.concat(fetch{ "airlines", predicate = "carrier IN %@", args = { { "VX", "A/B" } }, sort = { "carrier" }, result = "ids" }, " "))
            print(fetch{ "airlines", predicate = "carrier == 'VX'" })
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines.prefix(8) == [
                "airlines/é ü\ttrue\ttrue", "airlines/%3123\ttrue\ttrue", "airlines/%2D4\ttrue\ttrue",
                "airlines/50%25\ttrue\ttrue", "airlines/A/B\ttrue\ttrue", "airlines/tab%09here\ttrue\ttrue",
                "airlines/%747\ttrue\ttrue", "airlines/VX\ttrue\ttrue"
            ], "\(result)")
        #expect(
            result.lines.dropFirst(8).prefix(3) == [
                "u\ttags/0b0c3f6e-8d3c-4c4e-9f55-6a1f0a2b3c4d", "flights/1\tairlines/VX\tnil", "airlines/A/B airlines/VX"
            ], "\(result)")
        // A results table names the row by its key too.
        #expect(result.lines.contains { $0.hasPrefix("airlines/VX ") && $0.contains("Virgin America") }, "\(result)")
    }

    /// A `date` column (days alone) shows its day in an object's display and in results
    /// tables, `2013-01-01`, not an instant; its value is still a date.
    @Test func aDateColumnShowsItsDay() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "dayshown", in: sandbox,
            schema: """
                CREATE TABLE visit (id int PRIMARY KEY, day date, at timestamptz);
                INSERT INTO visit VALUES (1, '2013-01-01', '2013-01-01 10:00:00Z'), (2, NULL, NULL);

                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            quarry.show(visit:get(1))
            print(fetch{ "visit", sort = { "id" } })
            print(typeof(visit:get(1).day), visit:get(1).day == date("2013-01-01T00:00:00Z"))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("2013-01-01T00:00:00Z"), "\(result)")
        // The object's display, then the results table: the day, beside a timestamp's instant.
        #expect(
            result.lines.filter { $0.hasPrefix("visit/1 ") && $0.contains("| 2013-01-01 |") && $0.hasSuffix("| 2013-01-01T10:00:00Z") }.count
                == 2, "\(result)")
        #expect(result.lines.last == "date\ttrue", "\(result)")
    }
}
