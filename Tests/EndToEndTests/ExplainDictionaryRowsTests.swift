import Foundation
import Testing

/// `.explain on` at the prompt shows the SQL, bound arguments and query plan of dictionary
/// rows (properties, group) above their table, as it does for results; it showed nothing
/// for them, where people most want the SQL.
@Suite struct ExplainDictionaryRowsTests {
    @Test func explainOnShowsTheSQLOfGroupedRowsAboveTheirTable() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("b.db"),
                """
                CREATE TABLE spend (id INTEGER PRIMARY KEY, payee TEXT, amount REAL);
                INSERT INTO spend (payee, amount) VALUES ('Aldi', 10), ('Aldi', 12), ('Landlord', 900), ('Cinema', 15), ('Aldi', 9);
                """
            ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["b.db"], columns: 160)
        try await repl.waitForPrompt()
        #expect(try await repl.enter(".explain on").isEmpty)
        let line = #"fetch{ "spend", predicate = "amount < %@", args = { 100 }, properties = { "payee", "count(*) AS n" }, group = { "payee" } }"#
        let shown = try await repl.enter(line)
        // Rows wrap at the pane's width: the text is read back as one.
        let text = shown.joined()
        let sqlAt = try #require(shown.firstIndex { $0.hasPrefix("SQL: SELECT ") }, "\(shown)")
        #expect(text.contains("GROUP BY") && text.contains("\"amount\" < ?"), "\(shown)")
        #expect(shown.contains { $0.hasPrefix("arguments: [100") } && shown.contains("plan:"), "\(shown)")
        // The table follows, its rows as without `.explain`.
        let headerAt = try #require(shown.firstIndex { $0.hasPrefix("payee") }, "\(shown)")
        #expect(sqlAt < headerAt, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("Aldi") && $0.hasSuffix("| 3") } && shown.last == "(2 rows)", "\(shown)")
        // Off again: the rows alone.
        #expect(try await repl.enter(".explain off").isEmpty)
        let plain = try await repl.enter(line)
        #expect(!plain.contains { $0.hasPrefix("SQL: ") } && plain.first?.hasPrefix("payee") == true, "\(plain)")
    }
}
