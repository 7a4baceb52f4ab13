import Foundation
import QuarryTestSupport
import Testing

/// `.schema` shows every name a relationship answers to (issue 60, item 4): at the end of
/// its line, a comment names the names earlier rules gave it (`post_set`, `tag_name_tags`,
/// `flight_set`), once, so the line itself still runs as printed.
@Suite struct RelationshipOtherNamesSchemaTests {
    @Test func schemaShowsTheOtherNamesOfEveryRelationship() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE tags (name TEXT PRIMARY KEY);
            CREATE TABLE post (id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES account (id), title TEXT);
            CREATE TABLE post_tags (post_id INTEGER REFERENCES post (id), tag_name TEXT REFERENCES tags (name), PRIMARY KEY (post_id, tag_name));
            CREATE TABLE airline (carrier TEXT, name TEXT);
            CREATE TABLE flight (carrier TEXT, num INTEGER);
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "blog.db", file: "schema.sql")
        let result = try await sandbox.quarry(
            ["blog.db", "-"],
            stdin: "relate(\"flight\", \"carrier\", \"airline\", \"carrier\")\n.schema account\n.schema post\n.schema post_tags\n.schema airline\n")
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        /// The first line that begins with `line`.
        func line(_ start: String) -> String? { lines.first { $0.hasPrefix(start) } }
        // Said once, at the end of the relationship's own line (a comment there).
        #expect(line(#"  posts = { many = "post", inverse = "account""#)?.hasSuffix("},  -- also read as post_set") == true, "\(result)")
        #expect(line(#"  tags = { many = "tags", inverse = "posts""#)?.hasSuffix("},  -- also read as tag_name_tags") == true, "\(result)")
        #expect(
            line(#"-- tag: to-one to tags by tag_name (the file's foreign key; relate("post_tags", "tag_name", "tags", "name", "tag")"#)?.contains(
                "); also read as tag_name_tag") == true,
            "\(result)")
        #expect(line(#"  flights = { many = "flight", inverse = "airline""#)?.hasSuffix("},  -- also read as flight_set") == true, "\(result)")
        // A relationship that never had another name says none.
        #expect(
            line(#"-- account: to-one to account by account_id (the file's foreign key; relate("post", "account_id", "account", "id", "account")"#)?
                .contains("also read as") == false, "\(result)")
        #expect(!lines.contains { $0.hasPrefix("-- ") && $0.contains(" is also read as ") }, "\(result)")
    }
}
