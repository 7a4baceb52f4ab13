import Foundation
import QuarryFetch
import QuarryModel
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A Core Data row whose entity changed between two copies (its `Z_ENT` another
/// sub-entity's, its `Z_PK` kept): Core Data never changes an object's entity, so it is
/// one object deleted from its entity and another inserted into the other.
@Suite struct DiffRowEntityTests {
    @Test func aRowMovedToAnotherSubEntityIsDeletedFromOneAndInsertedIntoTheOther() throws {
        let old = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let new = try StoreDiffTests.copy(old, as: "moved.sqlite")
        let a = try StoreOpener.open(old, readOnly: true)
        guard case .integer(let car)? = try a.connection.scalar("SELECT min(Z_PK) FROM ZCAR WHERE Z_ENT = 1"),
            case .integer(let sport)? = try a.connection.scalar("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'SportCar'")
        else {
            Issue.record("the cars store has no Car row, or no SportCar entity")
            return
        }
        try StoreDiffTests.sqlite3(new, "UPDATE ZCAR SET Z_ENT = \(sport) WHERE Z_PK = \(car);")
        let b = try StoreOpener.open(new, readOnly: true)
        let diff = try StoreDiff.compare(a, b)
        #expect(
            diff.changes == [
                ObjectChange(.deleted, entity: "Car", key: [.integer(car)]), ObjectChange(.inserted, entity: "SportCar", key: [.integer(car)])
            ], "\(StoreDiffTests.lines(diff))")
        #expect(try StoreDiff.compare(a, a).isEmpty)
    }
}
