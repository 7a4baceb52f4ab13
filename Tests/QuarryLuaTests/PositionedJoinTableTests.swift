import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A join table whose key holds a position (NewPipe's `playlist_stream_join(playlist_id,
/// stream_id, join_index)` keyed by `(playlist_id, join_index)`, issue 85, item 8) is an
/// ordered many-to-many, read as Core Data's ordered set: `playlist.streams` lists its
/// members by `join_index`, each once where it first stands; `stream.playlists` is a plain
/// to-many; the join table stays an entity listing every entry. Every answer is checked
/// against sqlite3's on the same file.
@Suite struct PositionedJoinTableTests {
    static let schema = """
        CREATE TABLE streams (uid INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL);
        CREATE TABLE playlists (uid INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
        CREATE TABLE playlist_stream_join (playlist_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, join_index INTEGER NOT NULL,
          PRIMARY KEY (playlist_id, join_index),
          FOREIGN KEY (playlist_id) REFERENCES playlists(uid) ON UPDATE CASCADE ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
          FOREIGN KEY (stream_id) REFERENCES streams(uid) ON UPDATE CASCADE ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED);
        """

    static func newPipe() throws -> String {
        try foreignFile(
            schema + """
                INSERT INTO streams (title) VALUES ('a'), ('b'), ('c');
                INSERT INTO playlists (name) VALUES ('P1'), ('P2'), ('P3');
                INSERT INTO playlist_stream_join VALUES (1, 3, 0), (1, 1, 1), (1, 3, 2), (2, 2, 0);
                """)
    }

    /// The titles of playlist `uid`'s streams by their first position, as sqlite3 orders them.
    static func titles(_ path: String, _ uid: Int) throws -> String {
        try sqlAnswer(
            path,
            "SELECT title FROM (SELECT stream_id, min(join_index) AS at FROM playlist_stream_join WHERE playlist_id = \(uid) GROUP BY stream_id) "
                + "JOIN streams ON streams.uid = stream_id ORDER BY at")
    }

    /// Lua's titles of `o.streams`, in order, joined by commas.
    static let luaTitles =
        #"(function(p) local t = {}; for i = 1, #p.streams do t[#t + 1] = p.streams[i].title end; return table.concat(t, ",") end)"#

    @Test func theOwnersSideIsAnOrderedSetByPosition() throws {
        let path = try Self.newPipe()
        let context = try StoreOpener.open(path)
        // Stream 3 twice in playlist 1: named at the open, with the entity that lists both.
        #expect(
            context.openingNotes.contains(
                "playlist_stream_join holds a member more than once in one owner (streams/3 2 times in playlists/1): playlists.streams lists each member once, at its first join_index; the entity playlist_stream_join lists every entry"
            ), "\(context.openingNotes)")
        #expect(context.keepsOrder("streams", of: "playlists"))
        #expect(!context.keepsOrder("playlists", of: "streams"))
        let h = try Harness(context: context)
        for uid in 1...3 {
            #expect(h.string("\(Self.luaTitles)(playlists:get(\(uid)))") == (try Self.titles(path, uid)), "playlist \(uid)")
            #expect(
                h.string("#playlists:get(\(uid)).streams")
                    == (try sqlAnswer(path, "SELECT count(DISTINCT stream_id) FROM playlist_stream_join WHERE playlist_id = \(uid)")))
        }
        #expect(h.string("playlists:get(1).streams[1].title") == "c")
        // The join table's own entity lists every entry, the repeated one too.
        #expect(h.string(#"count("playlist_stream_join")"#) == (try sqlAnswer(path, "SELECT count(*) FROM playlist_stream_join")))
        #expect(h.string("#playlists:get(1).playlist_stream_joins") == "3")
        // Predicates count each member once, in SQL and in memory, as COUNT(DISTINCT) does.
        try expectCountsAgreeWithSQLite(
            h, path, table: "playlists",
            [
                ("streams.@count > 1", "(SELECT count(DISTINCT stream_id) FROM playlist_stream_join WHERE playlist_id = uid) > 1"),
                ("streams.@count == 1", "(SELECT count(DISTINCT stream_id) FROM playlist_stream_join WHERE playlist_id = uid) = 1"),
                (
                    "ANY streams.title == 'c'",
                    "uid IN (SELECT playlist_id FROM playlist_stream_join JOIN streams ON streams.uid = stream_id WHERE title = 'c')"
                ),
                (
                    "SUBQUERY(streams, $s, $s.title != 'b').@count == 2",
                    "(SELECT count(DISTINCT stream_id) FROM playlist_stream_join JOIN streams ON streams.uid = stream_id WHERE playlist_id = playlists.uid AND title != 'b') = 2"
                )
            ])
        try expectCountsAgreeWithSQLite(
            h, path, table: "streams",
            [
                ("playlists.@count == 1", "(SELECT count(DISTINCT playlist_id) FROM playlist_stream_join WHERE stream_id = uid) = 1"),
                (
                    "ANY playlists.name == 'P1'",
                    "uid IN (SELECT stream_id FROM playlist_stream_join JOIN playlists ON playlists.uid = playlist_id WHERE name = 'P1')"
                )
            ])
    }

    /// Adding appends at the playlist's largest position plus one, removing deletes every
    /// row of the member, and `insert`/`move` rewrite positions, keeping the playlist's set
    /// of positions (a repeated entry stays, after the members); another open reads the
    /// order sqlite3 reads.
    @Test func writesKeepThePositions() throws {
        let path = try Self.newPipe()
        let h = try Harness(context: try StoreOpener.open(path))
        func rows(_ uid: Int) throws -> String {
            try sqlAnswer(path, "SELECT stream_id || ':' || join_index FROM playlist_stream_join WHERE playlist_id = \(uid) ORDER BY join_index")
        }
        h.run("playlists:get(1).streams:add(streams:get(2)); save()")
        #expect(try rows(1) == "3:0,1:1,3:2,2:3")
        h.run("playlists:get(1).streams:move(3, 1); save()")
        #expect(try rows(1) == "2:0,3:1,1:2,3:3")
        #expect(h.string("\(Self.luaTitles)(playlists:get(1))") == "b,c,a")
        h.run("playlists:get(1).streams:remove(streams:get(3)); save()")
        #expect(try rows(1) == "2:0,1:2")
        // An empty playlist numbers from 0; insert places before the first.
        h.run("local q = playlists:get(3); q.streams:add(streams:get(1)); q.streams:insert(1, streams:get(3)); save()")
        #expect(try rows(3) == "3:0,1:1")
        // From the other side: the stream appended to the playlist.
        h.run("streams:get(3).playlists:add(playlists:get(2)); save()")
        #expect(try rows(2) == "2:0,3:1")
        // A new playlist with members, in one save.
        h.run(#"local n = playlists:new{ name = "P4" }; n.streams:add(streams:get(2)); n.streams:add(streams:get(1)); n.streams:move(2, 1); save()"#)
        let four = try sqlAnswer(path, "SELECT uid FROM playlists WHERE name = 'P4'")
        #expect(try rows(Int(four) ?? 0) == "1:0,2:1")
        // Read again from the file, the order is sqlite3's.
        let again = try Harness(context: try StoreOpener.open(path))
        for uid in 1...4 { #expect(again.string("\(Self.luaTitles)(playlists:get(\(uid)))") == (try Self.titles(path, uid)), "playlist \(uid)") }
        // A position where none is: refused in one line.
        #expect(h.error("playlists:get(2).streams:move(1, 5)").hasSuffix("position 5 is outside playlists/2.streams: positions are 1 to 2"))
        // The plain side keeps no order.
        #expect(h.error("streams:get(1).playlists:move(1, 1)").contains("streams.playlists is not ordered"))
    }

    /// The position held unique with the owner by a UNIQUE constraint beside the table's own
    /// key, the owner's column sorting after the member's (`list_id` after `a_item_id`):
    /// the owner's side is still the ordered one, and its writes keep the positions.
    @Test func aUniqueKeyOverTheOwnerAndThePositionOrdersToo() throws {
        let path = try foreignFile(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE list (id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE entry (id INTEGER PRIMARY KEY, a_item_id INTEGER NOT NULL REFERENCES item(id), list_id INTEGER NOT NULL REFERENCES list(id),
              pos INTEGER NOT NULL, UNIQUE (list_id, pos));
            INSERT INTO item VALUES (1, 'x'), (2, 'y'), (3, 'z');
            INSERT INTO list VALUES (1, 'L');
            INSERT INTO entry (a_item_id, list_id, pos) VALUES (3, 1, 5), (1, 1, 2), (2, 1, 9);
            """)
        let context = try StoreOpener.open(path)
        #expect(context.keepsOrder("items", of: "list") && !context.keepsOrder("lists", of: "item"))
        let h = try Harness(context: context)
        let order = try sqlAnswer(path, "SELECT label FROM entry JOIN item ON item.id = a_item_id WHERE list_id = 1 ORDER BY pos")
        #expect(
            h.string(
                #"(function() local t = {}; for _, o in ipairs(list:get(1).items) do t[#t + 1] = o.label end; return table.concat(t, ",") end)()"#)
                == order)
        // y moved first, x removed from the other side in the same save: y and z swap places.
        h.run("list:get(1).items:move(3, 1); item:get(1).lists:remove(list:get(1)); save()")
        #expect(try sqlAnswer(path, "SELECT a_item_id || ':' || pos FROM entry ORDER BY pos") == "2:5,3:9")
        h.run("list:get(1).items:add(item:get(1)); save()")
        #expect(try sqlAnswer(path, "SELECT a_item_id || ':' || pos FROM entry ORDER BY pos") == "2:5,3:9,1:10")
        #expect(h.string("count(\"entry\")") == "3")
    }

    /// A required position no key holds with one end (the key is over all three columns):
    /// no order to keep, so the table stays an entity of its own, and `playlists.streams`
    /// is refused naming the path through it, which counts as sqlite3 does.
    @Test func aPositionNoKeyHoldsWithAnEndNamesThePathThroughTheJoinEntity() throws {
        let path = try foreignFile(
            """
            CREATE TABLE streams (uid INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE playlists (uid INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE playlist_stream_join (playlist_id INTEGER NOT NULL REFERENCES playlists(uid),
              stream_id INTEGER NOT NULL REFERENCES streams(uid), join_index INTEGER NOT NULL, PRIMARY KEY (playlist_id, stream_id, join_index));
            INSERT INTO streams (title) VALUES ('a'), ('b'), ('c');
            INSERT INTO playlists (name) VALUES ('P1'), ('P2');
            INSERT INTO playlist_stream_join VALUES (1, 3, 0), (1, 1, 1), (1, 3, 2), (2, 2, 0);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(
            h.error(#"count("playlists", "streams.@count > 1")"#)
                == "t:1: predicate: unknown key 'streams' in key path 'streams.@count' on entity playlists; playlist_stream_join links playlists to streams as an entity of its own: playlist_stream_joins.@count at column 1"
        )
        #expect(
            h.error("return playlists:first().streams").hasSuffix(
                "unknown key 'streams' on entity playlists; playlist_stream_join links playlists to streams as an entity of its own: o.playlist_stream_joins[i].stream"
            ))
        try expectCountsAgreeWithSQLite(
            h, path, table: "playlists",
            [("playlist_stream_joins.@count > 1", "(SELECT count(*) FROM playlist_stream_join WHERE playlist_id = uid) > 1")])
    }

    /// Playlists of random streams, entries repeated, against sqlite3's answers: each
    /// playlist's count of distinct streams and its first stream by position, and the
    /// same after random moves.
    @Test func randomPlaylistsAgreeWithSQLite() throws {
        var state: UInt64 = 0x85_0008
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var sql = Self.schema
        sql += "INSERT INTO streams (title) VALUES " + (1...40).map { "('s\($0)')" }.joined(separator: ", ") + ";\n"
        sql += "INSERT INTO playlists (name) VALUES " + (1...25).map { "('p\($0)')" }.joined(separator: ", ") + ";\n"
        var entries: [String] = []
        for playlist in 1...25 {
            // Positions with gaps, as NewPipe leaves them after deletions.
            var at = next(3)
            for _ in 0..<next(9) {
                entries.append("(\(playlist), \(1 + next(40)), \(at))")
                at += 1 + next(3)
            }
        }
        sql += "INSERT INTO playlist_stream_join VALUES " + entries.joined(separator: ", ") + ";"
        let path = try foreignFile(sql)
        let h = try Harness(context: try StoreOpener.open(path))
        func check(_ label: String) throws {
            let counts = try sqlAnswer(
                path, "SELECT (SELECT count(DISTINCT stream_id) FROM playlist_stream_join WHERE playlist_id = uid) FROM playlists ORDER BY uid")
            let firsts = try sqlAnswer(
                path,
                "SELECT coalesce((SELECT title FROM playlist_stream_join JOIN streams ON streams.uid = stream_id WHERE playlist_id = playlists.uid ORDER BY join_index LIMIT 1), '-') FROM playlists ORDER BY uid"
            )
            #expect(
                h.string(
                    #"(function() local t = {}; for _, p in ipairs(fetch{ "playlists", sort = { "uid" } }) do t[#t + 1] = #p.streams end; return table.concat(t, ",") end)()"#
                )
                    == counts, "\(label): counts")
            #expect(
                h.string(
                    #"(function() local t = {}; for _, p in ipairs(fetch{ "playlists", sort = { "uid" } }) do t[#t + 1] = #p.streams > 0 and p.streams[1].title or "-" end; return table.concat(t, ",") end)()"#
                ) == firsts, "\(label): first streams")
            for uid in [1, 7, 19] {
                #expect(h.string("\(Self.luaTitles)(playlists:get(\(uid)))") == (try Self.titles(path, uid)), "\(label): \(uid)")
            }
            try expectCountsAgreeWithSQLite(
                h, path, table: "playlists",
                [
                    ("streams.@count >= 4", "(SELECT count(DISTINCT stream_id) FROM playlist_stream_join WHERE playlist_id = uid) >= 4"),
                    (
                        "ANY streams.title == 's7'",
                        "uid IN (SELECT playlist_id FROM playlist_stream_join JOIN streams ON streams.uid = stream_id WHERE title = 's7')"
                    )
                ])
        }
        try check("as made")
        for uid in 1...25 {
            let count = Int(h.string("#playlists:get(\(uid)).streams") ?? "") ?? 0
            guard count > 1 else { continue }
            h.run("playlists:get(\(uid)).streams:move(\(1 + next(count)), \(1 + next(count)))")
        }
        h.run("save()")
        try check("moved")
    }
}
