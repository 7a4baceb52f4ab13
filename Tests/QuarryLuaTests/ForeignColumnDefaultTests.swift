import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A new object in a file Quarry did not create starts with each column's DEFAULT, as a
/// Core Data object starts with its model's defaults: Northwind's `Products:new{...}`
/// without `Discontinued` (NOT NULL DEFAULT '0') was refused at save, because Quarry
/// writes every column and so wrote NULL. The saved row is the one SQLite makes when it
/// fills the defaults itself.
@Suite struct ForeignColumnDefaultTests {
    static let schema = """
        CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT, flag TEXT NOT NULL DEFAULT '0', qty INTEGER NOT NULL DEFAULT 1,
          price REAL DEFAULT 0, neg INTEGER DEFAULT -5, note TEXT DEFAULT 'it''s', big INTEGER DEFAULT 1e3,
          made TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, day TEXT DEFAULT CURRENT_DATE, odd INTEGER DEFAULT (abs(-3)),
          yes BOOLEAN DEFAULT TRUE);
        """

    @Test func aNewObjectStartsWithTheColumnsDefaultsAndSavesTheRowSQLiteWouldMake() throws {
        let path = try foreignFile(Self.schema)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"x = p:new{ name = "quarry" }"#)
        #expect(h.string("x.flag") == "0")
        #expect(h.string("x.qty") == "1")
        #expect(h.string("x.neg") == "-5")
        #expect(h.string("x.note") == "it's")
        #expect(h.string("x.big") == "1000")
        #expect(h.string("x.yes") == "true")
        // A clock is read when the object is made; an expression is not evaluated (nil).
        #expect(h.string("#x.made") == "19", "\(h.string("x.made") ?? "nil")")
        #expect(h.string("x.odd") == "nil")
        h.run("save()")
        let queue = try DatabaseQueue(path: path)
        // An expression (`odd`) is left for SQLite to fill, as sqlite3 does (issue 60, item 7).
        try queue.write { db in try db.execute(sql: "INSERT INTO p (name) VALUES ('sqlite')") }
        let rows = try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT flag, typeof(flag), qty, price, neg, note, big, yes, odd, length(made), day = CURRENT_DATE FROM p ORDER BY id"
            )
            .map { Array($0.databaseValues.map(\.description)) }
        }
        #expect(rows.count == 2 && rows[0] == rows[1], "\(rows)")
        #expect(h.string("x.odd") == "3")
    }

    /// A NOT NULL column with a constant default is a required attribute (found by the
    /// first-try survey: it was optional, so `o.n = nil` failed only at the save, in
    /// SQLite's words). One whose default the engine computes stays optional: a new
    /// object has no value for it until the save.
    @Test func aNotNullColumnWithAConstantDefaultIsRequired() throws {
        let path = try foreignFile(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0, m INTEGER DEFAULT 3, e TEXT NOT NULL DEFAULT (lower('X')));"
        )
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("o = t:new{}")
        #expect(h.error("o.n = nil").contains("t.n expects int64 (not optional), got nil"))
        h.run("o.m = nil")
        #expect(h.string("o.n") == "0" && h.string("o.e") == "nil")
        h.run("save()")
        #expect(h.string("o.e") == "x")
        let row = try DatabaseQueue(path: path).read { db in try Row.fetchOne(db, sql: "SELECT n, m, e FROM t") }
        #expect(row.map { Array($0.databaseValues.map(\.description)) } == ["0", "NULL", "\"x\""])
    }

    /// A default in parentheses may call any function: the file's text never makes Quarry call one.
    @Test func aDefaultThatCallsAFunctionIsNeverRun() throws {
        let path = try foreignFile(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB DEFAULT (quarry_cd_external_write(zeroblob(200000), NULL)), w INTEGER DEFAULT (random()));"
        )
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"x = t:new{}"#)
        #expect(h.string("x.v") == "nil" && h.string("x.w") == "nil")
        let support = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        #expect(
            !FileManager.default.fileExists(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(".\(support)_SUPPORT").path))
        // Nor can the file's own trigger make Quarry write or remove an external data file.
        let trap = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER);
            CREATE TRIGGER w AFTER INSERT ON t BEGIN SELECT quarry_cd_external_write(zeroblob(200000), NULL); END;
            """)
        defer { try? FileManager.default.removeItem(atPath: trap) }
        let g = try Harness(context: try StoreOpener.open(trap))
        let message = g.error("t:new{ v = 1 }; save()")
        #expect(message.contains("writes only a Core Data store's external data"), "\(message)")
    }
}
