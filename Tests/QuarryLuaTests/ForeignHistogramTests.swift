import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A file Quarry did not create may hold text in a number column (a Django or GTFS file's
/// `''` in an INTEGER column). Text is no number: the histogram bins the numbers and counts
/// the text apart, where it used to refuse the column (text sorts above every number, so
/// it was the column's maximum).
@Suite struct ForeignHistogramTests {
    @Test func textInANumberColumnIsCountedApartAndTheNumbersBinned() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("m.db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE m (id INTEGER PRIMARY KEY, x REAL)")
            try db.execute(sql: "INSERT INTO m (x) VALUES (1.5), (2.5)")
        }
        let context = try StoreOpener.open(path)
        defer { context.close() }
        let before = try HistogramRequest(FetchRequest(entityName: "m"), key: "x", bins: 2).execute(in: context)
        #expect(before.buckets.map(\.count) == [1, 1])
        #expect(before.texts == 0)
        try queue.write { db in try db.execute(sql: "INSERT INTO m (x) VALUES ('oops'), (''), (x'00'), (NULL), (4.5)") }
        let after = try HistogramRequest(FetchRequest(entityName: "m"), key: "x", bins: 3).execute(in: context)
        // 1.5, 2.5 and 4.5 binned over 1.5 ... 4.5; 'oops', '' and the blob counted apart.
        #expect(after.buckets.map(\.count) == [1, 1, 1], "\(after.buckets)")
        #expect(after.buckets.first?.lower == 1.5 && after.buckets.last?.upper == 4.5)
        #expect(after.texts == 3)
        #expect(after.nonFinite == 0)
        // Only text: no bucket, every cell counted.
        try queue.write { db in try db.execute(sql: "DELETE FROM m WHERE typeof(x) IN ('integer', 'real')") }
        let onlyText = try HistogramRequest(FetchRequest(entityName: "m"), key: "x", bins: 3).execute(in: context)
        #expect(onlyText.buckets.isEmpty && onlyText.texts == 3)
    }
}
