import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Bugs `ForeignSchemaPropertyTests` and trying sample files by hand found in reading and
/// writing files Quarry did not create, each in its smallest form.
@Suite struct ForeignSchemaRegressionTests {
    /// A link to a parent known by its TEXT key is to the object: a new parent whose key
    /// changes after it was linked writes its last key into its child (the column was left
    /// NULL).
    @Test func aLinkToAParentGivenItsTextKeyAfterwardsWritesThatKey() throws {
        let path = try foreignFile(
            """
            CREATE TABLE Customer (Code TEXT PRIMARY KEY, label TEXT);
            CREATE TABLE Orders (id INTEGER PRIMARY KEY, label TEXT, CustomerCode TEXT REFERENCES Customer (Code));
            INSERT INTO Customer VALUES ('A', 'a');
            INSERT INTO Orders VALUES (1, 'o1', 'A');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            -- A key nothing fills is given at :new; changed after the link, the new one is written.
            local c = Customer:new{ label = "c", Code = "X" }
            local o = Orders:new{ label = "o2" }
            o.customerCodeCustomer = c
            c.Code = "C"
            -- A saved order moved to it too, and one moved and then given a column of its own.
            Orders:get(1).customerCodeCustomer = c
            save()
            """#)
        #expect(try sqlAnswer(path, "SELECT group_concat(label || '@' || ifnull(CustomerCode, 'nil')) FROM Orders") == "o1@C,o2@C")
        h.run(
            #"""
            local o = Orders:get(1)
            o.customerCodeCustomer = Customer:first("Code == 'A'")
            o.CustomerCode = "C"
            save()
            """#)
        #expect(try sqlAnswer(path, "SELECT CustomerCode FROM Orders WHERE id = 1") == "C")
    }

    /// `REFERENCES parent` with no column names the parent's primary key: for a TEXT key
    /// that is the key's value, not the rowid (members were matched by rowid, so none
    /// were found, inserts linked by rowid failed the file's key check, and deletes went
    /// by the wrong children).
    @Test func aForeignKeyNamingNoColumnMatchesTheParentsTextKey() throws {
        let path = try foreignFile(
            """
            CREATE TABLE book (Code TEXT PRIMARY KEY, label TEXT, ManagerID TEXT REFERENCES book ON DELETE SET NULL);
            CREATE TABLE note (id INTEGER PRIMARY KEY, label TEXT, book_id TEXT NOT NULL REFERENCES book ON DELETE CASCADE);
            INSERT INTO book VALUES ('x', 'a', NULL), ('y', 'b', 'x'), ('z', 'c', 'x');
            INSERT INTO note VALUES (1, 'n1', 'y'), (2, 'n2', 'y'), (3, 'n3', 'z');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"#book:first("Code == 'x'").books .. "," .. #book:first("Code == 'y'").notes .. "," .. note:get(3).book.Code"#) == "2,2,z")
        #expect(h.string(#"count("book", "notes.@count == 2") .. "," .. count("book", "ANY books.label > label")"#) == "1,1")
        h.run(
            #"""
            local n = note:new{ label = "n4" }
            local b = book:new{ Code = "w", label = "d" }
            n.book = b
            b.ManagerID = nil
            book:first("Code == 'y'"):delete()
            save()
            """#)
        #expect(try sqlAnswer(path, "SELECT group_concat(label || '@' || book_id) FROM note") == "n3@z,n4@w")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM pragma_foreign_key_check") == "0")
    }

    /// Chinook's shape: a join table whose keys are NO ACTION (or RESTRICT). A track
    /// deleted takes its links with it, as a many-to-many's do in Core Data (the join rows
    /// go first, as plain SQL must take them); so does one whose links were removed
    /// through the pair first, from either side, in one save.
    @Test func aJoinRowsLinksGoWithEitherEnd() throws {
        let path = try foreignFile(
            """
            CREATE TABLE Playlist (PlaylistId INTEGER PRIMARY KEY, Name TEXT);
            CREATE TABLE Track (TrackId INTEGER PRIMARY KEY, Name TEXT);
            CREATE TABLE PlaylistTrack (PlaylistId INTEGER NOT NULL REFERENCES Playlist (PlaylistId) ON DELETE NO ACTION,
              TrackId INTEGER NOT NULL REFERENCES Track (TrackId) ON DELETE RESTRICT, PRIMARY KEY (PlaylistId, TrackId));
            INSERT INTO Playlist VALUES (1, 'Music'), (2, 'Movies'), (3, 'Empty');
            INSERT INTO Track VALUES (7, 'a'), (8, 'b'), (9, 'c');
            INSERT INTO PlaylistTrack VALUES (1, 7), (2, 7), (1, 8), (3, 9);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            local t = Track:get(7)
            Playlist:get(1).tracks:remove(t)
            t:delete()
            -- And from the other side: a playlist emptied, then deleted.
            local p = Playlist:get(1)
            for _, x in ipairs(p.tracks) do x.playlists:remove(p) end
            p:delete()
            save()
            """#)
        #expect(try sqlAnswer(path, "SELECT group_concat(TrackId) FROM Track") == "8,9")
        #expect(try sqlAnswer(path, "SELECT group_concat(PlaylistId) FROM Playlist") == "2,3")
        #expect(try sqlAnswer(path, "SELECT group_concat(PlaylistId || '-' || TrackId) FROM PlaylistTrack") == "3-9")
        h.run("Playlist:get(3):delete(); save()")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM PlaylistTrack") == "0")
        #expect(h.string("#Track:get(9).playlists") == "0")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM pragma_foreign_key_check") == "0")
    }

    /// A table joining an entity to itself links one way; an album deleted takes its links
    /// both ways (the rows naming it as either end), though they are NO ACTION keys.
    @Test func aSelfJoinsLinksGoBothWaysWithTheDeletedEnd() throws {
        let path = try foreignFile(
            """
            CREATE TABLE album (Code TEXT PRIMARY KEY, label TEXT);
            CREATE TABLE [album links] (album_id TEXT NOT NULL REFERENCES album (Code), OtherAlbumId TEXT NOT NULL REFERENCES album (Code));
            INSERT INTO album VALUES ('k89', 'a'), ('x-26', 'b'), ('q', 'c');
            INSERT INTO [album links] VALUES ('x-26', 'k89'), ('k89', 'x-26'), ('q', 'x-26');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"album:first("Code == 'k89'"):delete(); save()"#)
        #expect(try sqlAnswer(path, "SELECT group_concat(album_id || '>' || OtherAlbumId) FROM [album links]") == "q>x-26")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM pragma_foreign_key_check") == "0")
    }

    /// A child whose other key to the same parent cascades goes with the parent in the
    /// same delete, so its NO ACTION key to it does not deny, as SQLite takes it. (The
    /// child has its own key and two keys to one table: a join table, whose links go with
    /// either end besides.)
    @Test func aChildCascadedByAnotherKeyDoesNotDeny() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE c (id INTEGER PRIMARY KEY, a INTEGER REFERENCES p (id) ON DELETE NO ACTION, b INTEGER REFERENCES p (id) ON DELETE CASCADE);
            INSERT INTO p VALUES (1, 'x'), (2, 'y');
            INSERT INTO c VALUES (1, 1, 1), (2, 1, 2);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run("p:get(1):delete(); save()")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM p") + "," + sqlAnswer(path, "SELECT count(*) FROM c") == "1,0")
        h.run("p:get(2):delete(); save()")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM p") + "," + sqlAnswer(path, "SELECT count(*) FROM c") == "0,0")
    }
}
