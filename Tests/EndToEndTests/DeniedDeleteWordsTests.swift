import Foundation
import QuarryTestSupport
import Testing

/// A delete held back by a link on a file Quarry did not create says which column names
/// the row, what made the link (`relate()`, or the file's foreign key with its own rule),
/// and what lets the delete through.
@Suite struct DeniedDeleteWordsTests {
    /// A delete held back by a link says the column that names the row, what made the
    /// link (`relate()`, or the file's key with its own rule) and what lets it through.
    @Test func aDeniedDeleteNamesTheColumnAndTheRule() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE Survey (sid INTEGER PRIMARY KEY, taken INTEGER);
            CREATE TABLE Visited (id TEXT PRIMARY KEY, site TEXT);
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id) ON DELETE RESTRICT);
            INSERT INTO Visited VALUES ('900', 'DR-1');
            INSERT INTO Survey VALUES (1, 900);
            INSERT INTO parent VALUES (1);
            INSERT INTO child VALUES (1, 1);
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "c.db", file: "schema.sql")
        let result = try await sandbox.quarry([
            "c.db", "-e",
            #"""
            relate("Survey", "taken", "Visited", "id")
            print(pcall(function() Visited:get("900"):delete() end))
            print(pcall(function() parent:get(1):delete() end))
            print(haschanges())
            """#
        ])
        #expect(
            result.lines.contains {
                $0.hasSuffix(
                    "(Survey.taken names it by its id, a link relate() made, which keeps a row others name "
                        + "as a foreign key ON DELETE NO ACTION does; delete those Survey objects or change their taken first)")
            }, "\(result)")
        #expect(
            result.lines.contains {
                $0.hasSuffix(
                    "(child.parent_id names it, and the file's foreign key on it is ON DELETE RESTRICT, which keeps a row others name; "
                        + "delete those child objects or change their parent_id first)")
            }, "\(result)")
        #expect(result.lines.last == "false", "\(result)")
    }
}
