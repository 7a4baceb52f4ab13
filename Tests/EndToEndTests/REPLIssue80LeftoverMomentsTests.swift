import Foundation
import Testing

/// Display moments a newcomer still met on unseen files (issue 80's leftovers), typed as a
/// person types: an empty grouped result with its header, nil aligned with the numbers of
/// its column, a day in a zone west of UTC, help that names only what works, and the
/// object ID's column named as the method that gives it.
@Suite struct REPLIssue80LeftoverMomentsTests {
    private func sqlite3(_ sandbox: Sandbox, _ file: String, _ sql: String) async throws {
        let result = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(file), sql])
        try #require(result.status == 0, "\(result)")
    }

    /// A media index: files with a kind, a size and a day they were added.
    private func media(_ sandbox: Sandbox) async throws {
        try await sqlite3(
            sandbox, "media.db",
            """
            CREATE TABLE file (path TEXT PRIMARY KEY, kind TEXT, size INTEGER, rating REAL, added DATE) WITHOUT ROWID;
            INSERT INTO file VALUES ('a.mp3', 'audio', 4000, 4.5, '2024-03-05'), ('b.mp3', 'audio', NULL, NULL, '2024-12-31'),
              ('c.mkv', 'video', 700000, 3.25, '2024-01-01');
            """)
    }

    /// A grouped query that matches no rows prints its header and `(0 rows)`, as an empty
    /// `sql()` does (it printed a blank line and the count).
    @Test func anEmptyGroupedResultPrintsItsHeader() async throws {
        let sandbox = try Sandbox()
        try await media(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["media.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let sql = try await repl.enter(#"=sql("SELECT kind, sum(size) AS total FROM file WHERE size > 10000000 GROUP BY kind")"#)
        try #require(sql.first?.hasPrefix("kind") == true && sql.last == "(0 rows)", "\(sql)")
        let grouped = try await repl.enter(
            #"=fetch{ "file", result = "dictionaries", group = "kind", properties = { "kind", "sum(size) AS total" }, predicate = "size > 10000000" }"#
        )
        #expect(grouped == ["kind | total", "-----+------", "(0 rows)"], "\(grouped)")
        let falsePredicate = try await repl.enter(
            #"=fetch{ "file", result = "dictionaries", group = "kind", properties = { "kind", "count(*)" }, predicate = "FALSEPREDICATE" }"#)
        #expect(falsePredicate.first == "kind | count(*)" && falsePredicate.last == "(0 rows)", "\(falsePredicate)")
        // Ungrouped dictionaries the same way.
        let plain = try await repl.enter(#"=fetch{ "file", result = "dictionaries", properties = { "path", "size" }, predicate = "size < 0" }"#)
        #expect(plain.first == "path | size" && plain.last == "(0 rows)", "\(plain)")
    }

    /// nil in a column of numbers sits at its right edge, as the numbers do (DuckDB's
    /// shell aligns NULL so); in a text column it stays at the left.
    @Test func nilInANumberColumnIsRightAligned() async throws {
        let sandbox = try Sandbox()
        try await media(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["media.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".pager off")
        let rows = try await repl.enter(
            #"=fetch{ "file", result = "dictionaries", properties = { "path", "size", "rating", "kind" }, sort = "path" }"#)
        try #require(rows.count == 6, "\(rows)")
        #expect(rows[0] == "path  | size   | rating | kind", "\(rows)")
        #expect(rows[3] == "b.mp3 |    nil |    nil | audio", "\(rows)")
        #expect(rows[2] == "a.mp3 |   4000 |    4.5 | audio", "\(rows)")
        let texts = try await repl.enter(#"=sql("SELECT path, CASE WHEN size IS NULL THEN NULL ELSE kind END AS k FROM file ORDER BY path")"#)
        #expect(texts.contains("b.mp3 | nil"), "nil stays left in a text column: \(texts)")
        // A results table too.
        let objects = try await repl.enter(#"=fetch{ "file", sort = "path", predicate = "path == 'b.mp3'" }"#)
        let row = try #require(objects.first { $0.contains("b.mp3 |") }, "\(objects)")
        let cells = row.split(separator: "|").map(String.init)
        #expect(cells.count >= 5 && cells[3].hasSuffix("nil ") && cells[3].hasPrefix("  "), "size's nil on the right: \(objects)")
    }
}
