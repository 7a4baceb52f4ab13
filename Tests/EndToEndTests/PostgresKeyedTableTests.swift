import Foundation
import QuarryTestSupport
import Testing

/// A PostgreSQL table keyed other than by one integer column (`text`, `char(n)`, `uuid`,
/// or a key of several columns that is no join table) is an entity, as the same table in
/// a SQLite file is through its rowid (issue 45): fetched, tested in predicates, reached
/// through to-ones and key paths, updated, deleted and inserted on the server, the same
/// answers on both engines; join tables to it are many-to-many. Nothing is added to the
/// schema (the rows' numbers come from a view of the session).
@Suite struct PostgresKeyedTableTests {
    static let schema = """
        CREATE TABLE customer (code text PRIMARY KEY, name text NOT NULL, city text);
        CREATE TABLE orders (order_id integer PRIMARY KEY, customer_code text REFERENCES customer (code), total integer);
        CREATE TABLE tag (tag_id integer PRIMARY KEY, word text);
        CREATE TABLE customer_tag (customer_code text NOT NULL REFERENCES customer (code),
          tag_id integer NOT NULL REFERENCES tag (tag_id), PRIMARY KEY (customer_code, tag_id));
        INSERT INTO customer VALUES ('ALFKI', 'Alfreds', 'Berlin'), ('BONAP', 'Bon app', 'Marseille'), ('CACTU', 'Cactus', 'Buenos Aires');
        INSERT INTO orders VALUES (1, 'ALFKI', 10), (2, 'ALFKI', 20), (3, 'BONAP', 5), (4, NULL, 1);
        INSERT INTO tag VALUES (1, 'big'), (2, 'new');
        INSERT INTO customer_tag VALUES ('ALFKI', 1), ('BONAP', 1), ('BONAP', 2);
        """

    @Test func aTextKeyedTableIsAnEntityOnBothEngines() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("schema.sql", Self.schema)
        try sandbox.write(
            "script.lua",
            #"""
            print(count("customer"), count("customer", "city BEGINSWITH 'B'"), count("orders", "customer.city == 'Berlin'"))
            for _, c in ipairs(fetch{ "customer", sort = "code" }) do print(c.code, c.name, #c.orders) end
            local o = fetch{ "orders", predicate = "total == 5" }[1]
            print(o.customer.code, o.customer.name)
            local bonap = fetch{ "customer", predicate = "code == 'BONAP'" }[1]
            print(count("orders", "customer == %@", bonap), count("customer", "ANY orders.total > 15"), count("orders", "customer.name CONTAINS 'app'"))
            bonap.city = "Lyon"
            local n = customer:new{ code = "DUMON", name = "Du monde", city = "Nantes" }
            o.customer = n
            print(pcall(function() customer:new{ name = "no key" } end))
            save()
            fetch{ "customer", predicate = "code == 'CACTU'" }[1]:delete()
            save()
            print(count("customer"), count("customer", "city == 'Lyon'"), count("orders", "customer.code == 'DUMON'"), #n.orders, #bonap.orders)
            for _, c in ipairs(fetch{ "customer", sort = "code" }) do print(c.code, c.city, #c.orders) end
            """#)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "schema.sql")
        let url = try await PostgresServer.database("textkeys")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        let lite = try await sandbox.quarry(["lite.db", "script.lua"])
        let postgres = try await sandbox.quarry([url, "script.lua"])
        #expect(lite.status == 0, "\(lite)")
        #expect(postgres.status == 0, "\(postgres)")
        // Worth comparing: the rows are read, related and written.
        #expect(lite.lines.first == "3\t2\t2", "\(lite)")
        #expect(
            lite.lines.contains("false\tscript.lua:10: new: customer needs a value for its key 'code': the table fills in no key of its own"),
            "\(lite)")
        #expect(lite.lines.suffix(4) == ["3\t1\t1\t1\t0", "ALFKI\tBerlin\t2", "BONAP\tLyon\t0", "DUMON\tNantes\t1"], "\(lite)")
        let differences = PostgresStoreTests.differences(lite.lines, postgres.lines)
        #expect(differences == nil, "\(differences ?? "")")
        // The rows as psql reads them; nothing was added to the schema.
        let rows = try await psql(
            sandbox, url,
            "SELECT code || ':' || city FROM customer ORDER BY 1; SELECT order_id || ':' || coalesce(customer_code, '-') FROM orders ORDER BY 1")
        #expect(rows == ["ALFKI:Berlin", "BONAP:Lyon", "DUMON:Nantes", "1:ALFKI", "2:ALFKI", "3:DUMON", "4:-"], "\(rows)")
        let relations = try await psql(
            sandbox, url,
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm')"
        )
        #expect(relations == ["4"], "\(relations)")
    }

    /// A join table between a text-keyed and an integer-keyed table is many-to-many:
    /// read, tested, written by `:add` and `:remove`; with `?notify=triggers` the
    /// tables themselves (not the session's views) carry the trigger, so another
    /// program's links are heard.
    @Test func aJoinTableToATextKeyIsManyToManyAndHeard() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("textkeylinks", schema: Self.schema, in: sandbox)
        try sandbox.write(
            "links.lua",
            """
            local function words(c) local w = {} for _, t in ipairs(c.tags) do w[#w + 1] = t.word end table.sort(w) return table.concat(w, ",") end
            local alfki = fetch{ "customer", predicate = "code == 'ALFKI'" }[1]
            local cactus = fetch{ "customer", predicate = "code == 'CACTU'" }[1]
            print(words(alfki), #cactus.tags, count("customer", "ANY tags.word == 'big'"), count("customer", "tags.@count == 0"))
            cactus.tags:add(tag:get(2)); alfki.tags:remove(tag:get(1)); alfki.tags:add(tag:get(2))
            save()
            print(words(alfki), words(cactus), count("customer", "ANY tags.word == 'new'"))
            os.execute("psql -q '\(url)' -c \\"INSERT INTO customer_tag VALUES ('CACTU', 1)\\"")
            print(refresh(), words(cactus))
            os.execute("psql -q '\(url)' -c \\"DELETE FROM customer_tag WHERE customer_code = 'ALFKI'\\"")
            print(refresh(), #alfki.tags, count("customer", "tags.@count == 0"))
            """)
        let result = try await sandbox.quarry([url + "?notify=triggers", "links.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["big\t0\t2\t1", "new\tnew\t3", "true\tbig,new", "true\t0\t1"], "\(result)")
        let links = try await psql(sandbox, url, "SELECT customer_code || '-' || tag_id FROM customer_tag ORDER BY 1")
        #expect(links == ["BONAP-1", "BONAP-2", "CACTU-1", "CACTU-2"], "\(links)")
        let triggers = try await psql(sandbox, url, "SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname = 'quarry_notify' ORDER BY 1")
        #expect(triggers == ["customer", "customer_tag", "orders", "tag"], "\(triggers)")
    }

    /// A uuid key filled by its default, a char(n) key, a key of two columns, and a
    /// saved key that may not change (the row is known by it); a table with no key that
    /// joins nothing is named in a note.
    @Test func uuidCharAndCompositeKeys() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE region (region_id uuid PRIMARY KEY DEFAULT gen_random_uuid(), label varchar(20) NOT NULL);
            CREATE TABLE site (site_id uuid PRIMARY KEY, region_id uuid REFERENCES region (region_id), name text);
            CREATE TABLE state (abbr char(2) PRIMARY KEY, name text);
            CREATE TABLE visit (site_id uuid REFERENCES site (site_id), day date, guests integer NOT NULL, PRIMARY KEY (site_id, day));
            CREATE TABLE loose (a integer, b text);
            INSERT INTO region VALUES ('11111111-1111-1111-1111-111111111111', 'North'), ('22222222-2222-2222-2222-222222222222', 'South');
            INSERT INTO site VALUES ('aaaaaaaa-0000-0000-0000-000000000001', '11111111-1111-1111-1111-111111111111', 'Oslo'),
              ('aaaaaaaa-0000-0000-0000-000000000002', '11111111-1111-1111-1111-111111111111', 'Bergen'),
              ('aaaaaaaa-0000-0000-0000-000000000003', '22222222-2222-2222-2222-222222222222', 'Rome');
            INSERT INTO state VALUES ('NY', 'New York'), ('CA', 'California');
            INSERT INTO visit VALUES ('aaaaaaaa-0000-0000-0000-000000000001', '2024-01-01', 5), ('aaaaaaaa-0000-0000-0000-000000000001', '2024-01-02', 7),
              ('aaaaaaaa-0000-0000-0000-000000000003', '2024-01-01', 2);
            """)
        let url = try await PostgresServer.database("otherkeys")
        try await PostgresStoreTests.psql(sandbox, url, file: "schema.sql")
        try sandbox.write(
            "keys.lua",
            #"""
            print(count("region"), count("site", "region.label == 'North'"), #fetch{ "region", predicate = "label == 'North'" }[1].sites)
            print(count("site", "region_id == '11111111-1111-1111-1111-111111111111'"), count("visit", "site.region.label == 'North' AND guests > 5"))
            local east = region:new{ label = "East" }
            print(pcall(function() site:new{ name = "Nowhere" } end))
            save()
            print(east.region_id ~= nil, count("region", "label == 'East'"))
            local s = site:new{ site_id = "aaaaaaaa-0000-0000-0000-000000000009", name = "Tokyo" }
            s.region = east
            save()
            print(count("site", "region.label == 'East'"), #east.sites)
            local v = fetch{ "visit", predicate = "guests == 7" }[1]
            v.guests = 8; save()
            print(count("visit", "guests == 8"), v.site.name)
            local ny = fetch{ "state", predicate = "abbr == 'NY'" }[1]
            print(ny.name, count("state", "abbr BEGINSWITH 'C'"))
            print(pcall(function() ny.abbr = "NJ" end))
            print(ny.abbr, haschanges())
            fetch{ "state", predicate = "abbr == 'CA'" }[1]:delete(); save()
            print(count("state"))
            """#)
        let result = try await sandbox.quarry([url, "keys.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "2\t2\t2", "2\t1",
                "false\tkeys.lua:4: new: site needs a value for its key 'site_id': the table fills in no key of its own",
                "true\t1", "1\t1", "1\tOslo", "New York\t1",
                "false\tkeys.lua:16: state.abbr is the key its row is known by and cannot be changed (insert a new object with the new key and delete this one); the object is unchanged",
                "NY\tfalse",
                "1"
            ], "\(result)")
        // A table without a key is read only, by its rows' places (issue 86): nothing to say.
        #expect(!result.stderr.contains("loose"), "\(result.stderr)")
        let rows = try await psql(
            sandbox, url,
            "SELECT count(*) FROM region WHERE label = 'East'; SELECT s.name FROM site s JOIN region r USING (region_id) WHERE r.label = 'East'; SELECT guests FROM visit WHERE day = '2024-01-02'; SELECT string_agg(abbr, ',') FROM state"
        )
        #expect(rows == ["1", "Tokyo", "8", "NY"], "\(rows)")
    }

    /// The rows' numbers are made from their keys, not kept by the session: after the
    /// server restarts, the session's views are made again and the objects in use are
    /// the same rows (a pending change saves to the row it was made on).
    @Test func keyedObjectsSurviveARestart() async throws {
        let sandbox = try Sandbox()
        let server = try await PostgresOwnServer.start("keyedrestart")
        try await PostgresStoreTests.load(Self.schema, into: server.url, in: sandbox)
        try sandbox.write(
            "restart.lua",
            """
            local bonap = fetch{ "customer", predicate = "code == 'BONAP'" }[1]
            local before = tostring(bonap):match("^%S+")
            bonap.city = "Lyon"
            bonap.tags:remove(tag:get(1))
            assert(os.execute([[\(server.restartCommand)]]))
            print(count("customer", "ANY tags.word == 'big'"), haschanges())
            save()
            local again = fetch{ "customer", predicate = "city == 'Lyon'" }[1]
            print(again == bonap, tostring(again):match("^%S+") == before, #again.tags, #again.orders)
            """)
        let result = try await sandbox.quarry([server.url, "restart.lua"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["1\ttrue", "true\ttrue\t1\t1"], "\(result)")
        let rows = try await psql(
            sandbox, server.url,
            "SELECT code || ':' || city FROM customer WHERE code = 'BONAP'; SELECT count(*) FROM customer_tag WHERE customer_code = 'BONAP'")
        #expect(rows == ["BONAP:Lyon", "1"], "\(rows)")
    }

    /// Rows of a keyed table are read by number through the session's table of numbers
    /// and keys, which fills itself: a loop over thousands of rows (a dozen batches) reads
    /// every row once, and numbers them all after a few batches; a row another session
    /// adds later is found, one it deletes is gone. The same answers as psql, for a text
    /// key and for a key of two columns.
    @Test func rowsReadByNumberComeThroughTheSessionsNumbers() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "keyednumbers",
            schema: """
                CREATE TABLE item (code text PRIMARY KEY, n integer NOT NULL);
                INSERT INTO item SELECT 'k' || g, g FROM generate_series(1, 6000) g;
                CREATE TABLE cell (x integer, y text, v integer NOT NULL, PRIMARY KEY (x, y));
                INSERT INTO cell SELECT g % 50, 'y' || (g / 50), g FROM generate_series(1, 6000) g;
                """, in: sandbox)
        try sandbox.write(
            "numbers.lua",
            """
            local function sum(name, key) local s, c = 0, 0 for _, o in ipairs(fetch(name)) do s = s + o[key]; c = c + 1 end return c, s end
            local function numbered(name) return sql('SELECT count(*) AS n FROM pg_temp."quarry_rows ' .. name .. '" WHERE "_row" > 0')[1].n end
            print(sum("item", "n")); print(sum("cell", "v"))
            print(numbered("item"), numbered("cell"))
            os.execute("psql -q '\(url)' -c \\"INSERT INTO item VALUES ('new', 100000); DELETE FROM item WHERE code = 'k17'; INSERT INTO cell VALUES (99, 'z', 7)\\"")
            refresh()
            print(sum("item", "n")); print(sum("cell", "v"))
            local k = fetch{ "item", predicate = "n == 100000" }[1]
            print(k.code, #fetch{ "item", predicate = "code IN {'k16', 'k17', 'k18'}" })
            """)
        let result = try await sandbox.quarry([url, "numbers.lua"])
        #expect(result.status == 0, "\(result)")
        let sums = try await psql(sandbox, url, "SELECT count(*) || E'\\t' || sum(n) FROM item; SELECT count(*) || E'\\t' || sum(v) FROM cell")
        #expect(result.lines == ["6000\t18003000", "6000\t18003000", "6000\t6000"] + sums + ["new\t2"], "\(result)")
        #expect(sums == ["6000\t18102983", "6001\t18003007"], "\(sums)")
    }

    /// With no sort, a keyed table comes in its key's order (as an integer key's table
    /// does), not in the order of the hashes its rows are known by; after a sort, ties go
    /// in the key's order too, in the last key's direction. An unsaved object takes its
    /// place among the saved rows, where it is after the save. As psql orders them.
    @Test func keyedTablesComeInTheirKeysOrder() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "keyedorder",
            schema: """
                CREATE TABLE word (w text PRIMARY KEY, n integer NOT NULL);
                INSERT INTO word SELECT 'w' || lpad((g * 7919 % 1000)::text, 4, '0'), g % 3 FROM generate_series(1, 1000) g;
                CREATE TABLE pair (a integer, b text, v integer, PRIMARY KEY (a, b));
                INSERT INTO pair SELECT g * 37 % 10, 'b' || (g * 13 % 17), g FROM generate_series(1, 170) g;
                """, in: sandbox)
        try sandbox.write(
            "order.lua",
            """
            local function keys(r, ...) local t = {} for _, o in ipairs(r) do local k = {} for _, name in ipairs{...} do k[#k + 1] = o[name] end t[#t + 1] = table.concat(k, ":") end return table.concat(t, ",") end
            print(keys(fetch("word"), "w"))
            print(keys(fetch{ "word", sort = "-n" }, "n", "w"))
            print(keys(fetch("pair"), "a", "b"))
            word:new{ w = "w0500x", n = 1 }
            local before = keys(fetch{ "word", predicate = "n == 1" }, "w")
            save()
            print(before == keys(fetch{ "word", predicate = "n == 1" }, "w"), select(2, before:gsub(",", "")) + 1)
            """)
        let result = try await sandbox.quarry([url, "order.lua"])
        #expect(result.status == 0, "\(result)")
        let expected = try await psql(
            sandbox, url,
            """
            SELECT string_agg(w, ',' ORDER BY w COLLATE "C") FROM word WHERE w <> 'w0500x';
            SELECT string_agg(n || ':' || w, ',' ORDER BY n DESC, w COLLATE "C" DESC) FROM word WHERE w <> 'w0500x';
            SELECT string_agg(a || ':' || b, ',' ORDER BY a, b COLLATE "C") FROM pair;
            SELECT count(*) FROM word WHERE n = 1
            """)
        #expect(expected.count == 4 && expected[3] == "335", "\(expected)")
        #expect(result.lines == Array(expected.prefix(3)) + ["true\t335"], "\(result)")
    }

    /// psql's rows for `sql`, one a line.
    private func psql(_ sandbox: Sandbox, _ url: String, _ sql: String) async throws -> [String] {
        let result = try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", sql, url], timeout: 60)
        #expect(result.status == 0, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
