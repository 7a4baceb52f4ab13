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

/// A file Quarry did not create may hold text in a number column; text sorts above every
/// number, so it is the column's maximum. A histogram then says which column holds what,
/// in one line, where it used to stop the process converting the text to a number.
@Suite struct ForeignHistogramTests {
    @Test func textInANumberColumnIsAnErrorNamingItNotACrash() throws {
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
        let (_, buckets, _) = try HistogramRequest(FetchRequest(entityName: "m"), key: "x", bins: 2).execute(in: context)
        #expect(buckets.map(\.count) == [1, 1])
        try queue.write { db in try db.execute(sql: "INSERT INTO m (x) VALUES ('oops')") }
        #expect(throws: StoreError.unexpectedValue(table: "m", column: "x", found: "text", expected: "a number")) {
            _ = try HistogramRequest(FetchRequest(entityName: "m"), key: "x", bins: 2).execute(in: context)
        }
    }
}
