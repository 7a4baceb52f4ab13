import Foundation
import QuarryTestSupport
import Testing

/// A parent deleted in memory whose children's foreign key is `ON DELETE SET DEFAULT`, on
/// PostgreSQL and in a SQLite file alike: the children in use take their column's default
/// as the engine's own DELETE gives it (psql's, sqlite3's), read from the schema's
/// description on either engine (not from SQLite's `PRAGMA table_info`), and a default
/// naming no parent that stays is refused before anything changes, as the engine refuses
/// it. Against a real server (`PostgresServer`): the tests fail, never skip, without one.
@Suite struct SetDefaultDeleteTests {
    static let schema = """
        CREATE TABLE parent (id integer PRIMARY KEY, name text);
        CREATE TABLE child (id integer PRIMARY KEY, parent_id integer DEFAULT 1 REFERENCES parent(id) ON DELETE SET DEFAULT, x integer);
        CREATE TABLE stray (id integer PRIMARY KEY, parent_id integer DEFAULT 40 REFERENCES parent(id) ON DELETE SET DEFAULT);
        CREATE TABLE pair (a integer, b integer, name text, PRIMARY KEY (a, b));
        CREATE TABLE pairchild (id integer PRIMARY KEY, pa integer DEFAULT 1, pb integer DEFAULT 1,
                                FOREIGN KEY (pa, pb) REFERENCES pair(a, b) ON DELETE SET DEFAULT);
        INSERT INTO parent VALUES (1, 'keep'), (30, 'gone'), (40, 'held');
        INSERT INTO child VALUES (310, 30, 1), (311, 30, 2), (312, 40, 3);
        INSERT INTO stray VALUES (410, 40);
        INSERT INTO pair VALUES (1, 1, 'keep'), (3, 4, 'gone');
        INSERT INTO pairchild VALUES (510, 3, 4), (511, 1, 1);

        """

    static let children = "SELECT id || ':' || parent_id FROM child ORDER BY id"

    /// The same schema in a new PostgreSQL database (its URL) and in `lite.db`.
    static func stores(_ name: String, in sandbox: Sandbox) async throws -> [String] {
        let url = try await PostgresServer.database(name)
        try sandbox.write("pg.sql", schema)
        try sandbox.write("lite.sql", "PRAGMA foreign_keys = ON;\n" + schema)
        try await PostgresStoreTests.psql(sandbox, url, file: "pg.sql")
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "lite.sql")
        return [url, "lite.db"]
    }

    /// `sql`'s rows as the engine's own shell reads them.
    static func rows(_ sql: String, in store: String, _ sandbox: Sandbox) async throws -> [String] {
        let result =
            store.hasPrefix("postgres")
            ? try await sandbox.run(URL(fileURLWithPath: "/usr/bin/psql"), ["-Atc", sql, store], timeout: 60)
            : try await sandbox.run(URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell()), [store, sql], timeout: 60)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// One column: the children (one in use before the delete, one read by it) point at
    /// the default parent after the save, as the engine's own `DELETE` leaves them.
    @Test func childrenTakeTheColumnsDefault() async throws {
        let sandbox = try Sandbox()
        // The engine's own DELETE, in a database of its own.
        let reference = try await PostgresServer.database("setdefault_psql")
        try sandbox.write("ref.sql", Self.schema + "DELETE FROM parent WHERE id = 30;\n")
        try await PostgresStoreTests.psql(sandbox, reference, file: "ref.sql")
        try sandbox.write("ref-lite.sql", "PRAGMA foreign_keys = ON;\n" + Self.schema + "DELETE FROM parent WHERE id = 30;\n")
        try await PostgresStoreTests.sqlite3(sandbox, "ref.db", file: "ref-lite.sql")
        let expected = ["310:1", "311:1", "312:40"]
        #expect(try await Self.rows(Self.children, in: reference, sandbox) == expected)
        #expect(try await Self.rows(Self.children, in: "ref.db", sandbox) == expected)

        let script = #"""
            local c = child:get(310)
            print(c.parent.name)
            parent:get(30):delete()
            print(c.parent_id, c.parent.name)
            print(save().deleted)
            """#
        for store in try await Self.stores("setdefault_one", in: sandbox) {
            let result = try await sandbox.quarry([store, "-e", script])
            #expect(result.status == 0 && result.lines == ["gone", "1\tkeep", "1"], "\(store): \(result)")
            #expect(try await Self.rows(Self.children, in: store, sandbox) == expected, "\(store)")
        }
    }

    /// A default naming the parent that goes is refused, as the engine's own DELETE is,
    /// and nothing changes.
    @Test func aDefaultNamingTheParentGoingIsRefused() async throws {
        let sandbox = try Sandbox()
        let reference = try await PostgresServer.database("setdefault_refused")
        try sandbox.write("ref.sql", Self.schema)
        try await PostgresStoreTests.psql(sandbox, reference, file: "ref.sql")
        let refused = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"), ["-v", "ON_ERROR_STOP=1", "-c", "DELETE FROM parent WHERE id = 40", reference], timeout: 60)
        #expect(refused.status != 0 && refused.stderr.contains("foreign key"), "\(refused)")

        let script = #"""
            local ok, err = pcall(function() parent:get(40):delete() end)
            print(ok, tostring(err):find("ON DELETE SET DEFAULT", 1, true) ~= nil)
            print(parent:get(40).name, stray:get(410).parent_id, child:get(312).parent_id)
            print(save().deleted)
            """#
        for store in try await Self.stores("setdefault_stray", in: sandbox) {
            let result = try await sandbox.quarry([store, "-e", script])
            #expect(result.status == 0 && result.lines == ["false\ttrue", "held\t40\t40", "0"], "\(store): \(result)")
            #expect(try await Self.rows("SELECT count(*) FROM parent", in: store, sandbox) == ["3"], "\(store)")
        }
    }

    /// Several columns: each of the key's columns takes its default, and together they
    /// name a parent that stays, as the engine's own DELETE gives them; a default naming
    /// the parent that goes is refused alike.
    @Test func aKeyOfSeveralColumnsTakesItsColumnsDefaults() async throws {
        let sandbox = try Sandbox()
        let pairs = "SELECT id || ':' || pa || '/' || pb FROM pairchild ORDER BY id"
        let reference = try await PostgresServer.database("setdefault_pair_psql")
        try sandbox.write("ref.sql", Self.schema + "DELETE FROM pair WHERE a = 3;\n")
        try await PostgresStoreTests.psql(sandbox, reference, file: "ref.sql")
        try sandbox.write("ref-lite.sql", "PRAGMA foreign_keys = ON;\n" + Self.schema + "DELETE FROM pair WHERE a = 3;\n")
        try await PostgresStoreTests.sqlite3(sandbox, "ref.db", file: "ref-lite.sql")
        #expect(try await Self.rows(pairs, in: reference, sandbox) == ["510:1/1", "511:1/1"])
        #expect(try await Self.rows(pairs, in: "ref.db", sandbox) == ["510:1/1", "511:1/1"])

        let script = #"""
            local c = pairchild:get(510)
            print(c.pair.name)
            local ok, err = pcall(function() fetch{"pair", predicate = "a == 1"}[1]:delete() end)
            print(ok, tostring(err):find("ON DELETE SET DEFAULT", 1, true) ~= nil)
            c.pair:delete()
            print(c.pa, c.pb, c.pair.name)
            print(save().deleted)
            """#
        for store in try await Self.stores("setdefault_pair", in: sandbox) {
            let result = try await sandbox.quarry([store, "-e", script])
            #expect(result.status == 0 && result.lines == ["gone", "false\ttrue", "1\t1\tkeep", "1"], "\(store): \(result)")
            #expect(try await Self.rows(pairs, in: store, sandbox) == ["510:1/1", "511:1/1"], "\(store)")
        }
    }

    /// A SQLite file's default in parentheses may call any function, and a file's text
    /// never makes Quarry call one: a delete that would give it (an object's, `deleteall`)
    /// is refused in one line naming the column and its default, and nothing changes. A
    /// literal default in the same file is still given, a quoted number as the integer
    /// its column keeps (it was the text "1", naming no parent in memory).
    @Test func aSQLiteDefaultThatIsAnExpressionIsNotEvaluated() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "lite.sql",
            """
            PRAGMA foreign_keys = ON;
            CREATE TABLE parent (id integer PRIMARY KEY, name text);
            CREATE TABLE child (id integer PRIMARY KEY, parent_id integer DEFAULT (abs(-1)) REFERENCES parent(id) ON DELETE SET DEFAULT);
            CREATE TABLE other (id integer PRIMARY KEY, parent_id integer DEFAULT '1' REFERENCES parent(id) ON DELETE SET DEFAULT);
            INSERT INTO parent VALUES (1, 'keep'), (30, 'gone'), (31, 'fine');
            INSERT INTO child VALUES (310, 30);
            INSERT INTO other VALUES (410, 31);
            CREATE TABLE stray (id integer PRIMARY KEY, parent_id integer DEFAULT 40 REFERENCES parent(id) ON DELETE SET DEFAULT);
            INSERT INTO stray VALUES (1, 1);

            """)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "lite.sql")
        let script = #"""
            print(select(2, pcall(function() parent:get(1):delete() end)))
            local ok, err = pcall(function() parent:get(30):delete() end)
            print(ok, err)
            print(child:get(310).parent_id, parent:get(30):isDeleted())
            print(pcall(function() return parent:deleteall("id == 30") end))
            parent:get(31):delete()
            local o = other:get(410)
            print(o.parent_id, math.type(o.parent_id), o.parent.name, save().deleted)
            """#
        let result = try await sandbox.quarry(["lite.db", "-e", script])
        let refusal =
            "delete: the default of child.parent_id is an expression Quarry does not evaluate: abs(-1) (ON DELETE SET DEFAULT); set the column in SQL"
        #expect(result.status == 0, "\(result)")
        // The value refused is named as a person reads it (it was "integer(40)").
        #expect(
            result.lines.first?.hasSuffix(
                "delete: stray.parent_id is set to its default 40 on delete (ON DELETE SET DEFAULT), and no parent row has it") == true, "\(result)")
        let lines = Array(result.lines.dropFirst())
        #expect(lines.count == 4 && lines[0].hasPrefix("false") && lines[0].hasSuffix(refusal), "\(result)")
        #expect(lines.dropFirst().first == "30\tfalse", "\(result)")
        #expect(lines.dropFirst(2).first.map { $0.hasPrefix("false") && $0.hasSuffix(refusal) } == true, "\(result)")
        // The quoted number is the integer sqlite3's DELETE stores, naming the parent kept.
        #expect(lines.last == "1\tinteger\tkeep\t1", "\(result)")
        #expect(try await Self.rows("SELECT typeof(parent_id) || ':' || parent_id FROM other", in: "lite.db", sandbox) == ["integer:1"])
        #expect(try await Self.rows("SELECT group_concat(id) FROM parent", in: "lite.db", sandbox) == ["1,30"])
        #expect(try await Self.rows("SELECT parent_id FROM stray", in: "lite.db", sandbox) == ["1"])
        #expect(try await Self.rows(Self.children, in: "lite.db", sandbox) == ["310:30"])
    }

    /// On PostgreSQL the server's expression is evaluated (`now()`'s day names a parent),
    /// but in the session's READ ONLY reads: a default that writes (`nextval`) is refused
    /// at the delete with the server's reason, and its sequence does not move before any
    /// save (psql's own DELETE takes the next value; the reason was left out).
    @Test func aServerDefaultThatWritesIsRefusedWithItsReason() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresServer.database("setdefault_nextval")
        try sandbox.write(
            "pg.sql",
            """
            CREATE SEQUENCE s START 100;
            CREATE TABLE parent (id integer PRIMARY KEY, name text);
            CREATE TABLE child (id integer PRIMARY KEY, parent_id integer DEFAULT nextval('s') REFERENCES parent(id) ON DELETE SET DEFAULT);
            CREATE TABLE dated (id integer PRIMARY KEY, parent_id integer DEFAULT extract(day FROM now())::int REFERENCES parent(id) ON DELETE SET DEFAULT);
            INSERT INTO parent SELECT g, 'p' || g FROM generate_series(1, 200) g;
            INSERT INTO child VALUES (1, 5), (2, 5);
            INSERT INTO dated VALUES (1, 50);

            """)
        try await PostgresStoreTests.psql(sandbox, url, file: "pg.sql")
        let script = #"""
            print(select(2, pcall(function() parent:get(5):delete() end)))
            print(child:get(1).parent_id, parent:get(5):isDeleted())
            parent:get(50):delete()
            print(dated:get(1).parent_id == tonumber(os.date("!%d")) or dated:get(1).parent_id == tonumber(os.date("%d")))
            print(save().deleted)
            """#
        let result = try await sandbox.quarry([url, "-e", script])
        #expect(result.status == 0 && result.lines.count == 4, "\(result)")
        #expect(
            result.lines.first?.contains("delete: the default of child.parent_id cannot be read: nextval('s'::regclass) (PostgreSQL: ") == true
                && result.lines.first?.contains("read-only transaction") == true, "\(result)")
        #expect(Array(result.lines.dropFirst()) == ["5\tfalse", "true", "1"], "\(result)")
        #expect(try await Self.rows("SELECT last_value || ':' || is_called FROM s", in: url, sandbox) == ["100:false"])
        #expect(try await Self.rows("SELECT id || ':' || parent_id FROM child ORDER BY id", in: url, sandbox) == ["1:5", "2:5"])
    }
}
