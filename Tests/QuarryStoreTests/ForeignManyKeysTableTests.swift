import Foundation
import GRDB
import QuarryModel
import QuarryStores
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
}
