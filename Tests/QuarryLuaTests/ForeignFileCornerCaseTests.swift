import Foundation
import GRDB
import QuarryLua
import QuarryModelFiles
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// What a hostile and a careful user found wrong in the foreign-file, Core Data-writing,
/// Swift-export and store-seam changes, kept from coming back.
@Suite struct ForeignFileCornerCaseTests {
    /// Booleans a foreign file keeps as text ('true', 'TRUE', '1', 'False') group, count
    /// distinct, aggregate and section as booleans, as they compare and as objects read
    /// them: two groups, not one per spelling.
    @Test func textBooleansGroupAndSectionAsBooleans() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, b BOOLEAN);
            INSERT INTO t VALUES (1, 'true'), (2, 'false'), (3, 'TRUE'), (4, '1'), (5, 'False');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            """
            local g = fetch{ "t", properties = { "b", "count(*)" }, group = { "b" }, sort = { "b" } }
            assert(#g == 2 and g[1].b == false and g[1]["count(*)"] == 2 and g[2].b == true and g[2]["count(*)"] == 3, #g)
            local a = fetch{ "t", properties = { "count(distinct b) AS d", "min(b) AS lo", "max(b) AS hi", "sum(b) AS s" } }[1]
            assert(a.d == 2 and a.lo == false and a.hi == true and a.s == 3, tostring(a.d) .. tostring(a.lo) .. tostring(a.s))
            local r = fetch{ "t", section = "b", sort = { "b", "id" } }
            local names = {}
            for i = 1, #r do names[#names + 1] = tostring(r[i].id) .. ":" .. #r[i] end
            assert(table.concat(names, ",") == "false:2,true:3", table.concat(names, ","))
            """)
    }

    /// Dates kept as Unix milliseconds or Julian days read as those dates in dictionary
    /// rows, groups, aggregates and section names too, not as Unix seconds.
    @Test func numericDatesReadAsDatesInDictionariesAndSections() throws {
        let path = try foreignFile(
            """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, at DATETIME, jd DATE);
            INSERT INTO ev VALUES (1, 1700000000000, 2460000.5), (2, 1700000001000, 2460001.5), (3, 1700000000000, 2460000.5);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            """
            local first = fetch{ "ev", sort = { "at" } }[1]
            local g = fetch{ "ev", properties = { "at", "count(*)" }, group = { "at" }, sort = { "at" } }
            assert(#g == 2 and g[1].at == first.at and g[1]["count(*)"] == 2, tostring(g[1].at))
            local a = fetch{ "ev", properties = { "min(at) AS lo", "min(jd) AS j" } }[1]
            assert(a.lo == first.at and a.j == first.jd, tostring(a.lo) .. " " .. tostring(a.j))
            assert(fetch{ "ev", properties = { "at", "jd" }, sort = { "at" } }[1].jd == first.jd)
            local r = fetch{ "ev", section = "at", sort = { "at" } }
            assert(#r == 2 and r[1].id == first.at and #r[1] == 2, tostring(r[1].id))
            """)
    }
}

extension ForeignFileCornerCaseTests {
    /// A key declared `ınteger` (a dotless ı) is no alias of the rowid, as SQLite compares
    /// the word's letters as ASCII: rows are known by their rowid, and a row whose key
    /// column was left empty is one, with no key, as sqlite3 reads it.
    @Test func aKeyDeclaredWithANonASCIILetterIsNoRowidAlias() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id ınteger PRIMARY KEY, x TEXT);
            INSERT INTO t (x) VALUES ('a');
            INSERT INTO t VALUES (7, 'b');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            """
            local r = fetch{ "t", sort = { "x" } }
            assert(#r == 2 and r[1].id == nil and r[2].id == 7, tostring(#r) .. " " .. tostring(r[1].id))
            assert(count("t", "id == 7") == 1)
            """)
    }

    /// A foreign file's boolean column keeping true as -1 or 2 (as some programs write it):
    /// `b == YES` selects in SQL the rows objects read as true and a predicate matches in
    /// memory.
    @Test func numbersOtherThanOneAreTrueInSQLAsInMemory() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, b BOOLEAN);
            INSERT INTO t VALUES (1, -1), (2, 2), (3, 0), (4, 1), (5, 0.5), (6, NULL), (7, 'Y');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        for (predicate, expected) in [("b == YES", 5), ("b == NO", 1), ("b != YES", 2)] {
            #expect(h.string("count('t', '\(predicate)')") == "\(expected)", "\(predicate)")
            h.run(
                """
                local p, n = predicate('\(predicate)'), 0
                for _, o in ipairs(fetch('t')) do if p:matches(o) then n = n + 1 end end
                assert(n == \(expected), '\(predicate): ' .. n)
                """)
        }
        h.run(
            """
            local g = fetch{ "t", properties = { "b", "count(*)" }, group = { "b" }, sort = { "b" } }
            assert(#g == 3 and g[2].b == false and g[2]["count(*)"] == 1 and g[3]["count(*)"] == 5, #g)
            """)
    }
}

extension ForeignFileCornerCaseTests {
    /// A file with an empty table named `quarry_model` opens as someone else's, and as
    /// such keeps every byte: its journal mode is not switched to WAL.
    @Test(arguments: ["CREATE TABLE quarry_model (x);", "CREATE TABLE quarry_model (name, definition); CREATE TABLE t (id INTEGER PRIMARY KEY);"])
    func anEmptyQuarryModelTableOfAnotherProgramKeepsItsBytes(_ schema: String) throws {
        let path = try foreignFile(schema)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let h = try Harness(context: try StoreOpener.open(path))
            h.run("assert(#sql('SELECT name FROM sqlite_master') >= 1)")
            h.context.close()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
}

extension ForeignFileCornerCaseTests {
    /// A column named `_` is written `_5F` (bare, `_` binds no property and `t._` names no
    /// member: swiftc refuses both; the raw identifier `` `_` `` needs Swift 6.2, issue 48).
    /// A foreign key naming a column its parent does not have, or one it does not hold
    /// unique (SQLite takes the declaration, and fails each write with "foreign key
    /// mismatch"), is no relationship, nor a join table's end: its column stays an
    /// attribute, said in one note. As a to-one the first failed every read with "no such
    /// column", the second reached several rows.
    @Test func aKeyNamingAColumnItsParentLacksIsNoRelationship() throws {
        // Written with foreign keys off, as a program that never turned them on writes.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-foreign-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE p (a INTEGER, b TEXT, PRIMARY KEY (a, b));
                    CREATE TABLE q (x INTEGER PRIMARY KEY, y);
                    CREATE TABLE j (pa, pb, qx REFERENCES q (nonexistent), FOREIGN KEY (pa, pb) REFERENCES p);
                    CREATE TABLE k (pa INTEGER, pb TEXT, qx INTEGER REFERENCES q, FOREIGN KEY (pa, pb) REFERENCES p (a, b), PRIMARY KEY (pa, pb, qx));
                    CREATE TABLE byname (id INTEGER PRIMARY KEY, qy REFERENCES q (y));
                    INSERT INTO q VALUES (2, 'q1');
                    INSERT INTO byname VALUES (1, 'q1');
                    INSERT INTO p VALUES (1, 'x'), (2, 'y');
                    INSERT INTO q VALUES (1, 'q1');
                    INSERT INTO j VALUES (1, 'x', 1);
                    INSERT INTO k VALUES (1, 'x', 1), (2, 'y', 1);
                    """)
        }
        try queue.close()
        let context = try StoreOpener.open(path)
        #expect(
            context.openingNotes.contains("j(qx) references q(nonexistent), which q does not have: read as its columns, not as a relationship"),
            "\(context.openingNotes)")
        // Two rows of q hold 'q1': as a to-one, its inverse set held the child twice over.
        #expect(
            context.openingNotes.contains("byname(qy) references q(y), which q does not hold unique: read as its columns, not as a relationship"),
            "\(context.openingNotes)")
        let h = try Harness(context: context)
        h.run(
            """
            assert(#fetch("j") == 1 and fetch("j")[1].qx == 1)
            local ok, err = pcall(count, "j", "qx_q.y == 'q1'")
            assert(not ok and tostring(err):find("unknown key 'qx_q'"), tostring(err))
            assert(count("p", "ANY qx_qs.y == 'q1'") == 2, "the join table whose keys name real columns still joins")
            assert(fetch("byname")[1].qy == "q1" and not pcall(count, "byname", "qy_q.x == 1"))
            """)
    }

    /// A key naming its parent and the parent's columns in another case (`REFERENCES
    /// artist (artistid)` for `Artist.ArtistId`) is the relationship SQLite's own
    /// matching makes of it, as if spelled as declared; it was read as its column only.
    @Test func aKeyNamingItsParentInAnotherCaseIsARelationship() throws {
        let path = try foreignFile(
            """
            CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name TEXT);
            CREATE TABLE album (id INTEGER PRIMARY KEY, artist_id INTEGER REFERENCES artist (artistid) ON DELETE CASCADE, title TEXT);
            INSERT INTO Artist VALUES (1, 'A'), (2, 'B');
            INSERT INTO album VALUES (1, 1, 'x'), (2, 1, 'y'), (3, 2, 'z');
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            """
            assert(count("album", "artist.Name == 'A'") == 2 and #Artist:get(1).albums == 2 and fetch("album")[3].artist.Name == "B")
            Artist:get(1):delete(); save()
            assert(count("album") == 1 and count("Artist") == 1)
            """)
        #expect(try sqlAnswer(path, "SELECT count(*) FROM album") == "1")
    }

    @Test func anAttributeNamedUnderscoreIsAnIdentifierInSwift() throws {
        #expect(SwiftModelSource.identifier("_") == "_5F")
        let path = try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, _ INTEGER); INSERT INTO t VALUES (1, 1);")
        let h = try Harness(context: try StoreOpener.open(path))
        let swift = try #require(h.string(#"fetch{ "t", predicate = "_ == 1", sort = { "_" } }:swift("descriptor")"#))
        #expect(swift.contains("t._5F == 1") && swift.contains("\\t._5F") && !swift.contains("`"), "\(swift)")
    }

    /// SELF is written bare in an NSPredicate format: Apple's parser reads `#SELF` as a key
    /// named SELF, not the object.
    @Test func selfIsBareInAnAppleFormat() throws {
        let h = try Harness(
            context: try StoreOpener.open(try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO t VALUES (1, 1);")))
        let swift = try #require(h.string(#"fetch("t", "SELF == %@ OR n == 2", t:get(1)):swift("nsfetchrequest")"#))
        #expect(swift.contains(#"format: #"SELF == "#) && !swift.contains("#SELF"), "\(swift)")
        #expect(h.string(#"tostring(predicate("SELF IN %@", {t:get(1)}))"#)?.hasPrefix("SELF IN") == true)
    }

    /// A WITHOUT ROWID table keyed by text (a country by its ISO code, found trying a
    /// SQLite sample with odd shapes, issue 45) or by two columns was left out; it is an
    /// entity (issue 60), its objects known by their key's number, with no opening note; a
    /// table keyed by an integer stays an entity, and the rest of the file reads as before.
    @Test func aWithoutRowidTableKeyedByTextIsAnEntity() throws {
        let path = try foreignFile(
            """
            CREATE TABLE country (iso TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT, iso TEXT REFERENCES country (iso));
            CREATE TABLE visit (city_id INTEGER NOT NULL REFERENCES city (id), day TEXT NOT NULL, PRIMARY KEY (city_id, day)) WITHOUT ROWID;
            CREATE TABLE plain (id INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID;
            INSERT INTO country VALUES ('FR', 'France'); INSERT INTO city VALUES (1, 'Paris', 'FR'); INSERT INTO plain VALUES (1, 'x');
            INSERT INTO visit VALUES (1, '2024-01-01');
            """)
        let context = try StoreOpener.open(path)
        let h = try Harness(context: context)
        #expect(h.string(#"count("city", "iso == 'FR'") .. "," .. count("plain")"#) == "1,1")
        #expect(context.openingNotes.isEmpty, "\(context.openingNotes)")
        #expect(h.string(#"country:first("iso == 'FR'").name .. "," .. count("visit", "day == '2024-01-01'")"#) == "France,1")
    }

    /// A generated column (`GENERATED ALWAYS AS (...)`, VIRTUAL or STORED), which `PRAGMA
    /// table_info` does not list, is an attribute as any: tested in predicates, summed,
    /// read back by a save that inserts or changes what it is computed from, and never
    /// written: setting it is refused, as on PostgreSQL. It was left out without a word.
    @Test func generatedColumnsAreReadAndNeverWritten() throws {
        let path = try foreignFile(
            """
            CREATE TABLE reading (id INTEGER PRIMARY KEY, celsius REAL NOT NULL,
              fahrenheit REAL GENERATED ALWAYS AS (celsius * 9 / 5 + 32) VIRTUAL,
              label TEXT NOT NULL GENERATED ALWAYS AS ('t' || id) STORED);
            INSERT INTO reading (id, celsius) VALUES (1, 5.5), (2, -1.0), (3, 100);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"count("reading", "fahrenheit > 40") .. "," .. reading:get(3).fahrenheit .. "," .. reading:get(2).label"#) == "2,212.0,t2")
        #expect(h.string(#"fetch{ "reading", result = "dictionaries", properties = { "sum(fahrenheit) AS s" } }[1].s"#) == "284.1")
        h.run(
            #"""
            local r = reading:new{ celsius = 20 }
            reading:get(1).celsius = 0
            save()
            assert(r.fahrenheit == 68 and r.label == "t4", tostring(r.fahrenheit) .. tostring(r.label))
            assert(reading:get(1).fahrenheit == 32, reading:get(1).fahrenheit)
            """#)
        #expect(h.error(#"reading:get(2).fahrenheit = 1; save()"#).contains("reading.fahrenheit is generated by SQLite and cannot be set"))
        h.run("rollback()")
        #expect(h.error(#"reading:updateall("id == 2", {}, { label = "x" })"#).contains("reading.label is generated by SQLite and cannot be set"))
        #expect(
            try sqlAnswer(path, "SELECT group_concat(id || ':' || celsius || ':' || fahrenheit || ':' || label) FROM reading")
                == "1:0.0:32.0:t1,2:-1.0:30.2:t2,3:100.0:212.0:t3,4:20.0:68.0:t4")
    }
}
