import Foundation
import QuarryTestSupport
import Testing

/// An object observer of a file Quarry did not create hears a to-one whose column was set
/// directly (`a.ArtistId = 3`): `o:changes()` gives the relationship's objects, and the
/// observer of the relationship heard nothing (the save names only the column).
@Suite struct ObjectObserverColumnTests {
    @Test func aToOneSetThroughItsColumnIsHeard() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "lite.sql",
            """
            CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name text);
            CREATE TABLE Album (AlbumId INTEGER PRIMARY KEY, Title text, ArtistId INTEGER NOT NULL REFERENCES Artist(ArtistId));
            INSERT INTO Artist VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
            INSERT INTO Album VALUES (1, 'For Those About To Rock', 1);

            """)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "lite.sql")
        let script = #"""
            local a = Album:get(1)
            observe(a, { "artist" }, function(o, key, old, new) print(key, old and old.Name, new and new.Name) end)
            a.ArtistId = 3
            save()
            a.ArtistId = 2
            rollback()
            print(a.artist.Name)
            """#
        let result = try await sandbox.quarry(["lite.db", "-e", script])
        #expect(result.status == 0 && result.lines == ["artist\tAC/DC\tAerosmith", "artist\tAccept\tAerosmith", "Aerosmith"], "\(result)")
    }

    /// Another session's change to the column is heard as the relationship's objects too
    /// (it was heard as the stored key 1 and nil).
    @Test func anotherSessionsChangeToAToOneIsHeardAsObjects() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "lite.sql",
            """
            CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name text);
            CREATE TABLE Album (AlbumId INTEGER PRIMARY KEY, Title text, ArtistId INTEGER REFERENCES Artist(ArtistId) ON DELETE SET NULL);
            INSERT INTO Artist VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
            INSERT INTO Album VALUES (1, 'For Those About To Rock', 1);

            """)
        try await PostgresStoreTests.sqlite3(sandbox, "lite.db", file: "lite.sql")
        let other = try Self.otherSession(sandbox)
        let script = #"""
            local a = Album:get(1)
            observe(a, function(o, key, old, new)
              print(key, type(old) == "userdata" and old.Name or tostring(old), type(new) == "userdata" and new.Name or tostring(new))
            end)
            assert(os.execute(OTHER))
            refresh()
            print("--")
            assert(os.execute(DELETE))
            refresh()
            """#.replacingOccurrences(of: "OTHER", with: other)
            .replacingOccurrences(of: "DELETE", with: try Self.otherSession(sandbox, "PRAGMA foreign_keys=ON; DELETE FROM Artist WHERE ArtistId = 3"))
        let result = try await sandbox.quarry(["lite.db", "-e", script])
        // A target the other session deleted (the key ON DELETE SET NULL): no object before
        // or after, so only the column is heard (it was heard as nil and nil).
        #expect(result.status == 0 && result.lines == ["ArtistId\t1\t3", "artist\tAC/DC\tAerosmith", "--", "ArtistId\t3\tnil"], "\(result)")
    }

    /// A Lua string running sqlite3 on `lite.db`: `sql` (moving the album to artist 3 unless given).
    static func otherSession(_ sandbox: Sandbox, _ sql: String = "UPDATE Album SET ArtistId = 3 WHERE AlbumId = 1") throws -> String {
        let shell = try PostgresStoreTests.sqlite3Shell()
        let path = sandbox.directory.appendingPathComponent("lite.db").path
        return "[[\(shell) '\(path)' '\(sql)']]"
    }
}
