import Foundation
import Testing

/// A summary at the prompt is read whole: one row an attribute, never cut by `.maxrows`
/// (a 23-column table lost its last three attributes' statistics), and a statistic
/// rounded to six digits reads as rounded (a max of 120166.58 is `120167`, not `120167.0`).
@Suite struct REPLSummaryWholeTests {
    @Test func aSummaryShowsEveryAttributeAndNoExactLookingRounding() async throws {
        let sandbox = try Sandbox()
        let columns = (1...23).map { "c\($0) REAL" }.joined(separator: ", ")
        let values = (1...23).map { $0 == 23 ? "120166.58" : "\($0)" }.joined(separator: ", ")
        let sql = "CREATE TABLE wide (id INTEGER PRIMARY KEY, \(columns)); INSERT INTO wide VALUES (1, \(values));"
        let made = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path("w.db"), sql])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"], columns: 200)
        try await repl.waitForPrompt()
        _ = try await repl.enter(".maxrows 5")
        let summary = try await repl.enter(#"summarize("wide")"#)
        #expect(summary.contains { $0.hasPrefix("c23 ") }, "\(summary)")
        #expect(!summary.contains { $0.contains("hidden") }, "\(summary)")
        let row = try #require(summary.first { $0.hasPrefix("c23 ") }, "\(summary)")
        #expect(row.contains("120167") && !row.contains("120167.0"), "\(row)")
        // A fetch still honours `.maxrows`.
        let fetched = try await repl.enter(#"=sql("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30) SELECT i FROM n")"#)
        #expect(fetched.contains { $0.contains("hidden") }, "\(fetched)")
    }
}
