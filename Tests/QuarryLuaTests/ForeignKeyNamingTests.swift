import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Files Quarry did not create, shaped the way real schemas are: several foreign keys to
/// one table, a column named like the relationship its foreign key would get.
@Suite struct ForeignKeyNamingTests {
    @Test func everyForeignKeyGetsAUniquePredictableName() throws {
        let path = try foreignFile(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, author_id INTEGER REFERENCES author(id), editor_id INTEGER REFERENCES author(id));
            CREATE TABLE note (id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES book(id), book TEXT);
            INSERT INTO author VALUES (7, 'ann'), (8, 'bob');
            INSERT INTO book VALUES (1, 'x', 7, 8), (2, 'y', 8, 7), (3, 'z', 7, 7);
            INSERT INTO note VALUES (1, 1, 'a note');
            """)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        // The column minus _id; the inverses' names before issue 45 (<source>_set, then
        // <source>_<relationship>_set) still read (now `books`, `books_as_editor`).
        #expect(h.string(#"book:get("book/1").author.name .. book:get("book/1").editor.name"#) == "annbob")
        #expect(h.string(#"#author:get("author/7").book_set .. "," .. #author:get("author/7").book_editor_set"#) == "2,2")
        #expect(h.string(#"#author:get("author/7").books .. "," .. #author:get("author/7").books_as_editor"#) == "2,2")
        // A column named like the relationship keeps its name; the relationship becomes book_rel.
        #expect(h.string(#"note:first().book .. "|" .. note:first().book_rel.title"#) == "a note|x")
        // A key path to the destination's key column compares its value, in SQL and in memory.
        #expect(h.string(#"count("book", "author.id == 7")"#) == "2")
        #expect(h.string(#"count("book", "editor.id == author.id")"#) == "1")
        h.run(#"local p = predicate("author.id == 7"); for _, b in ipairs(fetch("book")) do assert(p:matches(b) == (b.author_id == 7)) end"#)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "opening changed the file")
    }

    /// A WITHOUT ROWID table's INTEGER PRIMARY KEY is no rowid alias and takes text: rows
    /// whose key is not an integer are no objects, and count, fetch and get agree on that.
    @Test func aWithoutRowidTableWithTextInItsIntegerKeyAnswersConsistently() throws {
        let path = try foreignFile(
            """
            CREATE TABLE wr (id INTEGER PRIMARY KEY, t TEXT) WITHOUT ROWID;
            INSERT INTO wr VALUES (1, 'a'), ('x', 'b'), (3, 'c');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"count("wr") .. "," .. #fetch("wr") .. "," .. #fetch{ "wr", sort = "-t" }"#) == "2,2,2")
        #expect(h.string(#"fetch("wr")[2].t .. wr:get(3).t"#) == "cc")
        #expect(h.string(#"count("wr", "t != 'a'")"#) == "1")
    }

    /// relate() takes both names: the relationship's (fifth) and its inverse's (sixth).
    @Test func relateTakesBothNames() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "P" { b = "string" }; entity "Q" { b = "string", c = "int64" }
            P:new{ b = "x" }; Q:new{ b = "x", c = 2 }; save()
            assert(relate("P", "b", "Q", "b", "target", "sources") == "target")
            assert(#Q:first().sources == 1 and P:first().target.c == 2)
            """#)
        #expect(h.error(#"relate("P", "b", "Q", "b", "again", "c")"#).contains("'c' is taken"))
    }

    /// An object kept from before the model changed answers by the new model: the
    /// relationship `relate` added, an attribute a migration added (with the default it
    /// filled the rows with), none it dropped; its unsaved change survives `relate`. It
    /// stays the one object of its row.
    @Test func objectsKeptAcrossAModelChangeTakeTheNewModel() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "P" { b = "string", n = "int64" }; entity "Q" { b = "string", c = "int64" }
            kept = P:new{ b = "x", n = 1 }; Q:new{ b = "x", c = 2 }; save()
            kept.n = 5
            relate("P", "b", "Q", "b", "target", "sources")
            assert(rawequal(kept, P:first()) and kept.target.c == 2 and kept.n == 5)
            save()
            entity "P" { b = "string", m = { "int64", default = 7 } }
            assert(rawequal(kept, P:first()) and kept.m == 7 and kept.b == "x")
            assert(not pcall(function() return kept.n end))
            """#)
    }
}
