import Foundation
import GRDB
import QuarryShell
import Testing

/// SQLite's quirk: `id INTEGER PRIMARY KEY DESC` is no alias of the rowid but an ordinary
/// column, which holds NULL and text and which SQLite leaves NULL in a new row that does
/// not name it. Quarry took it for the rowid: a saved new object's row had a NULL `id`
/// while the object showed a number, without a word. Its rows are objects known by their
/// rowid, every one of them, and a new object must be given its key. `PRIMARY KEY(id
/// DESC)`, the table's constraint, is an alias: a new object takes the next key.
@Suite struct IntegerKeyDescTests {
    static func rows(_ path: String, _ sql: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in String.fromDatabaseValue(value) ?? (value.isNull ? "NULL" : "\(value)") }.joined(separator: "|")
            }
        }
    }

    @Test func aDescKeyColumnIsNoAliasOfTheRowid() throws {
        let path = try foreignFile(
            """
            CREATE TABLE a(id INTEGER PRIMARY KEY DESC, v TEXT);
            INSERT INTO a(id, v) VALUES (3, 'three'), (1, 'one');
            INSERT INTO a(v) VALUES ('no key');
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        // Every row is an object, the one whose key is NULL too.
        #expect(h.string("count('a')") == "3")
        #expect(h.string("a:first('id == nil').v") == "no key")
        // get(n) finds the row whose key is n, as the person reads the column; the row
        // numbered 3 by SQLite is the one whose key is NULL.
        #expect(h.string("a:get(3).v") == "three")
        #expect(h.string("a:get(2)") == "nil")
        // A new object without its key is refused at once, naming it; nothing is written.
        #expect(h.error("a:new{ v = 'x' }").contains("needs a value for its key 'id'"))
        h.run("s = a:new{ id = 7, v = 'seven' }; save()")
        #expect(h.string("s.id") == "7")
        #expect(try Self.rows(path, "SELECT id, v FROM a ORDER BY rowid") == ["3|three", "1|one", "NULL|no key", "7|seven"])
        // The row whose key is NULL is edited by its rowid.
        h.run("a:first('id == nil').v = 'edited'; save()")
        #expect(try Self.rows(path, "SELECT v FROM a WHERE id IS NULL") == ["edited"])
    }

    /// `id INT PRIMARY KEY` (INT, not INTEGER) is no alias either, as many course files
    /// and MySQL dumps write it: `get(n)` reads the row whose `id` is n, not the row
    /// numbered n (here the rows were written in another order).
    @Test func getReadsAnIntKeyThatIsNoAlias() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t(id INT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (20, 'twenty'), (2, 'two'), (1, 'one');
            CREATE TABLE w(id INT PRIMARY KEY, v TEXT) WITHOUT ROWID; INSERT INTO w VALUES (20, 'twenty'), (2, 'two');
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("t:get(2).v") == "two")
        #expect(h.string("t:get(20).v") == "twenty")
        #expect(h.string("t:get(3)") == "nil")
        #expect(h.string("w:get(20).v") == "twenty")
        // An object ID keeps its meaning: the object numbered 2.
        #expect(h.string("t:get(t:get(2):objectID()).v") == "two")
    }

    @Test func aTableConstraintDescKeyIsAnAlias() throws {
        let path = try foreignFile("CREATE TABLE c(id INTEGER, v TEXT, PRIMARY KEY(id DESC)); INSERT INTO c(id, v) VALUES (5, 'five');")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("s = c:new{ v = 'six' }; save()")
        #expect(h.string("s.id") == "6")
        #expect(try Self.rows(path, "SELECT rowid, id, v FROM c ORDER BY id") == ["5|5|five", "6|6|six"])
    }
}

/// A WITHOUT ROWID table's INTEGER key holds text, blobs and fractions too; such rows
/// can be no objects and every request leaves them out, so counts and fetches agree with
/// each other. They were left out without a word: the open now says how many, and the
/// sql() that reads them gives them all.
@Suite struct WithoutRowidOtherKeysNoteTests {
    @Test func rowsKeyedByOtherValuesAreCountedAtOpen() throws {
        let path = try foreignFile(
            """
            CREATE TABLE "w k"(id INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID;
            INSERT INTO "w k" VALUES (1, 'one'), ('2', 'two'), ('abc', 'text'), (x'01', 'blob'), (2.5, 'real');
            CREATE TABLE fine(id INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID; INSERT INTO fine VALUES (1, 'one');
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let context = try StoreOpener.open(path)
        let notes = context.openingNotes.filter { $0.contains("holds no integer") }
        #expect(
            notes == [
                #"w k: 3 rows whose id holds no integer are left out of its objects (its key is INTEGER, WITHOUT ROWID); sql([[SELECT * FROM "w k" WHERE typeof(id) <> 'integer']]) reads them"#
            ])
        let h = try Harness(context: context)
        #expect(h.string("count('w k')") == "2")
        #expect(h.string(#"#sql([[SELECT * FROM "w k" WHERE typeof(id) <> 'integer']])"#) == "3")
    }
}

/// A table whose columns are named rowid, oid and _rowid_ and which declares no primary
/// key has nothing its rows are known by: it was left out without a word (no entity, no
/// note, status 0). The open now says so, with the sql() that still reads it.
@Suite struct RowidNamesTakenTests {
    @Test func aTableWithNothingToKnowItsRowsByIsNoted() throws {
        let path = try foreignFile("CREATE TABLE ro(oid INTEGER, _rowid_ INTEGER, rowid INTEGER, v TEXT); INSERT INTO ro VALUES (1, 2, 3, 'x');")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let context = try StoreOpener.open(path)
        #expect(
            context.openingNotes.contains(
                "ro is left out: its columns take all three of SQLite's names for the rowid (rowid, oid, _rowid_) and it declares no primary key, so its rows have nothing to be known by; sql() reads it"
            ), "\(context.openingNotes)")
        let h = try Harness(context: context)
        #expect(h.string("#sql('SELECT * FROM ro')") == "1")
    }
}

/// The rows a WITHOUT ROWID table leaves out of its objects (its INTEGER key holding text or
/// a fraction) were still reached through key paths: `count("c", "w != nil")` counted links
/// to them while each such object's `w` is nil, and a parent's `@count` counted such
/// members while its list left them out. SQL and memory now agree.
@Suite struct LeftOutRowsThroughKeyPathsTests {
    @Test func keyPathsReachObjectsOnly() throws {
        let path = try foreignFile(
            """
            CREATE TABLE w(id INTEGER PRIMARY KEY, v TEXT, p_id INTEGER REFERENCES p(id)) WITHOUT ROWID;
            CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO p VALUES (1, 'one');
            INSERT INTO w VALUES (1, 'a', 1), ('x', 'c', 1), (2.5, 'e', 1), (3, 'f', NULL);
            CREATE TABLE c(k INTEGER PRIMARY KEY, w_id REFERENCES w(id));
            INSERT INTO c VALUES (1, 1), (2, 'x'), (3, 2.5), (4, NULL), (5, 3);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        for (predicate, expected) in [("w != nil", "2"), ("w == nil", "3"), ("w.v == 'c'", "0"), ("w.v == 'a'", "1")] {
            #expect(h.string(#"count("c", "\#(predicate)")"#) == expected, "\(predicate)")
            let inMemory = h.string(
                #"(function() local p, k = predicate("\#(predicate)"), 0; for _, o in ipairs(fetch("c")) do if p:matches(o) then k = k + 1 end end; return k end)()"#
            )
            #expect(inMemory == expected, "\(predicate): in memory")
        }
        #expect(h.string("#fetch{ 'c', sort = 'w.v' }") == "5")
        #expect(h.string("#p:get(1).ws") == "1")
        #expect(h.string("count('p', 'ws.@count == 1')") == "1")
        #expect(h.string("count('p', 'ANY ws.v == \"c\"')") == "0")
    }
}

/// A column declared with no type (`qty`, as hand-written SQLite tables have) keeps what
/// it is given: its integers read back as integers, yet writing one was refused ("expects
/// string"), and the text accepted instead made `qty == 6` false in SQL as in sqlite3.
@Suite struct UntypedColumnNumberWriteTests {
    @Test func aNumberWrittenToAColumnOfNoTypeIsKeptAsANumber() throws {
        let path = try foreignFile("CREATE TABLE s(id INTEGER PRIMARY KEY, qty); INSERT INTO s VALUES (1, 5), (2, 7), (3, 'x');")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("s:get(1).qty = 6; s:get(2).qty = 2.5; s:new{ qty = 8 }; save()")
        #expect(try sqlAnswer(path, "SELECT typeof(qty) || ':' || qty FROM s ORDER BY id") == "integer:6,real:2.5,text:x,integer:8")
        #expect(h.string("count('s', 'qty == 6')") == "1")
        #expect(h.string("s:get(1).qty + 1") == "7")
        h.run("s:get(3).qty = 'y'; save()")
        #expect(try sqlAnswer(path, "SELECT qty FROM s WHERE id = 3") == "y")
    }
}
