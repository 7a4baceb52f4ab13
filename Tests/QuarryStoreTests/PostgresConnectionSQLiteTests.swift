import Foundation
import QuarryPostgreSQL
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A server's connection has no SQLite database behind it (there was once an empty one
/// that refused every statement): what reads SQLite directly is refused in one line that
/// names the engine it needs, while the store's own paths (an import's COPY) work.
/// Against a real server (`PostgresServer`): the test fails, never skips, without one.
@Suite struct PostgresConnectionSQLiteTests {
    @Test func aServersConnectionHasNoSQLiteDatabase() throws {
        let url = try PostgresServer.database("nosqlite")
        let context = try StoreRegistry.open(url)
        #expect(context.connection.sqlite == nil)
        #expect(throws: StoreConnection.needsEngine("SQLite")) { _ = try context.connection.database }
        #expect(throws: StoreConnection.needsEngine("SQLite")) { try context.connection.read { _ in 1 } }

        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("nosqlite-\(UUID().uuidString).csv")
        try "n,name\n1,a\n2,b\n".write(to: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: csv) }
        let summary = try ImportRequest(csv.path, into: "Imported").execute(in: context)
        #expect(summary.rows == 2)
        #expect(try context.connection.scalar("SELECT count(*) FROM \"Imported\"") == .integer(2))
    }
}
