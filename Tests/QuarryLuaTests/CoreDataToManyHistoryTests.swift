import Foundation
import GRDB
import QuarryCoreData
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// A to-one whose inverse is a to-many changes that to-many too: on Apple's Screen Time
/// store (`screentime/`), moving a `UsageCountedItem` to another `UsageBlock`, or adding a
/// new one to a block, Core Data records an update of each block whose `countedItems`
/// changed (the old and the new one), with that to-many's bit set, as its own rows in the
/// store do (transaction 120: two inserted items, their blocks updated with 0x1020).
/// Quarry recorded the item's row only (issue 81).
@Suite struct CoreDataToManyHistoryTests {
    /// The update rows of the store's last transaction: entity number, key, vector.
    static func lastUpdates(_ path: String) throws -> [(Int64, Int64, Data)] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT ZENTITY, ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZCHANGETYPE = 1
                    AND ZTRANSACTIONID = (SELECT max(Z_PK) FROM ATRANSACTION) ORDER BY ZENTITY, ZENTITYPK
                    """
            ).map { ($0[0], $0[1], $0[2]) }
        }
    }

    /// The vectors Core Data itself wrote for UsageBlock updates (entity 25).
    static func ownBlockVectors(_ path: String) throws -> [Data] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Data.fetchAll(db, sql: "SELECT ZCOLUMNS FROM ACHANGE WHERE ZCHANGETYPE = 1 AND ZENTITY = 25") }
    }

    @Test func movingAndAddingAnItemUpdatesTheBlocksToMany() throws {
        let path = try CoreDataFixtures.copyOfStore("screentime/RMAdminStore-Local.sqlite")
        let own = try Self.ownBlockVectors(path)
        let h = try Harness(context: try StoreOpener.open(path))
        let model = try #require(CoreDataStore.behind(h.context)?.model)
        let order = PersistentHistoryColumns.coreDataOrder(of: "UsageBlock", in: model)
        let slot = try #require(order.firstIndex(of: "countedItems"))
        let expected = PersistentHistoryColumns.columns(changed: ["countedItems"], of: "UsageBlock", in: model)
        // Core Data's own rows set this very bit when items come and go.
        #expect(own.contains { $0.count > slot / 8 && $0[slot / 8] & (UInt8(0x80) >> UInt8(slot % 8)) != 0 })
        h.run(
            #"""
            item = UsageCountedItem:first("block != nil")
            old = item.block
            new = UsageBlock:first("SELF != %@", old)
            item.block = new
            save()
            """#)
        let key = { (name: String) throws -> Int64 in
            let id = try #require(h.string("\(name):objectID()"))
            return try #require(Int64(id.split(separator: "/").last ?? ""), "\(id)")
        }
        let (old, new, item) = (try key("old"), try key("new"), try key("item"))
        let moved = try Self.lastUpdates(path)
        #expect(moved.filter { $0.0 == 25 }.map(\.1) == [old, new].sorted(), "\(moved)")
        #expect(moved.filter { $0.0 == 25 }.allSatisfy { $0.2 == expected }, "\(moved)")
        #expect(moved.contains { $0.0 == 27 && $0.1 == item }, "the item's own update: \(moved)")
        // A new item in a block: the block is updated in its to-many.
        h.run(#"UsageCountedItem:new{ block = new, bundleIdentifier = "quarry.test" }; save()"#)
        let added = try Self.lastUpdates(path)
        #expect(added.map(\.0) == [25] && added.map(\.1) == [new] && added.first?.2 == expected, "\(added)")
    }
}
