import Foundation
import QuarryShell
import QuarryStore
import Testing

/// Calibre's `books_authors_link(id INTEGER PRIMARY KEY, book, author, UNIQUE(book,
/// author))` has no foreign keys; declared with `REFERENCES` it would be a join table. The
/// `relate()` that names its second end gives the many-to-many the declared keys give
/// (`books.authors`, `authors.books`), its links read from and written to the table, and
/// the sidecar's replay at the next open gives it again.
@Suite struct RelatedJoinTableTests {
    static let schema = """
        CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT 'Unknown');
        CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE books_authors_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL, author INTEGER NOT NULL, UNIQUE(book, author));
        INSERT INTO books VALUES (1, 'Dune'), (2, 'Good Omens');
        INSERT INTO authors VALUES (1, 'Herbert'), (2, 'Pratchett'), (3, 'Gaiman');
        INSERT INTO books_authors_link VALUES (1, 1, 1), (2, 2, 2), (3, 2, 3);
        """

    @Test func relatingBothEndsOfALinkTableGivesTheManyToMany() throws {
        let path = try foreignFile(Self.schema)
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".quarry")
        }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"relate("books_authors_link", "book", "books", "id")"#)
        // One end alone is a to-one with its inverse, no pair yet.
        #expect(try h.context.entity(named: "books").relationship(named: "authors") == nil)
        h.run(#"relate("books_authors_link", "author", "authors", "id")"#)
        let books = try h.context.entity(named: "books")
        #expect(books.relationship(named: "authors")?.isToMany == true)
        #expect(try h.context.entity(named: "authors").relationship(named: "books")?.isToMany == true)
        #expect(h.string("#books:get(2).authors .. #authors:get(1).books") == "21")
        #expect(h.string(#"count("books", "ANY authors.name == 'Gaiman'")"#) == "1")
        h.run(#"local p = predicate("ANY authors.name == 'Gaiman'"); assert(p:matches(books:get(2)) and not p:matches(books:get(1)))"#)
        // A link added through the pair is a row of the table.
        h.run("books:get(1).authors:add(authors:get(3)); save()")
        #expect(try sqlAnswer(path, "SELECT author FROM books_authors_link WHERE book = 1 ORDER BY author") == "1,3")
        // The sidecar's relate() calls, replayed at the next open, give the pair again.
        let again = try Harness(context: try StoreOpener.open(path))
        #expect(again.string("#books:get(1).authors .. #authors:get(3).books") == "22")
        #expect(again.string(#"count("authors", "ANY books.title == 'Dune'")"#) == "2")
    }
}
