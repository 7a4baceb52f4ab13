import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A table of a file Quarry did not create made only of two foreign keys (plus its own key
/// or a position) is a many-to-many pair between the tables it joins (issue 29), kept as
/// the join table's rows; the table stays an entity.
@Suite struct ForeignJoinTableTests {
    @Test func playlistTrackJoinsPlaylistsAndTracks() throws {
        let path = try musicStoreFile()
        let schema = try schemaRows(path)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"#Playlist:get(1).tracks .. "," .. #Track:get(3).playlists .. "," .. #Track:get(6).playlists"#) == "4,2,0")
        // In SQL, and in memory, as plain SQL counts.
        let music = try sqlAnswer(
            path, "SELECT count(DISTINCT TrackId) FROM PlaylistTrack JOIN Playlist USING (PlaylistId) WHERE Playlist.Name = 'Music'")
        #expect(h.string(#"count("Track", "ANY playlists.Name == 'Music'")"#) == music)
        h.run(
            #"""
            local p = predicate("ANY playlists.Name == 'Music'"); local n = 0
            for _, t in ipairs(fetch("Track")) do if p:matches(t) then n = n + 1 end end
            __inMemory = n
            """#)
        #expect(h.string("__inMemory") == music)
        #expect(h.string(#"count("Playlist", "tracks.@count >= 2") .. "," .. count("Track", "playlists.@count == 0")"#) == "2,1")
        #expect(
            h.string(#"count("Track", "NONE playlists.Name BEGINSWITH 'Heavy'") .. "," .. count("Playlist", "ANY tracks.genre.Name == 'Metal'")"#)
                == "4,1")
        // The table is still an entity, with its own to-one relationships.
        #expect(h.string(#"count("PlaylistTrack") .. "," .. PlaylistTrack:first().playlist.Name"#) == "6,Music")
        // :add and :remove are the join table's rows once saved.
        h.run(
            #"""
            Playlist:get(2).tracks:add(Track:get(6)); Track:get(4).playlists:add(Playlist:get(1))
            Playlist:get(1).tracks:remove(Track:get(1))
            assert(#Track:get(6).playlists == 1 and #Playlist:get(1).tracks == 4)
            save()
            """#)
        #expect(
            try sqlAnswer(path, "SELECT PlaylistId || '-' || TrackId FROM PlaylistTrack ORDER BY PlaylistId, TrackId")
                == "1-2,1-3,1-4,1-5,2-6,3-3,3-4")
        #expect(h.string(#"count("Track", "ANY playlists.Name == 'Movies'") .. "," .. count("PlaylistTrack")"#) == "1,7")
        // Assigning the whole set writes the difference.
        h.run(#"Playlist:get(3).tracks = { Track:get(1) }; save()"#)
        #expect(try sqlAnswer(path, "SELECT TrackId FROM PlaylistTrack WHERE PlaylistId = 3") == "1")
        #expect(try schemaRows(path) == schema, "sqlite_master changed")
        // Reopened, the pair reads what was saved.
        let again = try Harness(context: try StoreOpener.open(path))
        #expect(again.string(#"#Playlist:get(1).tracks .. "," .. Playlist:get(3).tracks[1].Name"#) == "4,For Those About To Rock")
    }

    /// A many-to-many's links go with either end, as Core Data's do, whatever the join
    /// table's own foreign keys say (issue 60's decision): NO ACTION and RESTRICT hold no
    /// delete back, CASCADE removes them as before; the file is left with no broken key.
    @Test(arguments: ["NO ACTION", "RESTRICT", "CASCADE"]) func deletingAParentTakesItsLinksWhateverTheJoinTablesKeys(action: String) throws {
        let path = try foreignFile(
            """
            CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE post_tag (post_id INTEGER REFERENCES post(id) ON DELETE \(action), tag_id INTEGER REFERENCES tag(id) ON DELETE \(action), PRIMARY KEY (post_id, tag_id));
            INSERT INTO tag VALUES (1, 'swift'), (2, 'sqlite');
            INSERT INTO post VALUES (1, 'a'), (2, 'b');
            INSERT INTO post_tag VALUES (1, 1), (1, 2), (2, 2);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"#post:get(1).tags .. "," .. #tag:get(2).posts"#) == "2,2")
        h.run(#"tag:get(2):delete(); save()"#)
        #expect(try sqlAnswer(path, "SELECT post_id || '-' || tag_id FROM post_tag") == "1-1")
        #expect(h.string(#"#post:get(1).tags .. "," .. #post:get(2).tags"#) == "1,0")
        // The other end too.
        h.run(#"post:get(1):delete(); save()"#)
        #expect(try sqlAnswer(path, "SELECT count(*) FROM post_tag") == "0")
        #expect(h.string(#"#tag:get(1).posts"#) == "0")
        #expect(try sqlAnswer(path, "SELECT count(*) FROM pragma_foreign_key_check") == "0")
    }

    /// Its own key and a position column keep a table a join table; any other column, or a
    /// position the link's insert could not leave out, makes it an entity only. A table
    /// joining one table to itself gives it both sides, under two names.
    @Test func whichTablesAreJoinTables() throws {
        let path = try foreignFile(
            """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE club (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE member (id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES person(id), club_id INTEGER REFERENCES club(id), position INTEGER);
            CREATE TABLE visit (person_id INTEGER REFERENCES person(id), club_id INTEGER REFERENCES club(id), note TEXT);
            CREATE TABLE ranking (person_id INTEGER REFERENCES person(id), club_id INTEGER REFERENCES club(id), place INTEGER NOT NULL);
            CREATE TABLE follows (follower_id INTEGER REFERENCES person(id), followee_id INTEGER REFERENCES person(id), PRIMARY KEY (follower_id, followee_id));
            INSERT INTO person VALUES (1, 'ann'), (2, 'bob'), (3, 'cy');
            INSERT INTO club VALUES (1, 'chess');
            INSERT INTO member VALUES (1, 1, 1, 1), (2, 2, 1, 2);
            INSERT INTO follows VALUES (1, 2), (1, 3), (2, 3);
            """)
        let schema = try schemaRows(path)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string(#"#club:get(1).persons .. "," .. person:get(1).clubs[1].name"#) == "2,chess")
        // Not join tables: no pair through them.
        #expect(h.error(#"return person:get(1).clubs_via_visit"#).contains("unknown key"))
        #expect(h.error(#"return person:get(1).clubs_via_ranking"#).contains("unknown key"))
        #expect(h.string(#"#person:get(1).visits .. "," .. #person:get(1).rankings"#) == "0,0")
        // follower_id -> followee side: whom a person follows, and who follows them.
        #expect(h.string(#"#person:get(1).followees .. "," .. #person:get(3).followers .. "," .. #person:get(1).followers"#) == "2,2,0")
        h.run(#"person:get(3).followees:add(person:get(1)); club:get(1).persons:add(person:get(3)); save()"#)
        #expect(try sqlAnswer(path, "SELECT follower_id || '-' || followee_id FROM follows ORDER BY 1") == "1-2,1-3,2-3,3-1")
        // The link's insert leaves the position and its own key to SQLite.
        #expect(try sqlAnswer(path, "SELECT id || ':' || quote(position) FROM member WHERE person_id = 3") == "3:NULL")
        #expect(try schemaRows(path) == schema, "sqlite_master changed")
    }
}
