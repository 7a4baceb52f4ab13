import Foundation
import Testing

/// A table with an index by a collation only the writing application knows (Anki's
/// `unicase`): SQLite counts through the smallest index and fails there (sqlite3's
/// `SELECT count(*)` too), while the rows read in key order do not. `fetch()` and
/// `count()` of the table count its keys then, and show its rows.
@Suite struct UnknownCollationCountTests {
    @Test func aTableIndexedByAnUnknownCollationCountsAndFetches() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("c.anki2"),
                "CREATE TABLE decks (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE nocase, common blob);"
                    + "CREATE UNIQUE INDEX idx_decks_name ON decks (name);"
                    + "INSERT INTO decks SELECT value, 'deck' || value, randomblob(3000) FROM generate_series(1, 50);"
                    + "PRAGMA writable_schema = ON;"
                    + "UPDATE sqlite_master SET sql = replace(sql, 'COLLATE nocase', 'COLLATE unicase') WHERE name = 'decks'"
            ])
        try #require(made.status == 0, "\(made)")
        // What the file does to sqlite3 itself, so the test shows the case it is about.
        let sqlite3 = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("c.anki2"), "SELECT count(*) FROM decks"])
        #expect(sqlite3.stderr.contains("no such collation sequence: unicase"), "\(sqlite3)")
        let run = try await sandbox.quarry(["c.anki2", "-e", #"print(count("decks")); print(#fetch("decks")); print(fetch("decks")[3].name)"#])
        #expect(run.status == 0, "\(run)")
        #expect(run.lines == ["50", "50", "deck3"], "\(run)")
        // Sorting by the column still needs the collation, and says so.
        let sorted = try await sandbox.quarry(["c.anki2", "-e", #"print(#fetch{ "decks", sort = "name" })"#])
        #expect(sorted.stderr.contains("no such collation sequence: unicase"), "\(sorted)")
    }
}
