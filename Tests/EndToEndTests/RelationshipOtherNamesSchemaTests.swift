import Foundation
import QuarryTestSupport
import Testing

/// `.schema` shows every name a relationship answers to (issue 60, item 4): after its
/// line, a comment names the names earlier rules gave it (`post_set`, `tag_name_tags`,
/// `flight_set`), so the line itself still runs as printed.
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
        /// The line after the first that begins with `line`.
        func after(_ line: String) -> String? {
            guard let i = lines.firstIndex(where: { $0.hasPrefix(line) }), i + 1 < lines.count else { return nil }
            return lines[i + 1]
        }
        #expect(after(#"  posts = { many = "post", inverse = "account""#) == "  -- posts is also read as post_set", "\(result)")
        #expect(after(#"  tags = { many = "tags", inverse = "posts""#) == "  -- tags is also read as tag_name_tags", "\(result)")
        #expect(
            after(#"-- tag: to-one to tags by tag_name (already read so; relate("post_tags", "tag_name", "tags", "name", "tag")"#)?.hasPrefix(
                "-- tag is also read as tag_name_tag") == true,
            "\(result)")
        #expect(after(#"  flights = { many = "flight", inverse = "airline""#) == "  -- flights is also read as flight_set", "\(result)")
        // A relationship that never had another name gets no such line.
        #expect(
            after(#"-- account: to-one to account by account_id (already read so; relate("post", "account_id", "account", "id", "account")"#)?
                .contains("also read as") != true, "\(result)")
    }
}
