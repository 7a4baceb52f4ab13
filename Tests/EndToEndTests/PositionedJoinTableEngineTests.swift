import Foundation
import QuarryTestSupport
import Testing

/// NewPipe's `playlist_stream_join(playlist_id, stream_id, join_index)`, keyed by
/// `(playlist_id, join_index)`, on a SQLite file sqlite3 made and on a PostgreSQL schema
/// psql made (issue 85, item 8): the same script reads `playlist.streams` as an ordered
/// set by `join_index` and counts as each engine's own SQL counts, and the same writes
/// leave the same rows in both. Against a real server (`PostgresServer`): the test fails,
/// never skips, without one.
@Suite struct PositionedJoinTableEngineTests {
    static func schema(postgres: Bool) -> String {
        let key = postgres ? "uid serial PRIMARY KEY" : "uid INTEGER PRIMARY KEY AUTOINCREMENT"
        return """
            CREATE TABLE streams (\(key), title TEXT NOT NULL);
            CREATE TABLE playlists (\(key), name TEXT);
            CREATE TABLE playlist_stream_join (playlist_id INTEGER NOT NULL REFERENCES playlists(uid) ON DELETE CASCADE,
              stream_id INTEGER NOT NULL REFERENCES streams(uid) ON DELETE CASCADE, join_index INTEGER NOT NULL,
              PRIMARY KEY (playlist_id, join_index));
            INSERT INTO streams (title) VALUES ('s1'), ('s2'), ('s3'), ('s4'), ('s5'), ('s6');
            INSERT INTO playlists (name) VALUES ('P1'), ('P2'), ('P3'), ('P4');
            INSERT INTO playlist_stream_join VALUES (1, 3, 0), (1, 1, 1), (1, 3, 2), (1, 5, 4), (2, 2, 0), (2, 4, 3), (2, 6, 7), (3, 1, 10);

            """
    }

    /// Each playlist's members, their count and titles by first position, then four counts.
    static let reads = """
        for _, p in ipairs(fetch{ "playlists", sort = { "uid" } }) do
          local t = {}
          for i = 1, #p.streams do t[#t + 1] = p.streams[i].title end
          print(p.uid, #p.streams, table.concat(t, ","))
        end
        print(count("playlists", "streams.@count >= 3"), count("playlists", "ANY streams.title == 's3'"),
          count("playlists", "SUBQUERY(streams, $s, $s.title < 's3').@count >= 1"), count("streams", "playlists.@count >= 2"))
        """

    static let writes = """
        playlists:get(1).streams:add(streams:get(2))
        playlists:get(2).streams:move(3, 1)
        save()
        playlists:get(1).streams:remove(streams:get(3))
        local four = playlists:get(4)
        four.streams:add(streams:get(6)); four.streams:add(streams:get(1)); four.streams:insert(1, streams:get(4))
        save()
        """

    static let counts = """
        SELECT (SELECT count(*) FROM playlists WHERE (SELECT count(DISTINCT stream_id) FROM playlist_stream_join WHERE playlist_id = playlists.uid) >= 3),
          (SELECT count(*) FROM playlists WHERE uid IN (SELECT playlist_id FROM playlist_stream_join JOIN streams ON streams.uid = stream_id WHERE title = 's3')),
          (SELECT count(*) FROM playlists WHERE uid IN (SELECT playlist_id FROM playlist_stream_join JOIN streams ON streams.uid = stream_id WHERE title < 's3')),
          (SELECT count(*) FROM streams WHERE (SELECT count(DISTINCT playlist_id) FROM playlist_stream_join WHERE stream_id = streams.uid) >= 2)
        """
    static let rows = "SELECT playlist_id, stream_id, join_index FROM playlist_stream_join ORDER BY playlist_id, join_index"

    /// The lines `reads` should print, from the engine's own rows and counts: each
    /// playlist's distinct streams in order of their first position.
    static func expected(rows: String, counts: String) -> [String] {
        var members: [Int: [Int]] = [1: [], 2: [], 3: [], 4: []]
        for line in rows.split(separator: "\n") {
            let f = line.split(separator: "\t").compactMap { Int($0) }
            guard f.count == 3, members[f[0]]?.contains(f[1]) == false else { continue }
            members[f[0], default: []].append(f[1])
        }
        return (1...4).map { uid in "\(uid)\t\(members[uid]?.count ?? 0)\t" + (members[uid] ?? []).map { "s\($0)" }.joined(separator: ",") }
            + [counts.trimmingCharacters(in: .whitespacesAndNewlines)]
    }

    /// The rows the writes leave, as `rows` prints them.
    static let written = [
        "1\t1\t1", "1\t5\t4", "1\t2\t5", "2\t6\t0", "2\t2\t3", "2\t4\t7", "3\t1\t10", "4\t4\t0", "4\t6\t1", "4\t1\t2"
    ]

    @Test func sqliteAndPostgreSQLReadAndWriteTheOrderedSetAlike() async throws {
        let sandbox = try Sandbox()
        // sqlite3's file, and its answers.
        let shell = URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell())
        try sandbox.write("newpipe.sql", Self.schema(postgres: false))
        try await PostgresStoreTests.sqlite3(sandbox, sandbox.path("newpipe.db"), file: "newpipe.sql")
        func sqlite(_ query: String) async throws -> String {
            let result = try await sandbox.run(shell, ["-separator", "\t", sandbox.path("newpipe.db"), query], timeout: 60)
            guard result.status == 0 else { throw HarnessError("sqlite3 failed: \(result)") }
            return result.stdout
        }
        let url = try await PostgresStoreTests.database("positioned", in: sandbox, schema: Self.schema(postgres: true))
        func psql(_ query: String) async throws -> String { try await PostgresDecimalTests.psqlRows(sandbox, url, query) }

        for (label, target, answer) in [("SQLite", "newpipe.db", sqlite), ("PostgreSQL", url, psql)]
            as [(String, String, (String) async throws -> String)]
        {
            let expected = Self.expected(rows: try await answer(Self.rows), counts: try await answer(Self.counts))
            let read = try await sandbox.quarry([target, "-e", Self.reads])
            #expect(read.status == 0, "\(label): \(read)")
            #expect(read.lines == expected, "\(label): \(read)")
            // Stream 3 twice in playlist 1, named at the open.
            #expect(
                read.stderr.contains(
                    "playlist_stream_join holds a member more than once in one owner (streams/3 2 times in playlists/1): playlists.streams lists each member once, at its first join_index; the entity playlist_stream_join lists every entry"
                ), "\(label): \(read.stderr)")
            let schema = try await sandbox.quarry([target, "-"], stdin: ".schema playlists\n")
            #expect(
                schema.lines.contains(#"  streams = { many = "streams", inverse = "playlists" },  -- ordered by playlist_stream_join.join_index"#),
                "\(label): \(schema)")
            let written = try await sandbox.quarry([target, "-e", Self.writes])
            #expect(written.status == 0, "\(label): \(written)")
            #expect(try await answer(Self.rows).split(separator: "\n").map(String.init) == Self.written, "\(label)")
            // Read again, the order is the engine's own.
            let again = try await sandbox.quarry([target, "-e", Self.reads])
            #expect(again.lines == Self.expected(rows: try await answer(Self.rows), counts: try await answer(Self.counts)), "\(label): \(again)")
        }
    }

    /// One save that changes a join row (its `stream_id`, an attribute) and moves the
    /// members of its owner: the row is changed where it stood, then the positions move,
    /// on both engines (the server's updates, sent together, went after the positions
    /// once, and changed the row that had taken the old position).
    @Test func aSaveChangingAJoinRowAndMovingItsOwnersMembersWritesTheRowFirstOnBothEngines() async throws {
        let sandbox = try Sandbox()
        let shell = URL(fileURLWithPath: try PostgresStoreTests.sqlite3Shell())
        try sandbox.write("newpipe.sql", Self.schema(postgres: false))
        try await PostgresStoreTests.sqlite3(sandbox, sandbox.path("newpipe.db"), file: "newpipe.sql")
        func sqlite(_ query: String) async throws -> String {
            let result = try await sandbox.run(shell, ["-separator", "\t", sandbox.path("newpipe.db"), query], timeout: 60)
            guard result.status == 0 else { throw HarnessError("sqlite3 failed: \(result)") }
            return result.stdout
        }
        let url = try await PostgresStoreTests.database("positionedupdate", in: sandbox, schema: Self.schema(postgres: true))
        func psql(_ query: String) async throws -> String { try await PostgresDecimalTests.psqlRows(sandbox, url, query) }
        let script = """
            local entry = fetch("playlist_stream_join", "playlist_id == 2 AND join_index == 7")[1]
            entry.stream_id = 5
            playlists:get(2).streams:move(3, 1)
            save()
            """
        for (label, target, answer) in [("SQLite", "newpipe.db", sqlite), ("PostgreSQL", url, psql)]
            as [(String, String, (String) async throws -> String)]
        {
            let written = try await sandbox.quarry([target, "-e", script])
            #expect(written.status == 0, "\(label): \(written)")
            // The row at 7 holds stream 5 now: the members read 2, 4, 5 before the save (a
            // join row's change is the pair's at once), and the third, stream 5, moves first.
            let rows = try await answer("SELECT stream_id, join_index FROM playlist_stream_join WHERE playlist_id = 2 ORDER BY join_index")
            #expect(rows.split(separator: "\n").map(String.init) == ["5\t0", "2\t3", "4\t7"], "\(label): \(rows)")
        }
    }
}
