import Foundation
import Testing

/// `format(view, attribute, layout)` on a view of a SQLite file Quarry did not create
/// (issue 60): a format governs reading as well as writing, so a view's time column (Kodi's
/// `movie_view.dateAdded`, text; a Unix-milliseconds integer) becomes a date: read,
/// printed, compared with `date(...)` in SQL, sorted and exported as one. The declaration
/// is kept in the sidecar, the file's bytes stay as they were, and the view stays read-only.
@Suite struct ViewTimeFormatTests {
    static func kodi(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("kodi.db"),
                """
                CREATE TABLE files (idFile INTEGER PRIMARY KEY, dateAdded TEXT, playedMs INTEGER);
                CREATE TABLE movie (idMovie INTEGER PRIMARY KEY, idFile INTEGER, title TEXT);
                CREATE VIEW movie_view AS SELECT movie.idMovie, movie.title, files.dateAdded, files.playedMs
                  FROM movie JOIN files ON files.idFile = movie.idFile;
                INSERT INTO files VALUES (1, '2024-01-02 10:00:00', 1700000000123), (2, '2023-05-06 08:30:00', 1600000000000),
                  (3, NULL, NULL);
                INSERT INTO movie VALUES (1, 1, 'Alien'), (2, 2, 'Brazil'), (3, 3, 'Casablanca');
                """
            ])
        try #require(made.status == 0, "\(made)")
    }

    @Test func aViewsTimeColumnsBecomeDates() async throws {
        let sandbox = try Sandbox()
        try await Self.kodi(sandbox)
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("kodi.db")))
        let declared = try await sandbox.quarry([
            "kodi.db", "-e",
            """
            format("movie_view", "dateAdded", "iso-space")
            format("movie_view", "playedMs", "unix-ms")
            local a = movie_view:first("title == 'Alien'")
            print(format("movie_view", "dateAdded"), format("movie_view", "playedMs"))
            print(tostring(a.dateAdded):sub(1, 19), tostring(a.playedMs):sub(1, 23))
            print(count("movie_view", "dateAdded > %@", date("2024-01-01")), count("movie_view", "playedMs < %@", date("2021-01-01")))
            local r = fetch{ "movie_view", predicate = "dateAdded != nil", sort = { "-dateAdded" } }
            print(r[1].title, r[2].title)
            export(fetch{ "movie_view", predicate = "playedMs != nil", sort = { "playedMs" } }, "out.csv")
            """
        ])
        #expect(declared.status == 0, "\(declared)")
        #expect(
            declared.lines == [
                // An ISO layout is said by its name (issue 85, item 7).
                "iso-space\tunix-ms", "2024-01-02T10:00:00\t2023-11-14T22:13:20.123", "1\t1", "Alien\tBrazil"
            ], "\(declared)")
        let csv = try sandbox.read("out.csv")
        #expect(csv.contains("2020-09-13T12:26:40") && csv.contains("2023-11-14T22:13:20.123"), "\(csv)")
        #expect(!csv.contains("1700000000123"), "\(csv)")
        // Kept in the sidecar: a new run reads the view's columns as dates again.
        let reopened = try await sandbox.quarry([
            "kodi.db", "-e",
            #"print(format("movie_view", "playedMs"), count("movie_view", "playedMs > %@ AND dateAdded > %@", date("2023-01-01"), date("2024-01-01")))"#
        ])
        #expect(reopened.status == 0, "\(reopened)")
        #expect(reopened.stdout == "unix-ms\t1\n", "\(reopened)")
        #expect(try sandbox.read("kodi.db.quarry").contains("movie_view"))
        // Writing stays refused: a view's rows cannot be changed.
        let written = try await sandbox.quarry([
            "kodi.db", "-e", #"movie_view:first("title == 'Alien'").dateAdded = date("2025-01-01"); save()"#
        ])
        #expect(written.status != 0, "\(written)")
        #expect(written.stderr.contains("movie_view"), "\(written)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("kodi.db"))) == before)
    }
}
