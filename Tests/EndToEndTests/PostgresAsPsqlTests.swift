import Foundation
import QuarryTestSupport
import Testing

/// PostgreSQL as a psql user expects it (issue 86), against the real server the tests
/// start (`PostgresServer`): they fail, never skip, without one.
@Suite struct PostgresAsPsqlTests {
    static func psql(_ sandbox: Sandbox, _ url: String, _ query: String) async throws -> String {
        try await PostgresDecimalTests.psqlRows(sandbox, url, query)
    }

    /// nycflights13's flights (every one), copied in by psql's `\copy` with `NA` as NULL.
    static let flightsSchema = """
        CREATE TABLE flights (id bigserial PRIMARY KEY, year int, month int, day int, dep_time int, sched_dep_time int,
          dep_delay double precision, arr_time int, sched_arr_time int, arr_delay double precision, carrier text, flight int,
          tailnum text, origin text, dest text, air_time double precision, distance double precision, hour int, minute int,
          time_hour timestamptz);
        CREATE TABLE visit (id int PRIMARY KEY, day date, at timestamp);
        INSERT INTO visit VALUES (1, '2013-01-01', '2013-01-01 10:00:00'), (2, '0044-03-15 BC', NULL);
        -- The role's zone in this database alone (the server is shared by every test).
        DO $$ BEGIN
          EXECUTE format('ALTER ROLE CURRENT_USER IN DATABASE %I SET timezone = %L', current_database(), 'America/New_York');
        END $$;

        """

    static func flights(_ sandbox: Sandbox) async throws -> String {
        let url = try await PostgresStoreTests.database("zone", in: sandbox, schema: flightsSchema)
        let csv = try SharedData.path("nycflights13/flights.csv")
        let columns =
            "year, month, day, dep_time, sched_dep_time, dep_delay, arr_time, sched_arr_time, arr_delay, carrier, flight, tailnum, origin, dest, air_time, distance, hour, minute, time_hour"
        let copy = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            ["-q", "-v", "ON_ERROR_STOP=1", "-c", "\\copy flights (\(columns)) FROM '\(csv)' WITH (FORMAT csv, HEADER, NULL 'NA')", url],
            timeout: 120)
        guard copy.status == 0 else { throw HarnessError("psql \\copy failed: \(copy)") }
        return url
    }

    /// `sql()` and `export{ sql = }` run in the zone the server gives the role, as psql's
    /// statements do: the per-day counts are psql's. Quarry's own reads and writes of
    /// dates stay exact (the session's zone is the role's only inside a statement a person
    /// wrote), and a `date` column reads as its day.
    @Test func sqlRunsInTheRolesTimeZone() async throws {
        let sandbox = try Sandbox()
        let url = try await Self.flights(sandbox)
        let perDay = "SELECT date_trunc('day', time_hour)::date AS d, count(*) AS n FROM flights GROUP BY 1 ORDER BY 1 LIMIT 3"
        let psqlDays = try await Self.psql(sandbox, url, perDay)
        // The zone matters: in UTC the first day counts otherwise (the check is not vacuous).
        let utcDays = try await Self.psql(sandbox, url, "SET timezone = 'UTC'; " + perDay)
        #expect(psqlDays != utcDays && psqlDays.hasPrefix("2013-01-01\t"), "\(psqlDays) | \(utcDays)")
        let psqlEarly = try await Self.psql(sandbox, url, "SELECT count(*) FROM flights WHERE time_hour < '2013-01-01T12:00:00Z'")
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            for _, r in ipairs(sql("SELECT date_trunc('day', time_hour)::date AS d, count(*) AS n FROM flights GROUP BY 1 ORDER BY 1 LIMIT 3")) do
              print(r.d .. "\t" .. r.n)
            end
            print(sql("SHOW timezone")[1].TimeZone)
            export({ sql = "SELECT date_trunc('day', time_hour)::date AS d, count(*) AS n FROM flights GROUP BY 1 ORDER BY 1 LIMIT 3" }, "days.csv")
            -- Quarry's own reads and writes: exact whatever the role's zone.
            print(flights:get(1).time_hour, count("flights", "time_hour < %@", date("2013-01-01T12:00:00Z")))
            print(sql("SHOW timezone")[1].TimeZone == "UTC")
            local v = visit:get(1)
            print(v.day, typeof(v.day), v.at)
            v.at = date("2020-06-01T12:00:00Z")
            flights:get(1).time_hour = date("2020-06-01T23:30:00Z")
            save()
            print(sql("SELECT day, at FROM visit ORDER BY id")[1].day, sql("SELECT day FROM visit ORDER BY id")[2].day)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        let days = psqlDays.split(separator: "\n").map(String.init)
        let first = try String(contentsOfFile: SharedData.path("nycflights13/flights.csv"), encoding: .utf8)
            .split(separator: "\n")[1].split(separator: ",").last.map(String.init)
        #expect(
            result.lines
                == days + [
                    "America/New_York", "\(first ?? "")\t\(psqlEarly.trimmingCharacters(in: .whitespacesAndNewlines))", "false",
                    "2013-01-01\tdate\t2013-01-01T10:00:00Z", "2013-01-01\t0044-03-15 BC"
                ], "\(result)")
        let exported = try sandbox.read("days.csv")
        // A day is text, quoted as text that would read back as a date is.
        let rows = days.map { "\"" + $0.replacingOccurrences(of: "\t", with: "\",") }
        #expect(exported == "d,n\n" + rows.joined(separator: "\n") + "\n", "\(exported)")
        // What Quarry wrote is the instant it was given, read in UTC by psql.
        #expect(
            try await Self.psql(
                sandbox, url,
                "SELECT (SELECT at FROM visit WHERE id = 1), (SELECT time_hour AT TIME ZONE 'UTC' FROM flights WHERE id = 1)")
                == "2020-06-01 12:00:00\t2020-06-01 23:30:00\n")
    }

    /// `.schema --sql` prints each table as the server holds it: columns and types,
    /// defaults, keys, constraints and indexes; a view's definition. A dot-command's
    /// error names its own line: the command's line of piped input.
    @Test func schemaSQLPrintsTheServersDefinition() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "schemasql", in: sandbox,
            schema: """
                CREATE TABLE airlines (carrier text PRIMARY KEY, name text NOT NULL DEFAULT 'none');
                CREATE TABLE flights (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                  carrier text REFERENCES airlines (carrier) ON DELETE CASCADE, distance int CHECK (distance > 0),
                  tailnum varchar(8), UNIQUE (carrier, tailnum));
                CREATE INDEX flights_distance ON flights (distance DESC);
                CREATE VIEW long_flights AS SELECT id, distance FROM flights WHERE distance > 1000;
                """)
        let result = try await sandbox.quarry([url], stdin: ".schema --sql flights long_flights\n")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(
            result.stdout == """
                CREATE TABLE public.flights (
                    id bigint GENERATED BY DEFAULT AS IDENTITY NOT NULL,
                    carrier text,
                    distance integer,
                    tailnum character varying(8),
                    CONSTRAINT flights_pkey PRIMARY KEY (id),
                    CONSTRAINT flights_carrier_tailnum_key UNIQUE (carrier, tailnum),
                    CONSTRAINT flights_distance_check CHECK (distance > 0),
                    CONSTRAINT flights_carrier_fkey FOREIGN KEY (carrier) REFERENCES public.airlines(carrier) ON DELETE CASCADE
                );
                CREATE INDEX flights_distance ON public.flights USING btree (distance DESC);
                CREATE VIEW public.long_flights AS
                 SELECT flights.id,
                    flights.distance
                   FROM flights
                  WHERE flights.distance > 1000;

                """, "\(result)")
        let airlines = try await sandbox.quarry([url], stdin: ".schema --sql airlines\n")
        #expect(
            airlines.stdout.hasPrefix("CREATE TABLE public.airlines (\n    carrier text NOT NULL,\n    name text DEFAULT 'none'::text NOT NULL,"),
            "\(airlines)")
        // A dot-command's error names its own line of the input, not one of the Lua made for it.
        let piped = try await sandbox.quarry([url, "-"], stdin: "print(1)\n\n.import missing.csv airlines\n")
        #expect(piped.status != 0 && piped.lines == ["1"], "\(piped)")
        #expect(piped.errorLines.count == 1 && piped.stderr.contains("stdin:3:") && !piped.stderr.contains("dot-command"), "\(piped)")
    }

    /// A table without a primary key (nycflights13's `weather`) is a read-only entity,
    /// an object per row known by its place, as a view's; a relation left out says why
    /// when asked for by name.
    @Test func aTableWithoutAKeyIsReadOnly() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "keyless", in: sandbox,
            schema: """
                CREATE TABLE weather (origin text, year int, month int, day int, hour int, temp double precision, time_hour timestamptz);
                INSERT INTO weather VALUES ('EWR', 2013, 1, 1, 1, 39.02, '2013-01-01T06:00:00Z'), ('EWR', 2013, 1, 1, 2, 39.02, '2013-01-01T07:00:00Z'),
                  ('JFK', 2013, 1, 1, 1, 39.02, '2013-01-01T06:00:00Z');
                CREATE TABLE airports (faa text PRIMARY KEY, name text);
                CREATE TABLE city_airports (city text) INHERITS (airports);
                """)
        let result = try await sandbox.quarry([
            url, "-e",
            #"""
            print(count("weather"), count("weather", "origin == 'EWR'"), #fetch{ "weather", sort = { "hour" } })
            local w = fetch{ "weather", sort = { "origin", "hour" } }[3]
            print(w.origin, w.hour, w.time_hour)
            print((pcall(function() w.temp = 1; save() end)))
            rollback()
            print(select(2, pcall(count, "city_airports")))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "3\t2\t3", "JFK\t1\t2013-01-01T06:00:00Z", "false",
                "(command line):6: unknown entity 'city_airports': city_airports inherits airports: its rows are read through airports's, not as entities of their own"
            ], "\(result)")
        // Nothing at the open says weather is left out.
        #expect(!result.stderr.contains("weather"), "\(result)")
        let tables = try await sandbox.quarry([url], stdin: ".tables\n")
        #expect(tables.stdout.contains("weather"), "\(tables)")
    }

    /// `nulls` of import: `{ "", "NA" }` by default, `{ "" }` keeps the text `NA`
    /// (Namibia's code) as psql's `\copy ... csv` does; a quoted `"NA"` is text either way.
    /// The cells that became nil are said per column. The same on both engines.
    @Test func importNullsCanBeSetAndAreCounted() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresServer.database("nulls")
        try sandbox.write("countries.csv", "code,name,pop\nNA,Namibia,2.5\n,Nowhere,NA\n\"NA\",Quoted,1\nUS,United States,331\n")
        let script = #"""
            print(import("countries.csv", { entity = "countries" }), count("countries", "code == nil"), count("countries", "pop == nil"))
            print(import("countries.csv", { entity = "kept", nulls = { "" } }), count("kept", "code == nil"), count("kept", "code == 'NA'"))
            print(pcall(import, "countries.csv", { entity = "other", nulls = "NA" }))
            """#
        for store in ["lite.db", url] {
            let result = try await sandbox.quarry([store, "-e", script])
            #expect(result.status == 0, "\(result)")
            #expect(result.lines.prefix(2) == ["4\t2\t1", "4\t1\t2"], "\(store): \(result)")
            #expect(result.lines.last?.contains("nulls must be a list of strings") == true, "\(store): \(result)")
            #expect(
                result.errorLines == [
                    "import countries.csv: cells read as nil (nulls = { \"\", \"NA\" }): code 2, pop 1",
                    "import countries.csv: cells read as nil (nulls = { \"\" }): code 1",
                    // With only "" as nil, "NA" in pop is a word: the column is text, and its first cell named.
                    "import countries.csv: column pop is text: 1 cell is not double (line 3: \"NA\"); fix the file, or nulls = { \"\", \"NA\" } reads that text as nil"
                ], "\(store): \(result)")
        }
    }

    /// An import into a table psql made after the session opened reads the table then
    /// and loads its rows into it.
    @Test func importIntoATableMadeSinceTheOpen() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresServer.database("lateimport")
        try sandbox.write("airports.csv", "faa,name\nABQ,Albuquerque\nATL,Atlanta\n")
        let create = "/usr/bin/psql -q \(url) -c 'CREATE TABLE airports (faa text PRIMARY KEY, name text NOT NULL)'"
        let result = try await sandbox.quarry([
            url, "-e",
            """
            print(#entities())
            assert(os.execute([[\(create)]]))
            print(import("airports.csv", { entity = "airports" }), count("airports"), airports:first("faa == 'ATL'").name)
            """
        ])
        #expect(result.status == 0 && result.lines == ["0", "2\t2\tAtlanta"], "\(result)")
        #expect(
            try await Self.psql(sandbox, url, "SELECT string_agg(faa || '=' || name, ',' ORDER BY faa) FROM airports")
                == "ABQ=Albuquerque,ATL=Atlanta\n")
    }

    /// The smaller habits (issue 86, item 8): a value the server refuses at a save keeps
    /// its detail and names the attribute; jsonb's `?` in `sql()` says it was taken as a
    /// placeholder and how to write it; connections carry `application_name=quarry` (a
    /// URL's own wins); `.open` ends the previous server session at once; an object with
    /// its own `id` column shows its object ID as `objectID`.
    @Test func smallerHabits() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "habits", in: sandbox,
            schema: """
                CREATE TABLE docs (id int PRIMARY KEY, doc json, note text);
                INSERT INTO docs VALUES (1, '{"a": 1}', 'x');
                """)
        let active = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'quarry' AND datname = current_database()"
        // The backend ends as soon as its socket is shut; pg_stat_activity may lag a moment.
        let poll =
            "n=1; for i in $(seq 100); do n=$(/usr/bin/psql -At '\(url)' -c \"\(active)\"); [ \"$n\" = 0 ] && break; sleep 0.1; done; echo \"after $n\""
        try sandbox.write("poll.sh", poll)
        let result = try await sandbox.quarry(
            [url, "-"],
            stdin: #"""
                docs:new{ id = 2, doc = "{bad" }
                local ok, err = pcall(save)
                print(ok, err)
                rollback()
                docs:get(1).doc = "{worse"
                print(pcall(save))
                rollback()
                print(select(2, pcall(sql, "SELECT count(*) AS n FROM docs WHERE doc::jsonb ? 'a'")))
                print(sql("SELECT count(*) AS n FROM docs WHERE jsonb_exists(doc::jsonb, 'a')")[1].n)
                print(sql("SELECT current_setting('application_name') AS a")[1].a)
                quarry.show(docs:get(1))
                .open other.db
                os.execute("sh poll.sh")
                """#)
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.count >= 6, "\(result)")
        guard lines.count >= 6 else { return }
        // The object is named as well as the attribute: a new one by the key it was given.
        #expect(
            lines[0].hasPrefix("false")
                && lines[0].contains("docs.doc of the new object docs/t1 (id = 2): PostgreSQL: invalid input syntax for type json")
                && lines[0].contains("Token \"bad\" is invalid"), "\(result)")
        #expect(
            lines[1].hasPrefix("false") && lines[1].contains("docs.doc of docs/1: PostgreSQL: invalid input syntax for type json")
                && lines[1].contains("Token \"worse\" is invalid"), "\(result)")
        #expect(lines[2].contains("taken as a placeholder") && lines[2].contains("jsonb_exists"), "\(result)")
        #expect(lines[3] == "1" && lines[4] == "quarry", "\(result)")
        #expect(lines.filter { $0.hasPrefix("id ") || $0 == "id" || $0.hasPrefix("id\t") }.count <= 1, "\(result)")
        #expect(result.stdout.contains("objectID"), "\(result)")
        #expect(lines.last == "after 0", "\(result)")
        // A URL's own name wins.
        let named = try await sandbox.quarry([url + "?application_name=mine", "-e", "print(sql(\"SHOW application_name\")[1].application_name)"])
        #expect(named.lines == ["mine"], "\(named)")
    }

    /// `Entity:get(key)` takes a row's primary key value besides an object ID, on both
    /// engines: `airlines:get("VX")`, `legs:get{ 1, 2 }` for a key of two columns; an
    /// integer key's value is the object ID's number as before; no such row is nil.
    @Test func getTakesAPrimaryKeyValue() async throws {
        let sandbox = try Sandbox()
        let schema = """
            CREATE TABLE airlines (carrier varchar(2) PRIMARY KEY, name text);
            INSERT INTO airlines VALUES ('VX', 'Virgin America'), ('AA', 'American Airlines Inc.');
            CREATE TABLE legs (a integer, b integer, v text, PRIMARY KEY (a, b));
            INSERT INTO legs VALUES (1, 2, 'one-two'), (2, 1, 'two-one');
            CREATE TABLE planes (id integer PRIMARY KEY, model text);
            INSERT INTO planes VALUES (7, 'A320');

            """
        let url = try await PostgresStoreTests.database("getkey", in: sandbox, schema: schema)
        try sandbox.write("lite.sql", schema)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "lite.sql")
        let script = #"""
            print(airlines:get("VX").name, airlines:get("ZZ"), legs:get{ 1, 2 }.v, legs:get{ 2, 1 }.v, legs:get{ 3, 3 })
            print(planes:get(7).model, planes:get("planes/7").model, airlines:get(airlines:get("AA"):objectID()).carrier)
            print(select(2, pcall(legs.get, legs, { 1 })))
            local new = airlines:new{ carrier = "ZZ", name = "Unsaved" }
            print(airlines:get("ZZ").name)
            """#
        for store in ["lite.db", url] {
            let result = try await sandbox.quarry([store, "-e", script])
            #expect(result.status == 0, "\(store): \(result)")
            #expect(result.lines.count == 4, "\(store): \(result)")
            guard result.lines.count == 4 else { continue }
            #expect(result.lines[0] == "Virgin America\tnil\tone-two\ttwo-one\tnil", "\(store): \(result)")
            #expect(result.lines[1] == "A320\tA320\tAA", "\(store): \(result)")
            #expect(result.lines[2].contains("legs's primary key has 2 columns (a, b): get{ a, b }"), "\(store): \(result)")
            #expect(result.lines[3] == "Unsaved", "\(store): \(result)")
        }
    }
}
