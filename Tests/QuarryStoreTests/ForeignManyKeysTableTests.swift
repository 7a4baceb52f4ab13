import Foundation
import GRDB
import QuarryModel
import QuarryPostgreSQL
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryStore

/// A table of as many foreign keys as SQLite's result row leaves room for (issue 81):
/// each key's column is read twice (attribute and link), and following a link reads one
/// column more, so the columns left out at open are enough for every link to read.
@Suite struct ForeignManyKeysTableTests {
    @Test func aTableOfAThousandForeignKeysReadsThroughEachLink() throws {
        let keys = (1...1000).map { "p\($0) INTEGER REFERENCES p(id)" }.joined(separator: ", ")
        let path = try SQLiteAndPostgresTypedErrorTests.foreignFile(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE ts (id INTEGER PRIMARY KEY, \(keys));
            INSERT INTO p VALUES (1), (2);
            INSERT INTO ts (id, p1, p2, p1000) VALUES (1, 1, 2, 1), (2, 1, 1, 2);
            """)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let context = try OpenFileRequest.open(path: path)
            // The key, 998 columns and the 1,000 keys' columns again, and one for a link.
            #expect(
                context.openingNotes == [
                    "ts has 1001 columns, more than one row can hold with its key and links (SQLite returns at most 2000): the last 3 are left out"
                ], "\(context.openingNotes)")
            let one = try #require(try context.object(entityName: "p", primaryKey: 1))
            let two = try #require(try context.object(entityName: "p", primaryKey: 2))
            // The rows sqlite3 reads: p1 = 1 in both, p2 = 2 in the first, p1000 = 2 in the second.
            #expect(try context.relatedObjects("ts", of: one).compactMap(\.primaryKey) == [1, 2])
            #expect(try context.relatedObjects("ts_as_p2_p", of: two).compactMap(\.primaryKey) == [1])
            #expect(try context.relatedObjects("ts_as_p1000_p", of: two).compactMap(\.primaryKey) == [2])
            let row = try #require(try context.object(entityName: "ts", primaryKey: 1))
            #expect(try context.relatedObject("p2_p", of: row)?.primaryKey == 2)
            #expect(try context.relatedObject("p1000_p", of: row)?.primaryKey == 1)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "reading wrote to the file")
    }

    /// The same on PostgreSQL, whose target list holds 1,664 entries (a table holds 1,600
    /// columns): 900 keys to one table.
    @Test func aTableOfNineHundredForeignKeysReadsThroughEachLinkOnPostgreSQL() throws {
        let url = try PostgresServer.database("manykeys")
        let setup = try PostgresConnection(url: url)
        let keys = (1...900).map { "p\($0) int REFERENCES p(id)" }.joined(separator: ", ")
        try setup.execute("CREATE TABLE p (id int PRIMARY KEY)")
        try setup.execute("CREATE TABLE ts (id int PRIMARY KEY, \(keys))")
        try setup.execute("INSERT INTO p VALUES (1), (2)")
        try setup.execute("INSERT INTO ts (id, p1, p2, p900) VALUES (1, 1, 2, 1), (2, 1, 1, 2)")
        let context = try StoreRegistry.open(url)
        // The key, 762 columns and the 900 keys' columns again, and one for a link.
        #expect(
            context.openingNotes == [
                "ts has 901 columns, more than one row can hold with its key and links (PostgreSQL returns at most 1664): the last 139 are left out"
            ], "\(context.openingNotes)")
        let one = try #require(try context.object(entityName: "p", primaryKey: 1))
        let two = try #require(try context.object(entityName: "p", primaryKey: 2))
        #expect(try context.relatedObjects("ts", of: one).compactMap(\.primaryKey) == [1, 2])
        #expect(try context.relatedObjects("ts_as_p2_p", of: two).compactMap(\.primaryKey) == [1])
        #expect(try context.relatedObjects("ts_as_p900_p", of: two).compactMap(\.primaryKey) == [2])
        let row = try #require(try context.object(entityName: "ts", primaryKey: 1))
        #expect(try context.relatedObject("p900_p", of: row)?.primaryKey == 1)
    }
}
