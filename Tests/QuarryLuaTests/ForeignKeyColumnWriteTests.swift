import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A foreign key column of a file Quarry did not create (author_id) is both an attribute
/// and the relationship's link: writing the attribute moves the link, before saving (the
/// relationship, its inverse, predicates in memory and in results) and after.
@Suite struct ForeignKeyColumnWriteTests {
    @Test func writingTheColumnMovesTheLink() throws {
        let path = try foreignFile(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, author_id INTEGER REFERENCES author(id));
            INSERT INTO author VALUES (3, 'ann'), (7, 'bob');
            INSERT INTO book VALUES (1, 'a', 7), (2, 'b', 3), (5, 'c', NULL);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"b = book:get(5); b.author = author:get(7); b.author_id = 3; book:get(1).author_id = 3"#)
        let expected = "ann|true|3|0|3|1"
        let probe =
            #"b.author.name .. "|" .. tostring(predicate("author.name == 'ann'"):matches(b)) .. "|" .. #author:get(3).book_set .. "|" .. #author:get(7).book_set .. "|" .. #fetch("book", "author.name == 'ann'") .. "|" .. count("author", "book_set.@count >= 3")"#
        #expect(h.string(probe) == expected)
        h.run("save()")
        #expect(h.string(probe) == expected)
        #expect(h.string(#"sql("SELECT count(*) AS n FROM book WHERE author_id = 3")[1].n"#) == "3")
    }

    /// The key column is the object's identity: a saved object keeps it (setting it, or
    /// updateall setting it, is refused with nothing changed), a new one takes what it is
    /// given. Before, the row moved to the new key while the object kept its ID, and
    /// `get` of the new key gave a second object (found by review).
    @Test func aSavedObjectKeepsItsKey() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, n TEXT);
            INSERT INTO t VALUES (1, 'a'), (2, 'b');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.error("t:get(1).id = 10").contains("t.id is the key of t/1, which a saved object keeps"))
        #expect(h.error(#"t:updateall("n == 'a'", {}, { id = 10 })"#).contains("updateall: t.id is the key of t's objects"))
        h.run(#"t:get(1).id = 1; o = t:new{ id = 5, n = "x" }; o.id = 6; save()"#)
        #expect(h.string(#"t:get(6).n .. "|" .. tostring(t:get(6) == o) .. "|" .. count("t") .. "|" .. t:get(1).n"#) == "x|true|3|a")
    }

    /// A key that is also a foreign key is kept too when the link would move it through
    /// the relationship or its inverse (found by review).
    @Test func aKeyThatIsAForeignKeyIsNotMovedThroughItsRelationship() throws {
        let path = try foreignFile(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE prof (user_id INTEGER PRIMARY KEY REFERENCES author(id), bio TEXT);
            INSERT INTO author VALUES (1, 'A'), (2, 'B');
            INSERT INTO prof VALUES (1, 'bio1');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.error("prof:get(1).user = author:get(2)").contains("prof.user_id is the key of prof/1, which a saved object keeps"))
        #expect(h.error("author:get(2).prof_set:add(prof:get(1))").contains("prof.user_id is the key of prof/1"))
        h.run("prof:get(1).user = author:get(1); save()")
        #expect(h.string(#"prof:get(1).user.name .. "|" .. tostring(prof:get(2))"#) == "A|nil")
    }

    /// relate() links by value: changing the column changes the partner.
    @Test func writingARelatedColumnMovesTheLink() throws {
        let path = try foreignFile(
            """
            CREATE TABLE Airline (carrier TEXT, name TEXT);
            CREATE TABLE Flight (carrier TEXT, num INT);
            INSERT INTO Airline VALUES ('AA', 'American'), ('UA', 'United');
            INSERT INTO Flight VALUES ('AA', 1), ('AA', 2), ('UA', 3);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"relate("Flight", "carrier", "Airline", "carrier"); f = Flight:first("num == 1"); f.carrier = "UA""#)
        let probe =
            #"f.airline.name .. "|" .. #fetch{ "Airline", predicate = "flight_set.@count >= 2" } .. "|" .. fetch{ "Flight", sort = { "airline.name", "num" } }[2].num"#
        #expect(h.string(probe) == "United|1|1")
        h.run("save()")
        #expect(h.string(probe) == "United|1|1")
    }
}
