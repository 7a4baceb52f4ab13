import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `StoreDiff` on an ordered relationship (the cars store with `Person.cars` ordered, as
/// `CoreDataOrderedTests.cars()` makes it): two members swapped by `sqlite3`-style SQL
/// on the `Z_FOK_` column are one move, reported with both places, and nothing else.
@Suite struct DiffOrderTests {
    @Test func twoMembersSwappedInAnOrderedToManyAreOneMove() throws {
        let fixture = try CoreDataOrderedTests.cars()
        // An owner with three cars or more, and its first two in stored order.
        let owner = try #require(
            try fixture.sql.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING count(*) >= 3 ORDER BY ZOWNER LIMIT 1")
            })
        let order = try fixture.sql.read { db in
            try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER", arguments: [owner])
        }
        let copy = URL(fileURLWithPath: fixture.path).deletingLastPathComponent().appendingPathComponent("moved.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: copy)
        let writer = try DatabaseQueue(path: copy)
        try writer.write { db in
            try db.execute(
                sql: """
                    UPDATE ZCAR SET Z_FOK_OWNER = CASE Z_PK WHEN ?1 THEN (SELECT Z_FOK_OWNER FROM ZCAR WHERE Z_PK = ?2)
                        ELSE (SELECT Z_FOK_OWNER FROM ZCAR WHERE Z_PK = ?1) END WHERE Z_PK IN (?1, ?2)
                    """, arguments: [order[0], order[1]])
        }
        try writer.close()
        let a = try StoreOpener.open(fixture.path, readOnly: true, model: fixture.model)
        let b = try StoreOpener.open(copy, readOnly: true, model: fixture.model)
        let diff = try StoreDiff.compare(a, b)
        #expect(diff.model.isEmpty)
        #expect(
            diff.changes == [
                ObjectChange(
                    .changed, entity: "Person", key: [.integer(owner)], property: "cars", old: .text("Car/\(order[0]) at 1"),
                    new: .text("Car/\(order[0]) at 2"))
            ], "\(diff.changes)")
        #expect(try StoreDiff.compare(a, a).isEmpty)
    }

    @Test func theLongestRunKeptInOrderLeavesTheFewestMoves() {
        #expect(StoreDiff.longestIncreasingRun([]) == [])
        #expect(StoreDiff.longestIncreasingRun([0, 1, 2]) == [0, 1, 2])
        #expect(StoreDiff.longestIncreasingRun([2, 0, 1]) == [1, 2])
        #expect(StoreDiff.longestIncreasingRun([3, 0, 1, 2, 4]).count == 4)
    }
}
