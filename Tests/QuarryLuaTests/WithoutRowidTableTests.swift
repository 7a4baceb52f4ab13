import Foundation
import GRDB
import QuarryLua
import QuarryShell
import QuarryStore
import Testing

@testable import QuarrySQLite

/// A `WITHOUT ROWID` table keyed by text (a country by its ISO code) or by several
/// columns is an entity, as the same table of a PostgreSQL schema is (issue 60): its
/// objects are known by a number made from their key, read through a TEMP view, and
/// written to the file's table. What sqlite3 reads of the file is what Quarry reads and
/// writes.
@Suite struct WithoutRowidTableTests {
    static func schema() throws -> String {
        try foreignFile(
            """
            CREATE TABLE country (iso TEXT PRIMARY KEY, name TEXT NOT NULL, pop INTEGER) WITHOUT ROWID;
            CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT, country_iso TEXT REFERENCES country (iso));
            CREATE TABLE visit (city_id INTEGER NOT NULL REFERENCES city (id), day TEXT NOT NULL, note TEXT,
              PRIMARY KEY (city_id, day)) WITHOUT ROWID;
            CREATE TABLE photo (id INTEGER PRIMARY KEY, city_id INTEGER, day TEXT, caption TEXT,
              FOREIGN KEY (city_id, day) REFERENCES visit (city_id, day));
            INSERT INTO country VALUES ('FR', 'France', 68), ('IT', 'Italy', 59), ('LU', 'Luxembourg', 1), ('ES', 'Spain', 48);
            INSERT INTO city VALUES (1, 'Paris', 'FR'), (2, 'Lyon', 'FR'), (3, 'Rome', 'IT');
            INSERT INTO visit VALUES (1, '2024-01-01', 'cold'), (1, '2024-06-01', 'warm'), (3, '2024-03-03', NULL);
            INSERT INTO photo VALUES (1, 1, '2024-06-01', 'tower'), (2, 1, '2024-06-01', 'river'), (3, 3, '2024-03-03', 'forum');
            """)
    }

    /// Counts, values, predicates, sorts and limits as sqlite3 reads them; `get` by the
    /// number `ids()` gives; `first()`; sections; no opening note.
    @Test func aTextKeyedTableReadsAsSQLite3ReadsIt() throws {
        let path = try Self.schema()
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.context.openingNotes.isEmpty, "\(h.context.openingNotes)")
        #expect(h.string(#"count("country")"#) == (try sqlAnswer(path, "SELECT count(*) FROM country")))
        #expect(h.string(#"count("visit")"#) == (try sqlAnswer(path, "SELECT count(*) FROM visit")))
        h.run(
            #"""
            local r = fetch{ "country", predicate = "pop > %@", args = { 10 }, sort = { "name" }, limit = 2 }
            names = {}
            for _, c in ipairs(r) do names[#names + 1] = c.iso .. "=" .. c.name end
            names = table.concat(names, ",")
            """#)
        #expect(h.string("names") == (try sqlAnswer(path, "SELECT iso || '=' || name FROM country WHERE pop > 10 ORDER BY name LIMIT 2")))
        #expect(h.string(#"fetch{ "country", sort = { "-pop" } }:first().iso"#) == "FR")
        #expect(h.string(#"country:get(fetch{ "country", predicate = "iso == 'IT'" }:ids()[1]).name"#) == "Italy")
        #expect(h.string(#"country:first("name BEGINSWITH 'Lux'").pop"#) == "1")
        #expect(h.string(#"#fetch{ "visit", section = "city_id", sort = { "city_id", "day" } }"#) == "2")
        #expect(
            h.string(#"fetch{ "visit", predicate = "city_id == 1", sort = { "-day" } }[1].note"#)
                == (try sqlAnswer(path, "SELECT note FROM visit WHERE city_id = 1 ORDER BY day DESC LIMIT 1")))
    }

    /// Foreign keys naming the text key and the key of two columns are relationships,
    /// read both ways, and tested in predicates (in SQL).
    @Test func relationshipsReachAndLeaveTheKeyedTables() throws {
        let h = try Harness(context: try StoreOpener.open(try Self.schema()))
        #expect(h.string(#"city:first("name == 'Rome'").country.name"#) == "Italy")
        #expect(h.string(#"#country:first("iso == 'FR'").cities"#) == "2")
        #expect(h.string(#"count("city", "country.pop > 60")"#) == "2")
        #expect(h.string(#"photo:first("caption == 'forum'").visit.city.name"#) == "Rome")
        #expect(h.string(#"#visit:first("note == 'warm'").photos"#) == "2")
        #expect(h.string(#"#city:first("name == 'Paris'").visits"#) == "2")
        #expect(h.string(#"count("photo", "visit.note == 'warm'")"#) == "2")
    }

    /// New objects, changes and deletions are written to the file's table, as sqlite3
    /// then reads it; a batch change too. A new object without its key, and a change of a
    /// saved object's key, are refused saying what and where, and write nothing.
    @Test func insertsUpdatesAndDeletesAreWrittenToTheTable() throws {
        let path = try Self.schema()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            de = country:new{ iso = "DE", name = "Germany", pop = 83 }
            v = visit:new{ city_id = 2, day = "2025-05-05", note = "new" }
            country:first("iso == 'LU'").name = "Lëtzebuerg"
            visit:first("note == 'cold'").note = "freezing"
            country:first("iso == 'ES'"):delete()
            save()
            """#)
        #expect(
            try sqlAnswer(path, "SELECT iso || '=' || name || '=' || pop FROM country ORDER BY iso")
                == "DE=Germany=83,FR=France=68,IT=Italy=59,LU=Lëtzebuerg=1")
        #expect(
            try sqlAnswer(path, "SELECT city_id || day || coalesce(note, '-') FROM visit ORDER BY city_id, day")
                == "12024-01-01freezing,12024-06-01warm,22025-05-05new,32024-03-03-")
        // The new objects are known by their numbers, found again.
        #expect(h.string(#"country:get(fetch{ "country", predicate = "iso == 'DE'" }:ids()[1]) == de"#) == "true")
        h.run(#"de.pop = 84; save()"#)
        #expect(try sqlAnswer(path, "SELECT pop FROM country WHERE iso = 'DE'") == "84")
        #expect(h.string(#"country:updateall("pop < %@", { 10 }, { pop = 2 })"#) == "1")
        #expect(try sqlAnswer(path, "SELECT pop FROM country WHERE iso = 'LU'") == "2")
        #expect(h.string(#"visit:deleteall("city_id == 2", {})"#) == "1")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM visit WHERE city_id = 2") == "0")

        let missing = h.error(#"country:new{ name = "Nowhere" }"#)
        #expect(missing.contains("country needs a value for its key 'iso'"), "\(missing)")
        let moved = h.error(#"de.iso = "DD""#)
        #expect(moved.contains("country.iso is the key its row is known by and cannot be changed"), "\(moved)")
        #expect(moved.hasSuffix("the object is unchanged"), "\(moved)")
        #expect(h.string("de.iso .. tostring(haschanges())") == "DEfalse")
        let both = h.error(#"country:updateall("iso == 'DE'", {}, { iso = "DD" })"#)
        #expect(both.contains("country.iso is the key its row is known by"), "\(both)")
        #expect(try sqlAnswer(path, "SELECT group_concat(iso) FROM country") == "DE,FR,IT,LU")
    }

    /// A change another connection commits to a row read is a conflict at the save,
    /// as for a table with a rowid; observers hear the keyed table's saves; a fetch of it
    /// exports as sqlite3 reads it; a new visit without its two key columns is refused,
    /// naming the first.
    @Test func conflictsObserversAndExportWorkOnAKeyedTable() throws {
        let path = try Self.schema()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            heard = {}
            observe("country", function(ch) heard[#heard + 1] = #ch.inserted .. "/" .. #ch.updated .. "/" .. #ch.deleted end)
            it = country:first("iso == 'IT'")
            it.pop = 60
            """#)
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "UPDATE country SET pop = 61 WHERE iso = 'IT'") }
        try other.close()
        let conflict = h.error("save()")
        #expect(conflict.contains("country") && conflict.contains("pop"), "\(conflict)")
        h.run(#"save{ merge = "mine" }"#)
        #expect(try sqlAnswer(path, "SELECT pop FROM country WHERE iso = 'IT'") == "60")
        h.run(#"country:new{ iso = "PT", name = "Portugal", pop = 10 }; save()"#)
        #expect(h.string(#"table.concat(heard, ",")"#) == "0/1/0,1/0/0")
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-norowid-\(UUID().uuidString).csv").path
        h.run(#"export(fetch{ "country", sort = { "iso" } }, "\#(csv)")"#)
        let exported = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(exported.contains("PT,Portugal,10") && exported.contains("IT,Italy,60") && !exported.contains("_row"), "\(exported)")
        let missing = h.error(#"visit:new{ note = "x" }"#)
        #expect(missing.contains("visit needs a value for its key 'city_id'"), "\(missing)")
    }

    /// A row's number is its key's, the same in every session and on every machine (a
    /// fixed hash, not Swift's seeded one), as `sql()` computes it too; a row another
    /// connection added after the open, which this session never read, is found by its
    /// number (the rows it read are found by their key).
    @Test func numbersAreTheKeysAndFindRowsNeverRead() throws {
        let path = try Self.schema()
        let h = try Harness(context: try StoreOpener.open(path))
        let france = KeyNumber.number(of: [.text("FR")])
        #expect(france == 4_697_354_925_256_702_078, "\(france)")
        // The table's name comes first, to name it in a clash; it is not hashed.
        #expect(h.string(#"sql("SELECT quarry_key_number('country', 'FR') AS n")[1].n"#) == "\(france)")
        // The object ID names the row by its one text key; `get` takes the number too.
        #expect(h.string(#"fetch{ "country", predicate = "iso == 'FR'" }:ids()[1]"#) == "country/FR")
        #expect(h.string("country:get('country/\(france)').iso") == "FR")
        #expect(KeyNumber.number(of: [.integer(1), .text("2024-01-01")]) != KeyNumber.number(of: [.text("1"), .text("2024-01-01")]))
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "INSERT INTO country VALUES ('NZ', 'New Zealand', 5)") }
        try other.close()
        let zealand = KeyNumber.number(of: [.text("NZ")])
        #expect(h.string("country:get(\(zealand)).name .. ',' .. country:get(\(france)).name") == "New Zealand,France")
    }

    /// An import into a table without a rowid writes its rows to the table, each date in
    /// the format the column keeps (ISO text here), as sqlite3 then reads them.
    @Test func anImportWritesTheTableInItsColumnsFormats() throws {
        let path = try foreignFile(
            """
            CREATE TABLE event (code TEXT PRIMARY KEY, at DATETIME, n INTEGER) WITHOUT ROWID;
            INSERT INTO event VALUES ('a', '2024-01-01 10:00:00', 1);
            """)
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-norowid-\(UUID().uuidString).csv").path
        try "code,at,n\nb,2024-02-02 11:00:00,2\nc,2024-03-03 12:30:00,3\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"import("\#(csv)", { entity = "event" })"#) == "2")
        #expect(
            try sqlAnswer(path, "SELECT code || '=' || at || '=' || n FROM event ORDER BY code")
                == "a=2024-01-01 10:00:00=1,b=2024-02-02 11:00:00=2,c=2024-03-03 12:30:00=3")
        #expect(h.string(#"count("event", "at > %@", event:first("code == 'a'").at)"#) == "2")
    }

    /// Opening the file and reading its keyed tables changes none of its bytes: the view
    /// and the numbers are the connection's own.
    @Test func readingChangesNoByteOfTheFile() throws {
        let path = try Self.schema()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"count("country") + #fetch{ "visit", sort = { "day" } } + #country:first("iso == 'FR'").cities"#) == "9")
        h.context.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
