import Foundation
import GRDB
import QuarryLua
import QuarryShell
import QuarryStore
import Testing

@testable import QuarrySQLite

/// A table without a rowid keyed by text is an entity whose objects are known by a number
/// made from their key (`KeyNumber`). Opening the file reads none of its rows (it read
/// every key, to look for two with one number, at each open); two keys with one number
/// are found when a statement meets both, and named in one line.
@Suite struct WithoutRowidLazyKeysTests {
    /// The table's only page is made unreadable after the file is written: an open that
    /// read any of its rows would fail (or leave the table out with a note); reading it
    /// afterwards fails, which shows the page is the table's.
    @Test func openingReadsNoRowOfTheTable() throws {
        let path = try foreignFile(
            """
            CREATE TABLE country (iso TEXT PRIMARY KEY, name TEXT NOT NULL, pop INTEGER) WITHOUT ROWID;
            CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT, country_iso TEXT REFERENCES country (iso));
            INSERT INTO country VALUES ('FR', 'France', 68), ('IT', 'Italy', 59);
            INSERT INTO city VALUES (1, 'Paris', 'FR');
            """)
        let (root, size) = try DatabaseQueue(path: path).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'country'") ?? 0,
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            )
        }
        try #require(root > 1 && size > 0)
        let file = try #require(FileHandle(forWritingAtPath: path))
        try file.seek(toOffset: UInt64((root - 1) * size))
        try file.write(contentsOf: Data(repeating: 0xEE, count: size))
        try file.close()

        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.context.openingNotes.isEmpty, "\(h.context.openingNotes)")
        #expect(h.context.entities.contains { $0.name == "country" })
        #expect(h.string(#"city:first("id == 1").name"#) == "Paris")
        #expect(h.error(#"print(#fetch("country"))"#).contains("malformed"))
    }

    /// Every key of the table is given one number (`KeyNumber.testNumbers`): the file
    /// opens, one row is read as an object, and the statement that meets a second key
    /// with the number fails, naming the table and both keys; so does `get` by the number
    /// in a new session, which reads every row's number to find it.
    @Test func aClashIsFoundWhenTwoKeysMeet() throws {
        let table = "clash_" + UUID().uuidString.prefix(8).lowercased()
        KeyNumber.testNumbers.set(7, for: table)
        defer { KeyNumber.testNumbers.set(nil, for: table) }
        let path = try foreignFile(
            """
            CREATE TABLE \(table) (code TEXT, day INTEGER, note TEXT, PRIMARY KEY (code, day)) WITHOUT ROWID;
            INSERT INTO \(table) VALUES ('a', 1, 'one'), ('b', 2, 'two');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.context.openingNotes.isEmpty, "\(h.context.openingNotes)")
        #expect(h.string(#"count("\#(table)")"#) == "2")
        #expect(h.string(#"\#(table):first("code == 'a'").note"#) == "one")
        let clash = h.error(#"print(fetch{ "\#(table)", predicate = "code == 'b'" }[1].note)"#)
        #expect(clash.contains(table) && clash.contains("('a', 1)") && clash.contains("('b', 2)"), "\(clash)")
        #expect(!clash.contains("\n"), "\(clash)")

        let fresh = try Harness(context: try StoreOpener.open(path))
        let byNumber = fresh.error(#"print(\#(table):get(7).note)"#)
        #expect(byNumber.contains(table) && byNumber.contains("('a', 1)") && byNumber.contains("('b', 2)"), "\(byNumber)")
        // A table without the clash is untouched by it.
        #expect(fresh.string(#"#fetch("\#(table)", "code == 'a'")"#) == "1")
    }

    /// `quarry_key_number` called from `sql()` with a key the table does not hold leaves
    /// the connection as it was: the key it made up was kept, clashed with the real row's
    /// number, and every later fetch of the table failed (issue 81).
    @Test func aKeyMadeUpInSQLChangesNothingLater() throws {
        let table = "made_" + UUID().uuidString.prefix(8).lowercased()
        KeyNumber.testNumbers.set(7, for: table)
        defer { KeyNumber.testNumbers.set(nil, for: table) }
        let path = try foreignFile(
            """
            CREATE TABLE \(table) (code TEXT PRIMARY KEY, note TEXT) WITHOUT ROWID;
            INSERT INTO \(table) VALUES ('real', 'kept');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"sql("SELECT quarry_key_number('\#(table)', 'made up') AS n")[1].n"#) == "7")
        #expect(h.string(#"fetch("\#(table)")[1].note"#) == "kept")
        #expect(h.string(#"\#(table):get(7).note"#) == "kept")
    }
}
