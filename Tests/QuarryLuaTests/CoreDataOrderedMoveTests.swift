import Foundation
import GRDB
import QuarryCoreData
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `s:insert(i, x)` and `s:move(from, to)` on ordered to-many relationships, as an
/// `NSMutableOrderedSet` places members: in memory at once, in the store's `Z_FOK_`
/// values at save (members whose values already run in order keep them), heard by
/// observers and recorded in the persistent history as an update of the owner's
/// relationship. Photos.app's store has real ordered many-to-many relationships
/// (`Z_28ASSETS.Z_FOK_3ASSETS`: an album's assets); the one-to-many case uses the cars
/// store made ordered (`CoreDataOrderedTests.cars()`). Every answer is checked with SQL.
@Suite struct CoreDataOrderedMoveTests {
    static let keysFunction =
        #"function keys(s) local t = {} for _, o in ipairs(s) do t[#t + 1] = o:objectID():match("%d+$") end return table.concat(t, ",") end"#

    /// A copy of Photos' store, with a read-only connection for checking it.
    struct Photos {
        let path: String
        let sql: DatabaseQueue
        init() throws {
            path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
            var configuration = Configuration()
            configuration.readonly = true
            sql = try DatabaseQueue(path: path, configuration: configuration)
        }
        func open() throws -> Harness {
            let h = try Harness(context: try StoreOpener.open(path))
            h.run(CoreDataOrderedMoveTests.keysFunction)
            return h
        }
        func order(of album: Int64) throws -> [Int64] {
            try sql.read { db in
                try Int64.fetchAll(db, sql: "SELECT Z_3ASSETS FROM Z_28ASSETS WHERE Z_28ALBUMS = ? ORDER BY Z_FOK_3ASSETS", arguments: [album])
            }
        }
        func positions(of album: Int64) throws -> [Int64: Int64] {
            try sql.read { db in
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(
                        db, sql: "SELECT Z_3ASSETS, Z_FOK_3ASSETS FROM Z_28ASSETS WHERE Z_28ALBUMS = ?", arguments: [album]
                    )
                    .map { ($0[0] as Int64, $0[1] as Int64) })
            }
        }
    }

    static func joined(_ keys: [Int64]) -> String { keys.map(String.init).joined(separator: ",") }

    @Test func anAlbumsAssetsMoveAndTakeAnInsertedOneWhereCoreDataReadsThem() throws {
        let photos = try Photos()
        // An album with at least three assets, and an asset in none of its.
        let album = try #require(
            try photos.sql.read { db in
                try Int64.fetchOne(db, sql: "SELECT Z_28ALBUMS FROM Z_28ASSETS GROUP BY Z_28ALBUMS HAVING count(*) >= 3 ORDER BY Z_28ALBUMS LIMIT 1")
            })
        let before = try photos.order(of: album)
        let oldPositions = try photos.positions(of: album)
        let outsider = try #require(
            try photos.sql.read { db in
                try Int64.fetchOne(
                    db,
                    sql: "SELECT Z_PK FROM ZASSET WHERE Z_PK NOT IN (SELECT Z_3ASSETS FROM Z_28ASSETS WHERE Z_28ALBUMS = ?) ORDER BY Z_PK LIMIT 1",
                    arguments: [album])
            })
        let lastTransaction = try photos.sql.read { db in try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM ATRANSACTION") } ?? 0
        // The last asset moved to the front, then the outsider placed second.
        var expected = before
        expected.insert(expected.removeLast(), at: 0)
        expected.insert(outsider, at: 1)
        let h = try photos.open()
        h.run(
            #"""
            a = GenericAlbum:get("GenericAlbum/\#(album)")
            a.assets:move(#a.assets, 1)
            a.assets:insert(2, Asset:get("Asset/\#(outsider)"))
            """#)
        #expect(h.string("keys(a.assets)") == Self.joined(expected), "in memory before the save")
        h.run("save()")
        #expect(try photos.order(of: album) == expected)
        #expect(h.string("keys(a.assets)") == Self.joined(expected))
        let after = try photos.positions(of: album)
        // The members whose values still run in order keep them: all but the moved one.
        for key in before.dropLast() { #expect(after[key] == oldPositions[key], "Asset/\(key) was renumbered") }
        // The moved one and the inserted one fit below the first kept value, no renumbering.
        let firstKept = try #require(oldPositions[before[0]])
        let moved = try #require(after[expected[0]])
        let inserted = try #require(after[outsider])
        #expect(0 < moved && moved < inserted && inserted < firstKept)
        try photos.sql.read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            // One transaction, recording the album as updated in `assets` (and the join row
            // the insert added), as Core Data records a change of an ordered relationship.
            let transaction = try #require(try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM ATRANSACTION"))
            #expect(transaction == lastTransaction + 1)
            let changes = try Row.fetchAll(
                db, sql: "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = ?", arguments: [transaction])
            let albumEntity = try #require(try Int64.fetchOne(db, sql: "SELECT Z_ENT FROM ZGENERICALBUM WHERE Z_PK = ?", arguments: [album]))
            let update = try #require(changes.first { ($0[1] as Int64) == albumEntity && ($0[2] as Int64) == album })
            #expect((update[0] as Int64) == PersistentHistoryLayout.ChangeType.update.rawValue)
            let model = try #require(CoreDataStore.behind(h.context)?.model)
            let albumName = try #require(try String.fetchOne(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [albumEntity]))
            let bits = try #require(update[3] as Data?)
            #expect(PersistentHistoryColumns.names(in: bits, order: PersistentHistoryColumns.coreDataOrder(of: albumName, in: model)) == ["assets"])
        }
        // A fresh session reads the same order.
        #expect(try photos.open().string(#"keys(GenericAlbum:get("GenericAlbum/\#(album)").assets)"#) == Self.joined(expected))
    }

    @Test func aOneToManyMoveKeepsTheRunInOrderAndObserversHearTheOwner() throws {
        let fixture = try CoreDataOrderedTests.cars()
        let owner = try #require(
            try fixture.sql.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING count(*) >= 3 ORDER BY ZOWNER LIMIT 1")
            })
        let before = try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER", [owner]).split(separator: ",").map { Int64($0)! }
        let old = try fixture.sql.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT Z_PK, Z_FOK_OWNER, Z_OPT FROM ZCAR WHERE ZOWNER = ?", arguments: [owner]).map
                { ($0[0] as Int64, ($0[1] as Int64, $0[2] as Int64)) })
        }
        var expected = before
        expected.insert(expected.remove(at: 0), at: expected.count - 1)
        let h = try fixture.open()
        h.run(
            #"""
            p = Person:get("Person/\#(owner)")
            heard, keysHeard = {}, {}
            observe("Person", function(ch) for _, o in ipairs(ch.updated) do heard[#heard + 1] = o:objectID() end end)
            observe(p, { "cars" }, function(o, key) keysHeard[#keysHeard + 1] = key end)
            p.cars:move(1, #p.cars - 1)
            assert(#heard == 0, "observers hear the save, not the change")
            save()
            """#)
        #expect(h.string("table.concat(heard, ' ')") == "Person/\(owner)")
        #expect(h.string("table.concat(keysHeard, ' ')") == "cars")
        #expect(try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER", [owner]) == Self.joined(expected))
        try fixture.sql.read { db in
            for key in before {
                let row = try #require(try Row.fetchOne(db, sql: "SELECT Z_FOK_OWNER, Z_OPT FROM ZCAR WHERE Z_PK = ?", arguments: [key]))
                // Only the moved car's order value changes; no car's version does (no attribute was written).
                #expect((row[1] as Int64) == old[key]?.1)
                if key != before[0] { #expect((row[0] as Int64) == old[key]?.0, "Car/\(key) was renumbered") }
            }
            let moved = try #require(try Int64.fetchOne(db, sql: "SELECT Z_FOK_OWNER FROM ZCAR WHERE Z_PK = ?", arguments: [before[0]]))
            let neighbours = try #require(old[expected[expected.count - 3]]?.0)
            let next = try #require(old[expected[expected.count - 1]]?.0)
            #expect(neighbours < moved && moved < next, "placed between its new neighbours")
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }
        #expect(try fixture.open().string(#"keys(Person:get("Person/\#(owner)").cars)"#) == Self.joined(expected))
    }

    /// What an NSMutableOrderedSet does: inserting a member changes nothing, a member
    /// removed and added again goes last, a move undone is no change, rollback forgets it.
    @Test func membersArePlacedAsAnOrderedSetPlacesThem() throws {
        let fixture = try CoreDataOrderedTests.authors()
        let h = try fixture.open()
        h.run(
            #"""
            a = Author:new{ firstName = "Ada", lastName = "Lovelace" }
            b1, b2, b3, b4 = Book:new{ title = "One" }, Book:new{ title = "Two" }, Book:new{ title = "Three" }, Book:new{ title = "Four" }
            a.books:add(b1); a.books:add(b2); a.books:add(b3)
            save()
            function titles() local t = {} for _, b in ipairs(a.books) do t[#t + 1] = b.title end return table.concat(t, " ") end
            a.books:insert(1, b2)
            assert(titles() == "One Two Three" and not haschanges(), titles())
            a.books:move(3, 1); a.books:move(1, 3)
            assert(titles() == "One Two Three" and not haschanges(), "a move undone is no change")
            a.books:move(1, 2)
            assert(titles() == "Two One Three" and haschanges(), titles())
            a.books:remove(b2); a.books:add(b2)
            assert(titles() == "One Three Two", titles())
            a.books:insert(4, b4)
            assert(titles() == "One Three Two Four", titles())
            rollback()
            assert(titles() == "One Two Three", titles())
            a.books:insert(2, b4)
            a.books:move(4, 1)
            save()
            """#)
        #expect(h.string("titles()") == "Three One Four Two")
        #expect(
            try fixture.open().string(
                #"(function() local t = {} for _, b in ipairs(Author:first("lastName == 'Lovelace'").books) do t[#t + 1] = b.title end return table.concat(t, " ") end)()"#
            )
                == "Three One Four Two")
    }

    @Test func aRelationshipWithNoOrderOrAPositionOutsideIsRefusedWithOneLine() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: try StoreOpener.open(path))
        let owner = try #require(
            try DatabaseQueue(path: path).read { db in try Int64.fetchOne(db, sql: "SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL LIMIT 1") })
        h.run(#"p = Person:get("Person/\#(owner)")"#)
        let unordered = h.error("p.cars:move(1, 1)")
        #expect(unordered.contains("move: Person.cars is not ordered") && !unordered.contains("\n"), "\(unordered)")
        #expect(h.error("p.cars:insert(1, Car:new{ maker = 'x', model = 'y', numberPlate = 'z' })").contains("insert: Person.cars is not ordered"))
        let fixture = try CoreDataOrderedTests.cars()
        let ordered = try fixture.open()
        ordered.run(#"p = Person:get("Person/\#(owner)"); n = #p.cars"#)
        let count = try #require(Int(ordered.string("n") ?? ""))
        let outside = ordered.error("p.cars:move(\(count + 1), 1)")
        #expect(outside.contains("move: position \(count + 1) is outside Person/\(owner).cars: positions are 1 to \(count)"), "\(outside)")
        #expect(ordered.error("p.cars:insert(0, Car:get('Car/1'))").contains("insert: position 0 is outside"))
        #expect(ordered.error("p.cars:move(1.5, 1)").contains("number has no integer representation"))
        #expect(ordered.string("haschanges()") == "false")
        // Quarry's own stores keep no order.
        let own = try Harness()
        own.run(
            #"""
            entity "Tag" { name = "string", notes = { many = "Note", inverse = "tags" } }
            entity "Note" { title = "string", tags = { many = "Tag", inverse = "notes" } }
            n = Note:new{ title = "a" }; n.tags:add(Tag:new{ name = "x" })
            """#)
        #expect(own.error("n.tags:move(1, 1)").contains("Note.tags is not ordered"))
    }

    @Test func newValuesFitBetweenKeptOnesAndRenumberOnlyWhenNoRoomIsLeft() {
        func positions(_ members: [Int64], _ old: [Int64: Int64]) -> [[Int64]] {
            CoreDataStore.newPositions(members, old: old).map { [$0.member, $0.position] }
        }
        // Inserted at the front: halfway below the first value.
        #expect(positions([9, 1, 2], [1: 1024, 2: 2048]) == [[9, 512]])
        // Two between neighbours: spread evenly over the gap.
        #expect(positions([1, 8, 9, 2], [1: 1024, 2: 2048]) == [[8, 1365], [9, 1706]])
        // The longest run in order is kept, not the first member: one value changes.
        #expect(positions([3, 1, 2], [1: 1024, 2: 2048, 3: 3072]) == [[3, 512]])
        // No room between 1 and 2: every member is numbered afresh.
        #expect(positions([1, 9, 2], [1: 1, 2: 2]) == [[1, 1024], [9, 2048], [2, 3072]])
        #expect(CoreDataStore.newPositions([], old: [:]).isEmpty)
    }
}
