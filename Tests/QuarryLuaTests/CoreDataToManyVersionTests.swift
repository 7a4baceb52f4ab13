import Foundation
import GRDB
import QuarryShell
import QuarryTestSupport
import Testing

/// Core Data counts a change to an object's to-many as a write of it: the owner's `Z_OPT`
/// goes up by 1 though none of its columns changed. A SwiftData store of a trial (issue 80)
/// shows it: a recipe's `Z_OPT` rose with each component added to it, while Quarry's save
/// left it, so the app's optimistic locking could not see the change.
@Suite struct CoreDataToManyVersionTests {
    @Test func movingACarRaisesBothOwnersVersionsOnce() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let sql = try DatabaseQueue(path: path)
        func versions() throws -> [Int64: Int64] {
            try sql.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, Z_OPT FROM ZPERSON")
                return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as Int64) })
            }
        }
        func carVersion(_ key: Int64) throws -> Int64? {
            try sql.read { db in try Int64.fetchOne(db, sql: "SELECT Z_OPT FROM ZCAR WHERE Z_PK = ?", arguments: [key]) }
        }
        let owner = try #require(try sql.read { db in try Int64.fetchOne(db, sql: "SELECT ZOWNER FROM ZCAR WHERE Z_PK = 1") })
        let other = try #require(
            try sql.read { db in try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ZPERSON WHERE Z_PK != ? LIMIT 1", arguments: [owner]) })
        let before = try versions()
        let car = try #require(try carVersion(1))
        let h = try Harness(context: try StoreOpener.open(path))
        // The car moves to another person: both persons' `cars` changed, and the car's row.
        h.run("local c = Car:get(1) c.owner = Person:get(\(other)) save()")
        var after = try versions()
        #expect(after[owner] == before[owner].map { $0 + 1 } && after[other] == before[other].map { $0 + 1 }, "\(before) → \(after)")
        #expect(after.filter { $0.key != owner && $0.key != other } == before.filter { $0.key != owner && $0.key != other })
        #expect(try carVersion(1) == car + 1)
        // The owner's own change in the same save counts once, not twice.
        let again = after
        h.run("local c = Car:get(1) c.owner = Person:get(\(owner)) Person:get(\(owner)).firstName = 'Zed' save()")
        after = try versions()
        #expect(after[owner] == again[owner].map { $0 + 1 } && after[other] == again[other].map { $0 + 1 }, "\(again) → \(after)")
        // Nothing moved: nothing goes up.
        let still = after
        h.run("local c = Car:get(1) c.owner = Person:get(\(owner)) save()")
        #expect(try versions() == still)
    }
}
