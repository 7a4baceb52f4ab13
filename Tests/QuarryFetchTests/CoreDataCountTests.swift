import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A count of every row of a Core Data entity reads the entity's Z-table with its view's
/// filter: the view, whose columns SQLite would make and prepare, is never made, and the
/// numbers are those the view gives.
@Suite struct CoreDataCountTests {
    @Test func everyRowIsCountedWithoutItsView() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let context = try StoreOpener.open(path)
        defer { context.close() }
        // A root, a sub-entity (a Z_ENT filter) and one with sub-entities of its own.
        var counted: [String: Int] = [:]
        for name in ["Car", "SportCar", "ExpensiveSportCar", "Person"] {
            counted[name] = try FetchRequest(entityName: name).count(in: context)
        }
        // Read inside a closure, where the connection makes no view it has deferred.
        let made = try context.connection.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_temp_master WHERE type = 'view'")
        }
        #expect(made == 0)

        for (name, n) in counted {
            let throughView = try context.connection.readKeys("SELECT count(*) FROM \"\(name)\"", arguments: [])
            #expect(throughView == [Int64(n)], "\(name)")
        }
        #expect(counted["Car"] == 125)
        #expect(counted["SportCar", default: 0] > 0)
        #expect(counted["SportCar", default: 0] < 125)

        // Own rows only, a predicate, or a limit: through the view, as before.
        var own = FetchRequest(entityName: "SportCar")
        own.includesSubentities = false
        let ownRows = try own.count(in: context)
        #expect(ownRows <= counted["SportCar", default: 0])
        var limited = FetchRequest(entityName: "Car")
        limited.limit = 10
        #expect(try limited.count(in: context) == 10)
    }
}
