import Foundation
import Testing

/// `.schema` of a `WITHOUT ROWID` table keyed by text, now an entity (issue 60): its
/// attributes as for any table, and `--sql` the file's own CREATE TABLE (not the TEMP
/// view Quarry reads it through); `.tables` names the table, as sqlite3 does.
@Suite(.serialized) struct WithoutRowidSchemaTests {
    @Test func schemaShowsTheTablesOwnSQL() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path("w.db"),
                """
                CREATE TABLE country (iso TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
                INSERT INTO country VALUES ('FR', 'France');
                """
            ])
        try #require(made.status == 0, "\(made)")
        let repl = try await TmuxSession(sandbox, arguments: ["w.db"])
        try await repl.waitForPrompt()
        let sql = try await repl.enter(".schema --sql country")
        #expect(sql.first == "CREATE TABLE country (iso TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;", "\(sql)")
        let schema = try await repl.enter(".schema country")
        #expect(schema.contains { $0.contains("iso") } && schema.contains { $0.contains("name") }, "\(schema)")
        let tables = try await repl.enter(".tables")
        // The file's table, as sqlite3's .tables names it, not the TEMP view it is read through.
        #expect(tables.contains { $0.split(separator: " ", omittingEmptySubsequences: true).filter { $0 == "country" }.count == 2 }, "\(tables)")
        #expect(!tables.contains { $0.contains("quarry_rows") }, "\(tables)")
        #expect(try await repl.enter(#"print(country:first("iso == 'FR'").name)"#).contains("France"))
    }
}
