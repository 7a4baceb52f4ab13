import Foundation
import GRDB
import QuarryModel
import QuarryPostgreSQL
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarrySQLite
@testable import QuarryStore

/// A Core Data store's views are made when SQL first reads them (`DeferredViews`): opening
/// makes none, a read makes those it names (however SQLite would spell them), SQL hidden
/// in a closure makes its view when SQLite misses it, and a write makes them all first.
@Suite struct SQLiteDeferredViewsTests {
    static func views(_ context: ObjectContext) throws -> [String] {
        try context.connection.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_temp_master WHERE type = 'view' ORDER BY name") }
    }

    @Test func viewsAreMadeAtTheirFirstRead() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        #expect(try Self.views(context) == [])

        // A request's SQL, read through the connection.
        let cars = try context.connection.readKeys("SELECT count(*) FROM \"Car\"", arguments: [])
        #expect(cars == [125])
        #expect(try Self.views(context) == ["Car"])

        // SQL a person wrote, in lower case and unquoted.
        let people = try context.connection.prepareReadOnly("select count(*) from person") { query in
            var n: Int64 = -1
            try query?.forEachRow(arguments: []) { row in if case .integer(let v) = row.value(at: 0) { n = v } }
            return n
        }
        let stored = try context.connection.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM main.ZPERSON") }
        #expect(people == stored)
        #expect(try Self.views(context) == ["Car", "Person"])

        // SQL inside a closure: SQLite misses the view, which is made, and the read runs again.
        let sport = try context.connection.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM SportCar") }
        let sportRows = try context.connection.read { db in
            try Int64.fetchOne(
                db,
                sql:
                    "SELECT count(*) FROM main.ZCAR WHERE Z_ENT IN (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME IN ('SportCar', 'ExpensiveSportCar'))"
            )
        }
        #expect(sport == sportRows)
        #expect(try Self.views(context) == ["Car", "Person", "SportCar"])

        // SQL reading the schema sees every view.
        let listed = try context.connection.prepareReadOnly("SELECT count(*) FROM sqlite_temp_master WHERE type = 'view'") { query in
            var n: Int64 = -1
            try query?.forEachRow(arguments: []) { row in if case .integer(let v) = row.value(at: 0) { n = v } }
            return n
        }
        #expect(listed == 4)

        // A table that is no view of the store is still SQLite's error.
        #expect(throws: StoreError.self) { try context.connection.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM Garage") } }
    }

    @Test func aWriteMakesEveryViewFirst() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        let person = try #require(try context.object(entityName: "Person", primaryKey: 1))
        #expect(try Self.views(context) == ["Person"])
        try person.setValue(.text("Deferred"), forKey: "lastName")
        _ = try context.save()
        #expect(try Self.views(context) == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        #expect(try context.connection.read { db in try String.fetchOne(db, sql: "SELECT ZLASTNAME FROM main.ZPERSON WHERE Z_PK = 1") } == "Deferred")
    }

    /// A foreign file's views are made when first read: opening makes none of them, a
    /// view that shows a table's rowid is keyed by it, a grouping by its rows' places,
    /// and SQL a person writes still reads the file's own views.
    @Test func aForeignFilesViewsAreKeyedWhenFirstRead() throws {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("views.db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE item (id INTEGER PRIMARY KEY, kind TEXT, price REAL);
                    INSERT INTO item VALUES (3, 'a', 1.5), (5, 'b', 2.0), (8, 'a', 4.0);
                    CREATE VIEW priced AS SELECT id, price FROM item;
                    CREATE VIEW kinds AS SELECT 1 AS id, kind, sum(price) AS total FROM item GROUP BY kind;
                    """)
        }
        try queue.close()
        let context = try OpenFileRequest.open(path: path, readOnly: true)
        defer { context.close() }
        #expect(try Self.views(context) == [])
        #expect(try context.object(entityName: "priced", primaryKey: 5)?.value(forKey: "price") == .real(2.0))
        #expect(try Self.views(context) == ["quarry_rows priced"])
        // Both of its rows have id 1: they are the rows at places 1 and 2.
        let kinds = try context.connection.read { db in try Row.fetchAll(db, sql: "SELECT _row, kind, total FROM \"quarry_rows kinds\" ORDER BY _row")
        }
        #expect(kinds.map { [$0[0] as Int64? ?? -1] } == [[1], [2]])
        #expect(try context.object(entityName: "kinds", primaryKey: 2)?.value(forKey: "total") == .real(2.0))
        #expect(try Self.views(context) == ["quarry_rows kinds", "quarry_rows priced"])
        let own = try context.connection.prepareReadOnly("SELECT * FROM priced") { query in query?.columnNames ?? [] }
        #expect(own == ["id", "price"])
    }

    /// A first read of a schema's view stopped (Ctrl-C) leaves the view to be read by the
    /// next, keyed by the id its definition shows as if never stopped (once, a stopped
    /// check of its rows keyed it by their places, or left it never made).
    @Test func aStoppedCheckLeavesTheViewForTheNextRead() throws {
        let url = try PostgresServer.database("stoppedviewcheck")
        let setup = try PostgresConnection(url: url)
        try setup.execute("CREATE TABLE item (id integer PRIMARY KEY, price float8)")
        try setup.execute("INSERT INTO item VALUES (3, 1.5), (5, 2.0), (8, 4.0)")
        // Slow enough to be stopped while the server reads it.
        try setup.execute("CREATE VIEW slow AS SELECT id, price FROM item WHERE pg_sleep(0.2) IS NOT NULL")
        let context = try StoreRegistry.open(url)
        let server = try #require((context.connection.engine as? PostgresEngine)?.server)
        server.shouldStop = { true }
        #expect(throws: StoreError.self) { try context.object(entityName: "slow", primaryKey: 5) }
        server.shouldStop = { false }
        #expect(try context.object(entityName: "slow", primaryKey: 5)?.value(forKey: "price") == .real(2.0))
    }
}
