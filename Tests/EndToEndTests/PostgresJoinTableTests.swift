import Foundation
import QuarryTestSupport
import Testing

/// A join table keyed by its two foreign keys (`playlist_track(playlist_id, track_id)`,
/// as the Chinook sample has it) is a many-to-many relationship on PostgreSQL as in a
/// SQLite file (issue 45): read, counted, tested in predicates and written by `:add` and
/// `:remove`, the same answers on both; nothing is added to the schema.
@Suite struct PostgresJoinTableTests {
    static let schema = """
        CREATE TABLE playlist (playlist_id integer PRIMARY KEY, name text);
        CREATE TABLE track (track_id integer PRIMARY KEY, name text, milliseconds integer);
        CREATE TABLE playlist_track (playlist_id integer NOT NULL REFERENCES playlist (playlist_id),
          track_id integer NOT NULL REFERENCES track (track_id), PRIMARY KEY (playlist_id, track_id));
        CREATE TABLE pair (a integer, b integer, PRIMARY KEY (a, b));
        INSERT INTO playlist VALUES (1, 'Music'), (2, 'Movies'), (3, 'Heavy');
        INSERT INTO track VALUES (1, 'a', 100), (2, 'b', 200), (3, 'c', 300), (4, 'd', 400);
        INSERT INTO playlist_track VALUES (1, 1), (1, 2), (1, 3), (3, 3), (3, 4);
        """

    static let script = #"""
        print(#playlist:get(1).tracks, #track:get(3).playlists, #track:get(4).playlists)
        print(count("track", "ANY playlists.name == 'Music'"), count("playlist", "tracks.@count >= 2"), count("track", "playlists.@count == 0"))
        local p = predicate("ANY playlists.name == 'Heavy'"); local n = 0
        for _, t in ipairs(fetch("track")) do if p:matches(t) then n = n + 1 end end
        print(n)
        playlist:get(2).tracks:add(track:get(4)); playlist:get(1).tracks:remove(track:get(1))
        print(save().updated)
        for _, pl in ipairs(fetch{ "playlist", sort = "playlist_id" }) do
          local names = {}
          for _, t in ipairs(pl.tracks) do names[#names + 1] = t.name end
          table.sort(names)
          print(pl.name, table.concat(names, ","))
        end
        print(count("track", "ANY playlists.name == 'Movies'"))
        """#

    /// `script.lua` run on a SQLite file and on a PostgreSQL database (named `database`),
    /// each made from `schema.sql` by its own shell; both runs must succeed.
    static func onBothEngines(_ sandbox: Sandbox, database: String) async throws -> (url: String, lite: ProcessResult, postgres: ProcessResult) {
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "schema.sql")
        let url = try await PostgresServer.database(database)
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        let lite = try await sandbox.quarry(["lite.db", "script.lua"])
        let postgres = try await sandbox.quarry([url, "script.lua"])
        #expect(lite.status == 0, "\(lite)")
        #expect(postgres.status == 0, "\(postgres)")
        return (url, lite, postgres)
    }

    @Test func aJoinTableKeyedByItsForeignKeysIsManyToManyOnBothEngines() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", Self.schema)
        try sandbox.write("script.lua", Self.script)
        let (url, lite, postgres) = try await Self.onBothEngines(sandbox, database: "jointables")
        // Worth comparing: the pairs are read and written.
        #expect(lite.lines.first == "3\t2\t1", "\(lite)")
        #expect(lite.lines.contains("Music\tb,c"), "\(lite)")
        #expect(lite.lines.contains("Movies\td"), "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
        // The rows as psql reads them; and the table that joins no entities is named in a note.
        let rows = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", "SELECT playlist_id || '-' || track_id FROM playlist_track ORDER BY 1", url], timeout: 60)
        #expect(rows.stdout.split(separator: "\n") == ["1-2", "1-3", "2-4", "3-3", "3-4"], "\(rows)")
        // A key of two columns that is no join table is an entity's, known by a number made from it.
        #expect(!postgres.stderr.contains("pair"), "\(postgres.stderr)")
        let relations = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            [
                "-Atc",
                "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'f')",
                url
            ], timeout: 60)
        #expect(relations.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4", "\(relations)")
    }

    /// One schema gives one set of names on both engines: each side of a join table's pair
    /// is named by the entity at its other end in the plural (`tag.customers`, issue 60),
    /// and answers to the name it had before, from the to-one `customer_code_customer` a
    /// SQLite file's join table (an entity) has (`tag.customer_code_customers`);
    /// PostgreSQL's, no entity, was `customer_codes`. A join table with a time it requires
    /// and no default (Sakila's `film_actor.last_update`) gives a pair to read on both, whose
    /// `:add` and `:remove` are refused naming the time; the table is an entity besides.
    @Test func aJoinTablesPairIsNamedAlikeAndReadOnlyWhenItRequiresATime() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE customer (code text PRIMARY KEY, name text NOT NULL);
            CREATE TABLE tag (tag_id integer PRIMARY KEY, word text);
            CREATE TABLE customer_tag (customer_code text NOT NULL REFERENCES customer (code),
              tag_id integer NOT NULL REFERENCES tag (tag_id), PRIMARY KEY (customer_code, tag_id));
            CREATE TABLE actor (actor_id integer PRIMARY KEY, last_name text NOT NULL);
            CREATE TABLE film (film_id integer PRIMARY KEY, title text NOT NULL);
            CREATE TABLE film_actor (actor_id integer NOT NULL REFERENCES actor (actor_id), film_id integer NOT NULL REFERENCES film (film_id),
              last_update timestamp NOT NULL, PRIMARY KEY (actor_id, film_id));
            INSERT INTO customer VALUES ('ALFKI', 'Alfreds'), ('BONAP', 'Bon app');
            INSERT INTO tag VALUES (1, 'big'), (2, 'new');
            INSERT INTO customer_tag VALUES ('ALFKI', 1), ('BONAP', 1), ('BONAP', 2);
            INSERT INTO actor VALUES (1, 'GUINESS'), (2, 'WAHLBERG'), (3, 'CHASE');
            INSERT INTO film VALUES (1, 'ACADEMY DINOSAUR'), (2, 'ACE GOLDFINGER');
            INSERT INTO film_actor VALUES (1, 1, '2006-02-15 05:05:03'), (2, 1, '2006-02-15 05:05:03'), (3, 2, '2006-02-15 05:05:03');
            """)
        try sandbox.write(
            "script.lua",
            #"""
            print(#tag:get(1).customers, #tag:get(1).customer_code_customers, count("tag", "ANY customer_code_customers.name == 'Bon app'"), count("customer", "tags.@count == 2"))
            print(#film:get(1).actors, #actor:get(3).films, count("film", "ANY actors.last_name == 'CHASE'"), count("film", "actors.@count == 2"))
            print(select(2, pcall(function() film:get(2).actors:add(actor:get(1)) end)))
            print(select(2, pcall(function() actor:get(3).films:remove(film:get(2)) end)))
            print(count("film_actor"))
            """#)
        let (_, lite, postgres) = try await Self.onBothEngines(sandbox, database: "readonlypairs")
        #expect(lite.lines.first == "2\t2\t2\t1", "\(lite)")
        #expect(lite.lines.dropFirst().first == "2\t1\t1\t1", "\(lite)")
        #expect(lite.lines.contains { $0.contains("add: film.actors is read only: its join table film_actor requires last_update") }, "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
    }

    /// Deleting a parent takes its links, though the join table's keys are NO ACTION, as a
    /// many-to-many's links go in Core Data; so does a track whose links were removed first.
    @Test func aParentsLinksGoWithIt() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("jointabledeletes", schema: Self.schema, in: sandbox)
        try sandbox.write(
            "delete.lua",
            #"""
            playlist:get(3):delete()
            print(save().deleted, count("playlist"), #track:get(3).playlists, #track:get(4).playlists)
            local t = track:get(2)
            playlist:get(1).tracks:remove(t)
            t:delete()
            print(save().deleted, count("track"), #playlist:get(1).tracks)
            """#)
        let result = try await sandbox.quarry([url, "delete.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["1\t2\t1\t0", "1\t3\t2"], "\(result)")
        let left = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            ["-qAt", url, "-c", "SELECT string_agg(playlist_id || '-' || track_id, ',' ORDER BY 1) FROM playlist_track"])
        #expect(left.lines == ["1-1,1-3"], "\(left)")
    }

    /// With `?notify=triggers`, the join table carries the trigger too, so a link another
    /// program adds or removes is heard (`refresh()` is true) and read, as a row of an
    /// entity's table is; before, only the entities' tables had it and the link was never
    /// seen while the session trusted the triggers.
    @Test func aJoinTablesLinksAreHeardWithTheTriggers() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("jointriggers", schema: Self.schema, in: sandbox)
        try sandbox.write(
            "links.lua",
            """
            local p = playlist:get(2)
            print(#p.tracks)
            os.execute("psql -q '\(url)' -c 'INSERT INTO playlist_track VALUES (2, 1), (2, 2)'")
            print(refresh(), #p.tracks)
            os.execute("psql -q '\(url)' -c 'DELETE FROM playlist_track WHERE playlist_id = 2 AND track_id = 1'")
            print(refresh(), #p.tracks)
            """)
        let result = try await sandbox.quarry([url + "?notify=triggers", "links.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["0", "true\t2", "true\t1"], "\(result)")
        let triggers = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            ["-Atc", "SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname = 'quarry_notify' ORDER BY 1", url], timeout: 60)
        // `pair`, keyed by two columns, is an entity: its table has the trigger too.
        #expect(triggers.stdout.split(separator: "\n") == ["pair", "playlist", "playlist_track", "track"], "\(triggers)")
    }

    /// A join table that also keeps when each link was made (Sakila's
    /// `film_actor(actor_id, film_id, last_update DEFAULT now())`) is many-to-many on
    /// both engines: a new link leaves the time to the database's default; a table whose
    /// extra column has no default and may not be NULL stays out (SQLite: an entity only).
    @Test func aJoinTableWithATimestampTheDatabaseFillsIsManyToMany() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE actor (actor_id integer PRIMARY KEY, name text);
            CREATE TABLE film (film_id integer PRIMARY KEY, title text);
            CREATE TABLE film_actor (actor_id integer NOT NULL REFERENCES actor (actor_id),
              film_id integer NOT NULL REFERENCES film (film_id),
              last_update timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (actor_id, film_id));
            CREATE TABLE rating (actor_id integer NOT NULL REFERENCES actor (actor_id),
              film_id integer NOT NULL REFERENCES film (film_id), stars integer NOT NULL, PRIMARY KEY (actor_id, film_id));
            INSERT INTO actor VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');
            INSERT INTO film VALUES (1, 'Up'), (2, 'Down');
            INSERT INTO film_actor (actor_id, film_id) VALUES (1, 1), (2, 1), (2, 2);
            INSERT INTO rating VALUES (1, 1, 5);
            """)
        try sandbox.write(
            "script.lua",
            #"""
            print(#film:get(1).actors, #actor:get(2).films, count("film", "ANY actors.name == 'Bo'"))
            film:get(2).actors:add(actor:get(3)); film:get(1).actors:remove(actor:get(1))
            save()
            for _, f in ipairs(fetch{ "film", sort = "film_id" }) do
              local names = {}
              for _, a in ipairs(f.actors) do names[#names + 1] = a.name end
              table.sort(names)
              print(f.title, table.concat(names, ","))
            end
            print(count("rating", "stars == 5 AND actor.name == 'Ann'"))
            """#)
        let (url, lite, postgres) = try await Self.onBothEngines(sandbox, database: "jointimes")
        #expect(lite.lines == ["2\t2\t2", "Up\tBo", "Down\tBo,Cy", "1"], "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
        // The new link's time is the database's own.
        let stamped = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            ["-Atc", "SELECT count(*) FROM film_actor WHERE actor_id = 3 AND last_update > now() - interval '1 hour'", url], timeout: 60)
        #expect(stamped.stdout == "1\n", "\(stamped)")
        // A table keyed by the same two columns with a value of its own is an entity.
        #expect(!postgres.stderr.contains("rating"), "\(postgres.stderr)")
    }

    /// A schema's views are read-only entities on PostgreSQL as a SQLite file's are: a
    /// view with an integer id is known by it; one without (an aggregate) by its rows'
    /// places, through a temporary view of this session; the same answers on both
    /// engines, and a change to a view's object is refused.
    @Test func viewsAreReadOnlyEntitiesOnBothEngines() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE item (id integer PRIMARY KEY, name text, kind text, price integer);
            INSERT INTO item VALUES (1, 'a', 'x', 5), (2, 'b', 'y', 15), (3, 'c', 'x', 8), (4, 'd', 'z', 3);
            CREATE VIEW cheap AS SELECT id, name, price FROM item WHERE price < 10;
            CREATE VIEW by_kind AS SELECT kind, count(*) AS n FROM item GROUP BY kind;
            """)
        try sandbox.write(
            "script.lua",
            #"""
            print(count("cheap"), count("cheap", "price > 4"), cheap:get(3).name, cheap:get(2))
            print(count("by_kind"), count("by_kind", "n > 1"))
            for _, r in ipairs(fetch{ "by_kind", sort = "kind" }) do print(r.kind, r.n) end
            local ok, err = pcall(function() cheap:get(1).name = "z" end)
            print(ok, (tostring(err):gsub("^.-: ", "")))
            """#)
        let (url, lite, postgres) = try await Self.onBothEngines(sandbox, database: "views")
        #expect(
            lite.lines == [
                "3\t2\tc\tnil", "3\t1", "x\t2", "y\t1", "z\t1",
                "false\tcheap is a view: its rows cannot be changed (change the tables it reads)"
            ], "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
        // Nothing was added to the schema.
        let relations = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            [
                "-Atc",
                "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v')",
                url
            ], timeout: 60)
        #expect(relations.stdout == "3\n", "\(relations)")
    }
}
