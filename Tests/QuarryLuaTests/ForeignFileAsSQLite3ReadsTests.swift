import Foundation
import GRDB
import QuarryShell
import QuarryStore
import Testing

/// Another program's SQLite file is read, written and queried as sqlite3 reads it
/// (issue 60, item 2): views, triggers and defaults written with double-quoted strings,
/// a virtual table's shadow tables kept out of sight, and every part Quarry cannot read
/// named in a note. Opening changes no byte of the file.
@Suite struct ForeignFileAsSQLite3ReadsTests {
    /// A file made as sqlite3 makes one, double-quoted strings accepted (an Android
    /// messaging file's views are written `group_concat(x, "|")`).
    private func sqlite3File(_ sql: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-sqlite3-\(UUID().uuidString).db").path
        var configuration = Configuration()
        configuration.acceptsDoubleQuotedStringLiterals = true
        // As the sqlite3 shell: a key naming a table the file lacks does not refuse rows.
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return path
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func viewsWithDoubleQuotedStringsAreEntitiesAndSQLReadsThem() throws {
        let path = try sqlite3File(
            """
            CREATE TABLE msg (id INTEGER PRIMARY KEY, conv INTEGER, body TEXT);
            INSERT INTO msg VALUES (1, 1, 'a'), (2, 1, 'b'), (3, 2, 'c');
            CREATE VIEW conv_bodies AS SELECT conv, group_concat(body, "|") AS bodies FROM (SELECT * FROM msg ORDER BY id) GROUP BY conv;
            CREATE VIEW tagged AS SELECT id, "x" || body AS tag FROM msg;
            """)
        let before = try bytes(path)
        let context = try StoreOpener.open(path)
        #expect(context.openingNotes.isEmpty, "\(context.openingNotes)")
        let h = try Harness(context: context)
        #expect(h.string(#"count("conv_bodies") .. "," .. fetch{ "conv_bodies", sort = { "conv" } }[1].bodies"#) == "2,a|b")
        #expect(h.string(#"count("tagged", "tag == 'xc'")"#) == "1")
        #expect(h.string(#"sql("SELECT bodies FROM conv_bodies WHERE conv = 2")[1].bodies"#) == "c")
        // sql() reads a double-quoted word that names no column as sqlite3 does.
        #expect(h.string(#"sql('SELECT "|" AS s')[1].s"#) == "|")
        #expect(try bytes(path) == before, "opening changed the file")
    }

    @Test func aTriggerWritingADoubleQuotedStringDoesNotBreakSave() throws {
        let path = try sqlite3File(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE log (id INTEGER PRIMARY KEY, what TEXT, item_id INTEGER);
            CREATE TRIGGER item_added AFTER INSERT ON item BEGIN INSERT INTO log (what, item_id) VALUES ("z", new.id); END;
            CREATE TRIGGER item_renamed AFTER UPDATE OF name ON item BEGIN UPDATE log SET what = "r" WHERE item_id = new.id; END;
            INSERT INTO item VALUES (1, 'one');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            """
            item:new{ name = "two" }
            save()
            item:get(1).name = "uno"
            save()
            """)
        #expect(try sqlAnswer(path, "SELECT what || ':' || item_id FROM log ORDER BY id") == "r:1,z:2")
        #expect(h.string(#"count("log", "what == 'z'") .. "," .. count("log", "what == 'r'")"#) == "1,1")
    }

    /// After DEFAULT, SQLite reads a name as the string it spells.
    @Test func aDefaultWrittenAsANameIsThatString() throws {
        let path = try sqlite3File(
            #"""
            CREATE TABLE d (id INTEGER PRIMARY KEY, a TEXT DEFAULT "abc", b TEXT NOT NULL DEFAULT abc, c TEXT DEFAULT [it's],
              n INTEGER DEFAULT "7", q TEXT DEFAULT "say ""hi""", t BOOLEAN DEFAULT true, e TEXT DEFAULT 'e');
            INSERT INTO d (id) VALUES (1);
            """#)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            local o = d:new{}
            local got = table.concat({ o.a, o.b, o.c, o.n, o.q, tostring(o.t), o.e }, "/")
            assert(got == [[abc/abc/it's/7/say "hi"/true/e]], got)
            save()
            """#)
        // What the engine would have filled, as sqlite3 filled row 1.
        let row = "a || '/' || b || '/' || c || '/' || typeof(n) || n || '/' || q || '/' || t || '/' || e"
        #expect(try sqlAnswer(path, "SELECT \(row) FROM d ORDER BY id") == #"abc/abc/it's/integer7/say "hi"/1/e,abc/abc/it's/integer7/say "hi"/1/e"#)
    }

    /// FTS5, FTS4 and R*Tree tables are entities; their shadow tables are the engine's.
    @Test func shadowTablesAreNeitherEntitiesNorNotes() throws {
        let path = try sqlite3File(
            """
            CREATE VIRTUAL TABLE ft USING fts5(title, body);
            CREATE VIRTUAL TABLE f4 USING fts4(text);
            CREATE VIRTUAL TABLE box USING rtree(id, x0, x1, y0, y1);
            INSERT INTO ft VALUES ('one', 'alpha beta'), ('two', 'gamma');
            INSERT INTO f4 VALUES ('delta');
            INSERT INTO box VALUES (1, 0, 1, 0, 1), (2, 5, 6, 5, 6);
            CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);
            """)
        let before = try bytes(path)
        let context = try StoreOpener.open(path)
        #expect(context.openingNotes.isEmpty, "\(context.openingNotes)")
        let names = Set(context.managedObjectModel.entitiesByName.keys)
        #expect(names == ["ft", "f4", "box", "note"], "\(names.sorted())")
        let h = try Harness(context: context)
        #expect(h.string(#"count("ft") .. "," .. count("f4") .. "," .. count("box") .. "," .. count("box", "x0 > 2")"#) == "2,1,2,1")
        #expect(try bytes(path) == before, "opening changed the file")
    }

    /// A table sqlite3 cannot read (an FTS table whose tokenizer is another program's, as
    /// in an iOS AddressBook), a view over a dropped table and a foreign key to a table
    /// the file lacks: the file opens, and each is named in a note saying why.
    @Test func whatCannotBeReadIsNamedInANote() throws {
        let path = try sqlite3File(
            """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, group_id INTEGER REFERENCES grp (id));
            INSERT INTO person VALUES (1, 'ann', 7);
            CREATE TABLE badge (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES account (id), issuer_id INTEGER REFERENCES account (id));
            CREATE TABLE login (id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES account (id));
            CREATE TABLE gone (id INTEGER PRIMARY KEY);
            CREATE VIEW stale AS SELECT id FROM gone;
            DROP TABLE gone;
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_master VALUES ('table', 'abfts', 'abfts', 0, 'CREATE VIRTUAL TABLE abfts USING fts4(name, tokenize=abtokenizer)');
            PRAGMA writable_schema = OFF;
            """)
        let before = try bytes(path)
        let context = try StoreOpener.open(path)
        #expect(
            context.openingNotes.sorted() == [
                "abfts is left out: unknown tokenizer: abtokenizer (sqlite3 cannot read it either)",
                // One note for every key to one missing table.
                "badge(owner_id), badge(issuer_id) and login(account_id) reference account, which the file does not have: each read as its column, not as a relationship; SQLite writes no row of badge and login while foreign keys are checked",
                "person(group_id) references grp, which the file does not have: read as its column, not as a relationship; SQLite writes no row of person while foreign keys are checked",
                "stale is left out: no such table: main.gone (sqlite3 cannot read it either)"
            ], "\(context.openingNotes)")
        let h = try Harness(context: context)
        #expect(h.string(#"count("person") .. "," .. person:get(1).group_id"#) == "1,7")
        // With foreign keys checked, as Quarry checks them, SQLite writes no row of
        // person (sqlite3 with `PRAGMA foreign_keys = ON` neither): said in one line.
        #expect(h.error(#"person:new{ name = "bo" }; save()"#) == "t:1: save: no such table: main.grp")
        #expect(try bytes(path) == before, "opening changed the file")
    }
}
