import QuarryShell
import Testing

/// `languages:get(1)` on a table whose primary key is TEXT holding "1" answered nil without
/// a word, or another row (the number was read as an object's number). A number is the
/// key's value, compared as SQLite compares one (`code = 1` is `code = '1'`); an object
/// ID still finds its object.
@Suite struct TextKeyNumberGetTests {
    @Test func aNumberForATextKeyIsItsText() throws {
        let path = try foreignFile(
            """
            CREATE TABLE languages (code TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID;
            INSERT INTO languages VALUES ('1', 'one'), ('en', 'English'), ('2', 'two');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("languages:get(1).name") == "one")
        #expect(h.string("languages:get(2).name") == "two")
        #expect(h.string("languages:get('en').name") == "English")
        #expect(h.string("tostring(languages:get(3))") == "nil")
        #expect(try sqlAnswer(path, "SELECT name FROM languages WHERE code = 1") == "one")
    }

    /// With a rowid too, a number is the key's value, not the row's number (which found
    /// the row whose code is "2" for get(1) without a word); the object ID names the row.
    @Test func aNumberIsTheKeyWithARowidToo() throws {
        let path = try foreignFile(
            """
            CREATE TABLE languages (code TEXT PRIMARY KEY, name TEXT);
            INSERT INTO languages VALUES ('en', 'English'), ('2', 'two'), ('1', 'one');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("languages:get(1).name") == "one")
        #expect(h.string("languages:get(2).name") == "two")
        #expect(h.string("tostring(languages:get(3))") == "nil")
        #expect(h.string("languages:get('languages/1').name") == "English")
    }

    /// Keys of other affinities, as `WHERE id = 1` compares them: REAL and NUMERIC keys
    /// (their numbers were read as the row's, or as a number made from the key), and an
    /// untyped key holding both 1 and '1', whose 1 is the integer.
    @Test func keysOfOtherAffinitiesCompareAsSQLite() throws {
        let path = try foreignFile(
            """
            CREATE TABLE r(id REAL PRIMARY KEY, v TEXT); INSERT INTO r VALUES (2, 'two'), (1, 'one');
            CREATE TABLE n(id NUMERIC PRIMARY KEY, v TEXT) WITHOUT ROWID; INSERT INTO n VALUES (1, 'one');
            CREATE TABLE u(id PRIMARY KEY, v TEXT) WITHOUT ROWID; INSERT INTO u VALUES ('1', 'text'), (1, 'integer');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        // A fraction for a REAL key is that key (it was refused: no integer representation).
        h.run("r:new{ id = 2.5, v = 'two and a half' }; save()")
        #expect(h.string("r:get(2.5).v") == "two and a half")
        for (table, expected) in [("r", "one"), ("n", "one"), ("u", "integer")] {
            #expect(h.string("\(table):get(1.0).v") == expected, "\(table) 1.0")
            #expect(h.string("\(table):get(1).v") == expected, "\(table)")
            #expect(try sqlAnswer(path, "SELECT v FROM \(table) WHERE id = 1") == expected)
        }
    }

    /// A float for a TEXT key is its text as SQLite writes it (`k = 5.0` is `k = '5.0'`),
    /// and for an INT key the number: `get(5.0)` found the row whose key is '5'.
    @Test func aFloatIsTheKeyAsSQLiteComparesIt() throws {
        let path = try foreignFile(
            """
            CREATE TABLE tt(k TEXT PRIMARY KEY, v TEXT); INSERT INTO tt VALUES ('5', 'text5'), ('5.0', 't50'), ('2.5', 't25');
            CREATE TABLE ti(k INT PRIMARY KEY, v TEXT); INSERT INTO ti VALUES (2.5, 'i25'), (3, 'i3');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("tt:get(5.0).v") == (try sqlAnswer(path, "SELECT v FROM tt WHERE k = 5.0")))
        #expect(h.string("tt:get(2.5).v") == "t25")
        #expect(h.string("tt:get(5).v") == "text5")
        #expect(h.string("ti:get(2.5).v") == (try sqlAnswer(path, "SELECT v FROM ti WHERE k = 2.5")))
        #expect(h.string("ti:get(3.0).v") == "i3")
    }
}
