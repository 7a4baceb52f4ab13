import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Inserts into files Quarry did not create, whose key column is also an attribute (`id`,
/// a WITHOUT ROWID table's `k`) and whose links are attribute columns (`author_id`): what
/// save writes, and what the saved objects read, must be what the file then holds.
@Suite struct ForeignInsertTests {
    func schema() throws -> String {
        try foreignFile(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, author_id INTEGER REFERENCES author(id));
            CREATE TABLE wr (k INTEGER PRIMARY KEY, v TEXT, book_id INTEGER REFERENCES book(id)) WITHOUT ROWID;
            INSERT INTO author VALUES (3, 'ann');
            INSERT INTO book VALUES (1, 'a', 3), (2, 'b', NULL);
            INSERT INTO wr VALUES (10, 'x', 1);
            """)
    }

    /// A link to an object inserted in the same save is written to the file, whether the
    /// linking object is saved already or inserted too.
    @Test func aLinkToAnObjectInsertedInTheSameSaveIsWritten() throws {
        let path = try schema()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            local zed = author:new{ name = "zed" }
            book:get(2).author = zed
            local n = book:new{ title = "n", author = zed }
            wr:new{ k = 4, v = "y", book = n }
            save()
            """#)
        #expect(
            h.string(#"sql("SELECT author_id FROM book WHERE id = 2")[1].author_id == sql("SELECT id FROM author WHERE name = 'zed'")[1].id"#)
                == "true")
        #expect(h.string(#"count("book", "author.name == 'zed'")"#) == "2")
        #expect(h.string(#"sql("SELECT b.title FROM wr JOIN book b ON b.id = wr.book_id WHERE wr.k = 4")[1].title"#) == "n")
        // The objects read what the file holds, so a later change is no conflict.
        #expect(h.string(#"book:get(2).author_id == author:first("name == 'zed'").id"#) == "true")
        h.run(#"book:get(2).title = "b2"; save()"#)
        #expect(h.string(#"book:get(2).title"#) == "b2")
    }

    /// An inserted row's key column reads the key SQLite gave it, and the next save of
    /// that object is no conflict.
    @Test func anInsertedRowReadsItsKeyAndSavesAgain() throws {
        let path = try schema()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"b = book:new{ title = "n" }; save()"#)
        #expect(h.string(#"b.id == sql("SELECT id FROM book WHERE title = 'n'")[1].id"#) == "true")
        h.run(#"b.title = "m"; save()"#)
        #expect(h.string(#"count("book", "title == 'm'")"#) == "1")
    }

    /// A WITHOUT ROWID table sets no last rowid: an inserted row's object is the row with
    /// the key it was given, not the rowid of an earlier insert elsewhere.
    @Test func aWithoutRowidInsertIsTheRowWithItsKey() throws {
        let path = try schema()
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            book:new{ title = "sets a rowid" }
            a = wr:new{ k = 7, v = "p" }
            c = wr:new{ k = 99, v = "q" }
            save()
            """#)
        #expect(h.string(#"a:objectID() .. " " .. c:objectID()"#) == "wr/7 wr/99")
        #expect(h.string(#"rawequal(a, wr:get(7)) and rawequal(c, wr:get(99))"#) == "true")
        #expect(h.string(#"#fetch{ "wr", sort = { "k" } } .. " " .. fetch{ "wr", sort = { "-k" } }[1].v"#) == "3 q")
    }
}
