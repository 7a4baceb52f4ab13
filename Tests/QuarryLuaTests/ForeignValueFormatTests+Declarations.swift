import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A column whose values show no one format refuses writes until its format is declared.
extension ForeignValueFormatTests {
    /// The file's bytes and rows, to show a refused write wrote nothing.
    func snapshot(_ path: String) throws -> (Data, [[DatabaseValue]]) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY rowid").map { Array($0.databaseValues) } }
        return (bytes, rows)
    }

    /// A column with dates in two formats refuses a save and an updateall, naming the
    /// column and how to declare its format, with nothing written; once declared, both
    /// write in the declared format.
    @Test func aColumnInTwoFormatsIsRefusedUntilDeclared() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, d DATETIME, b BOOLEAN, note TEXT);
            INSERT INTO t VALUES (1, '2021-01-01 00:00:00', 'Y', 'a'), (2, 1609459200, 'y', 'b');
            """)
        let before = try snapshot(path)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("t:get(1).d = date('2022-06-01T12:00:00Z'); t:get(2).note = 'changed'")
        let message = h.error("save()")
        #expect(
            message.contains("t.d") && message.contains("'2021-01-01 00:00:00'") && message.contains("'unix'")
                && message.contains(#"format("t", "d", "#) && message.contains("nothing was written"), "\(message)")
        #expect(!message.contains("\n"))
        let batch = h.error(#"t:updateall("id > 0", {}, { d = date(0) })"#)
        #expect(batch.contains("t.d") && batch.contains("format("), "\(batch)")
        // Booleans in two spellings are refused the same way.
        h.run("t:get(1).b = false")
        let booleans = h.error(#"t:updateall("id > 0", {}, { b = true })"#)
        #expect(booleans.contains("t.b") && booleans.contains("format("), "\(booleans)")
        let mixed = h.string(#"select(2, format("t", "d"))"#) ?? ""
        #expect(h.string(#"format("t", "d")"#) == "nil" && mixed.contains("no one format") && mixed.contains("'2021-01-01 00:00:00'"), "\(mixed)")
        let after = try snapshot(path)
        #expect(after.0 == before.0)
        #expect(after.1 == before.1)
        // The pending changes are kept: declared, the same save goes through.
        // Answered by the layout's name (issue 85, item 7).
        #expect(h.string(#"format("t", "d", "iso-space")"#) == "iso-space")
        #expect(h.string(#"format("t", "b", "Y/N")"#) == "Y/N")
        h.run("save()")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        #expect(
            try queue.read { db in
                try String.fetchOne(db, sql: "SELECT d || '|' || b || '|' || (SELECT note FROM t WHERE id = 2) FROM t WHERE id = 1")
            } == "2022-06-01 12:00:00|N|changed")
        h.run(#"t:updateall("id == 2", {}, { d = date('2023-01-02T03:04:05Z'), b = true })"#)
        #expect(
            try queue.read { db in try String.fetchOne(db, sql: "SELECT typeof(d) || '|' || d || '|' || b FROM t WHERE id = 2") }
                == "text|2023-01-02 03:04:05|Y")
    }

    /// An empty date column says nothing of its format: a date is refused, nil is not;
    /// a declared format, by name or by an example, is used.
    @Test func anEmptyDateColumnNeedsADeclaredFormat() throws {
        let path = try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, d TIMESTAMP, note TEXT)")
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("t:new{ note = 'no date' }; save()")
        let before = try snapshot(path)
        h.run("t:new{ d = date(86400), note = 'dated' }")
        let message = h.error("save()")
        #expect(message.contains("t.d has no values") && message.contains(#"format("t", "d", "iso-space")"#), "\(message)")
        // Asked, it answers nil and why, as `io.open` does; only a write is refused.
        #expect(h.string(#"format("t", "d")"#) == "nil")
        #expect(h.string(#"select(2, format("t", "d"))"#)?.contains("t.d has no values") == true)
        let after = try snapshot(path)
        #expect(after.0 == before.0 && after.1 == before.1)
        #expect(h.string(#"format("t", "d", "2000-01-01T00:00:00.000Z")"#) == "2021-01-01T00:00:00.000Z")
        h.run("save()")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT d FROM t WHERE note = 'dated'") } == "1970-01-02T00:00:00.000Z")
        #expect(h.string(#"format("t", "d", "unix-ms")"#) == "unix-ms")
    }

    /// An empty column whose default is a literal date shows its format there: a new
    /// object is saved, its date written as the default is (seen on a real file: "t.at has
    /// no values to show the format it keeps", though its default showed the layout).
    @Test func anEmptyColumnsLiteralDefaultShowsItsFormat() throws {
        let path = try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, at TIMESTAMP NOT NULL DEFAULT '2000-01-01 00:00:00+00:00')")
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("t:new{}; t:new{ at = date(86400) }; save()")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        #expect(
            try queue.read { db in try String.fetchOne(db, sql: "SELECT group_concat(at, ',') FROM (SELECT at FROM t ORDER BY id)") }
                == "2000-01-01 00:00:00+00:00,1970-01-02 00:00:00+00:00")
    }

    /// A declaration names a format of the column's type, on a table of a file Quarry did
    /// not create; Quarry's own stores keep their encoding and say so with nil.
    @Test func aDeclarationIsCheckedAndOwnStoresHaveNone() throws {
        let path = try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, d DATETIME, b BOOLEAN, u UUID); CREATE VIEW v AS SELECT * FROM t")
        let h = try Harness(context: try StoreOpener.open(path))
        let wrongType = h.error(#"format("t", "d", "Y/N")"#)
        #expect(wrongType.contains("'Y/N' is no format for date column d") && wrongType.contains("iso-space"), "\(wrongType)")
        #expect(h.error(#"format("t", "b", "iso-t")"#).contains("no format for bool column b"))
        #expect(h.error(#"format("t", "nope", "unix")"#).contains("unknown key 'nope'"))
        // A view takes a format too: it governs reading (`ViewTimeFormatTests`).
        h.run(#"format("v", "d", "unix")"#)
        #expect(h.string(#"format("v", "d")"#) == "unix")
        // The key rows are known by stays a number (Anki's `revlog.id` holds milliseconds).
        let key = h.error(#"format("t", "id", "unix-ms")"#)
        #expect(key.contains("id is t's key") && !key.contains("\n"), "\(key)")
        // It says the number to compare with instead, which is that time in the unit.
        #expect(key.contains(#"2021-11-01 is (date("2021-11-01") - date(0)) * 1000"#), "\(key)")
        #expect(h.string(#"(date("2021-11-01") - date(0)) * 1000 == 1635724800000"#) == "true")
        let webkit = h.error(#"format("t", "id", "webkit")"#)
        #expect(webkit.contains(#"(date("2021-11-01") - date(-11644473600)) * 1000000"#), "\(webkit)")
        #expect(h.string(#"(date("2021-11-01") - date(-11644473600)) * 1000000 == 13280198400000000"#) == "true")
        #expect(h.string("format('t', 'id')") == "plain")
        // An empty BOOLEAN column takes SQLite's own 0 and 1; an empty UUID column is plain.
        #expect(h.string(#"format("t", "b")"#) == "0/1")
        #expect(h.string(#"format("t", "u")"#) == "plain")
        let own = try Harness()
        own.run(#"entity "Item" { when = "date?" }"#)
        #expect(own.string(#"format("Item", "when")"#) == "nil")
        #expect(own.error(#"format("Item", "when", "unix")"#).contains("store's own encoding"))
    }

    /// The hints that offer `format()` for a number column of times do not offer it for the
    /// key, which `format()` refuses: `id.year` on Anki's `revlog.id` (milliseconds) said
    /// to declare `format("revlog", "id", "unix-ms")`, and that was refused.
    @Test func hintsForTheKeySayWhatWorksNotFormat() throws {
        let path = try foreignFile(
            """
            CREATE TABLE revlog (id INTEGER PRIMARY KEY, cid INTEGER, ease INTEGER);
            INSERT INTO revlog VALUES (1632819446540, 1632817152478, 2), (1633021562642, 1632817492101, 3);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        let part = h.error(#"fetch{ "revlog", properties = { "id.year", "count(*)" }, group = { "id.year" } }"#)
        let compared = h.error(#"count("revlog", "id > %@", date("2021-10-01"))"#)
        for hint in [part, compared] {
            #expect(!hint.contains(#"format("revlog", "id""#), "\(hint)")
            #expect(hint.contains("id is revlog's key, which its rows are known by: it stays a number"), "\(hint)")
            #expect(hint.contains(#"2021-11-01 is (date("2021-11-01") - date(0)) * 1000"#), "\(hint)")
        }
        // Another column of times is still offered its format().
        #expect(h.error(#"count("revlog", "cid.year == 2021")"#).contains(#"format("revlog", "cid", "unix-ms")"#))
    }

    /// Text with a fraction only when there is one (as Python writes datetimes) is one
    /// layout: Quarry writes the most digits seen. Dates and times told apart, or a `Z`
    /// on some values only, are two.
    @Test func fractionsShownWhenPresentAreOneLayout() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, d DATETIME, e DATETIME, f DATETIME);
            INSERT INTO t VALUES (1, '2021-01-01 00:00:00', '2021-01-01', '2021-01-01T00:00:00Z'),
                                 (2, '2021-01-01 00:00:00.123456', '2021-01-01 10:00:00', '2021-01-01T00:00:00');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"format("t", "d")"#) == "2021-01-01 00:00:00.000000")
        h.run("t:get(1).d = date(1.5); save()")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT d FROM t WHERE id = 1") } == "1970-01-01 00:00:01.500000")
        #expect(
            (h.string(#"select(2, format("t", "e"))"#) ?? "").contains("no one format Quarry can write (found '2021-01-01', '2021-01-01 00:00:00')"))
        #expect((h.string(#"select(2, format("t", "f"))"#) ?? "").contains("no one format Quarry can write"))
        // A date with a zone and no time is read, but is no layout to write: refused.
        try queue.write { db in try db.execute(sql: "UPDATE t SET e = '2021-01-01+01:00'") }
        #expect((h.string(#"select(2, format("t", "e"))"#) ?? "").contains("no one format Quarry can write (found 'values that are no date')"))
    }

    /// Decimals: a column with numeric affinity (DECIMAL, NUMERIC, REAL) keeps numbers as
    /// SQLite's affinity makes them, as its owner's writes are: SQLite turns numeric text
    /// into numbers there, so such a column holds no text to keep.
    @Test func decimalsAreWrittenAsTheColumnsNumbers() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, price DECIMAL(10,2), weight REAL);
            INSERT INTO t VALUES (1, '1.50', 2), (2, 3, 2.5);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("t:get(1).price = 2.25; t:get(2).price = 4.0; t:get(1).weight = 7; save()")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let kinds = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT typeof(price) || ':' || price || ':' || typeof(weight) FROM t ORDER BY id")
        }
        #expect(kinds == ["real:2.25:real", "integer:4:real"])
    }
}
