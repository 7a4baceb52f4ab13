import QuarryShell
import Testing

/// `languages:get(1)` on a table whose primary key is TEXT holding "1" answered nil without
/// a word (the number was read as an object's number). A number that numbers no object,
/// for a TEXT key, is then its text, as SQLite compares one (`code = 1` is `code = '1'`);
/// an object's number still finds its object (`WithoutRowidTableTests`).
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

    /// With a rowid, a number is the row's object number, as its ID shows it.
    @Test func aNumberIsFirstTheObjectsNumber() throws {
        let path = try foreignFile(
            """
            CREATE TABLE languages (code TEXT PRIMARY KEY, name TEXT);
            INSERT INTO languages VALUES ('en', 'English'), ('1', 'one');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("languages:get(1).name") == "English")
        #expect(h.string("tostring(languages:get(1))") == #"languages/1 {code = "en", name = "English"}"#)
    }
}
