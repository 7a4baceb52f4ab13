import Foundation
import GRDB
import QuarryCoreData
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Ordered to-many relationships of Core Data stores: members come back in the order of
/// their `Z_FOK_` values, never in key order, and adding or removing members writes the
/// values Core Data reads back. None of the real stores in `../shared/data/coredata` has
/// an ordered relationship, so each test makes one from a copy of a real store as Core
/// Data lays one out: the model's relationship marked `ordered`, the store's model cache
/// emptied (so the model file is read), and the `Z_FOK_` column Core Data adds. Every
/// answer is checked with plain SQL over the file.
@Suite struct CoreDataOrderedTests {
    /// A copy of `store`, changed by `sql`, opened with the model `modelFile` whose XML
    /// has `marked` replaced by `replacement`.
    struct Fixture {
        let path: String
        let model: String
        let sql: DatabaseQueue

        init(store: String, modelFile: String, marked: String, replacement: String, sql setup: String) throws {
            path = try CoreDataFixtures.copyOfStore(store)
            let xml = try String(contentsOfFile: try CoreDataFixtures.path(modelFile + "/contents"), encoding: .utf8)
            #expect(xml.contains(marked), "the model no longer has \(marked)")
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("Ordered.xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try xml.replacingOccurrences(of: marked, with: replacement).write(
                to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
            model = folder.path
            let writer = try DatabaseQueue(path: path)
            try writer.write { db in try db.execute(sql: "DELETE FROM Z_MODELCACHE; " + setup) }
            try writer.close()
            var configuration = Configuration()
            configuration.readonly = true
            sql = try DatabaseQueue(path: path, configuration: configuration)
        }

        func open() throws -> Harness {
            let h = try Harness(context: try StoreOpener.open(path, model: model))
            h.run(
                #"function keys(s) local t = {} for _, o in ipairs(s) do t[#t + 1] = o:objectID():match("%d+$") end return table.concat(t, ",") end"#)
            return h
        }

        func keys(_ query: String, _ arguments: StatementArguments = []) throws -> String {
            try sql.read { db in try Int64.fetchAll(db, sql: query, arguments: arguments).map(String.init).joined(separator: ",") }
        }
    }

    /// The cars store, with `Person.cars` ordered: each person's cars numbered in reverse key order.
    static func cars() throws -> Fixture {
        try Fixture(
            store: "cars/SampleModel_V1.sqlite", modelFile: "cars/SampleModel.xcdatamodeld/SampleModel.xcdatamodel",
            marked: #"name="cars" optional="YES" toMany="YES""#, replacement: #"name="cars" optional="YES" toMany="YES" ordered="YES""#,
            sql: """
                ALTER TABLE ZCAR ADD COLUMN Z_FOK_OWNER INTEGER;
                UPDATE ZCAR SET Z_FOK_OWNER = 1024 * (SELECT count(*) FROM ZCAR c WHERE c.ZOWNER = ZCAR.ZOWNER AND c.Z_PK >= ZCAR.Z_PK) WHERE ZOWNER IS NOT NULL;
                """)
    }

    /// The authors store, with `Author.books` ordered (its join table gains `Z_FOK_2BOOKS`).
    static func authors() throws -> Fixture {
        try Fixture(
            store: "authors/TestModel.sqlite", modelFile: "authors/Sample.xcdatamodeld/TestModel.xcdatamodel",
            marked: #"name="books" optional="YES" toMany="YES""#, replacement: #"name="books" optional="YES" toMany="YES" ordered="YES""#,
            sql: "ALTER TABLE Z_1BOOKS ADD COLUMN Z_FOK_2BOOKS INTEGER")
    }

    @Test func anOrderedOneToManyComesBackInCoreDataOrder() throws {
        let fixture = try Self.cars()
        let h = try fixture.open()
        let owners = try fixture.sql.read { db in
            try Int64.fetchAll(db, sql: "SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING count(*) > 1")
        }
        #expect(owners.count >= 3)
        for owner in owners {
            let expected = try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER", [owner])
            #expect(expected != (try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_PK", [owner])))
            #expect(h.string(#"keys(Person:get("Person/\#(owner)").cars)"#) == expected)
            let first = expected.split(separator: ",").first.map(String.init)
            #expect(h.string(#"Person:get("Person/\#(owner)").cars[1]:objectID():match("%d+$")"#) == first)
        }
    }

    /// A store with no model (Apple's Recipes sample): the `Z_FOK_` column beside a to-one
    /// key makes the inferred inverse ordered.
    @Test func anInferredModelReadsTheOrderToo() throws {
        let path = try CoreDataFixtures.copyOfStore("recipes/Recipes.sqlite")
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in
            try db.execute(
                sql: """
                    ALTER TABLE ZINGREDIENT ADD COLUMN Z_FOK_RECIPE INTEGER;
                    UPDATE ZINGREDIENT SET Z_FOK_RECIPE = 1024 * (SELECT count(*) FROM ZINGREDIENT i WHERE i.ZRECIPE = ZINGREDIENT.ZRECIPE AND i.Z_PK >= ZINGREDIENT.Z_PK) WHERE ZRECIPE IS NOT NULL;
                    """)
        }
        let recipes = try writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT ZRECIPE FROM ZINGREDIENT WHERE ZRECIPE IS NOT NULL GROUP BY ZRECIPE HAVING count(*) > 1")
        }
        let orders = try writer.read { db in
            try recipes.map {
                try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZINGREDIENT WHERE ZRECIPE = ? ORDER BY Z_FOK_RECIPE", arguments: [$0]).map(String.init)
                    .joined(separator: ",")
            }
        }
        try writer.close()
        #expect(recipes.count >= 2)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"function keys(s) local t = {} for _, o in ipairs(s) do t[#t + 1] = o:objectID():match("%d+$") end return table.concat(t, ",") end"#)
        for (recipe, expected) in zip(recipes, orders) {
            #expect(h.string(#"keys(Recipe:get("Recipe/\#(recipe)").ingredients)"#) == expected)
        }
    }

    @Test func addingAndRemovingMembersWritesTheOrderCoreDataReads() throws {
        let fixture = try Self.cars()
        let owner = try #require(
            try fixture.sql.read { db in
                try Int64.fetchOne(
                    db,
                    sql:
                        "SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING count(*) >= 3 AND max(Z_ENT) = 1 ORDER BY ZOWNER LIMIT 1"
                )
            })
        let before = try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER", [owner]).split(separator: ",").map(String.init)
        let fokBefore = try fixture.sql.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT Z_PK, Z_FOK_OWNER, Z_OPT FROM ZCAR").map {
                    ($0[0] as Int64, ($0[1] as Int64?, $0[2] as Int64?))
                })
        }
        let moved = try #require(
            try fixture.sql.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT Z_PK FROM ZCAR WHERE Z_ENT = 1 AND ZOWNER IS NOT NULL AND ZOWNER <> ? LIMIT 1", arguments: [owner])
            })
        let maxBefore = try #require(
            try fixture.sql.read { db in try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'") })
        let h = try fixture.open()
        h.run(
            #"""
            local p = Person:get("Person/\#(owner)")
            local c = Car:new{ maker = "Lancia", model = "Delta", numberPlate = "ORDERED-1" }
            p.cars:add(c)
            p.cars:add(Car:get("Car/\#(moved)"))
            p.cars:remove(Car:get("Car/\#(before[0])"))
            assert(p.cars[#p.cars - 1]:objectID() == c:objectID() and #p.cars == \#(before.count + 1), keys(p.cars))
            save()
            assert(keys(p.cars) == "\#(before.dropFirst().joined(separator: ",")),\#(maxBefore + 1),\#(moved)", keys(p.cars))
            """#)
        let new = maxBefore + 1
        let expected = (before.dropFirst() + [String(new), String(moved)]).joined(separator: ",")
        #expect(try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER", [owner]) == expected)
        try fixture.sql.read { db in
            func fok(_ key: Int64) throws -> Int64? { try Int64.fetchOne(db, sql: "SELECT Z_FOK_OWNER FROM ZCAR WHERE Z_PK = ?", arguments: [key]) }
            func opt(_ key: Int64) throws -> Int64? { try Int64.fetchOne(db, sql: "SELECT Z_OPT FROM ZCAR WHERE Z_PK = ?", arguments: [key]) }
            // Members that stay keep their values; added ones follow the last, spaced as Core Data spaces them.
            let kept = before.dropFirst().compactMap { Int64($0) }
            for key in kept { #expect(try fok(key) == fokBefore[key]?.0 && (try opt(key)) == fokBefore[key]?.1, "Car/\(key) was rewritten") }
            let lastKept = try #require(kept.last)
            let last = try #require(fokBefore[lastKept]?.0)
            #expect(try fok(new) == last + CoreDataStore.orderSpacing && (try opt(new)) == 1)
            #expect(try fok(moved) == last + 2 * CoreDataStore.orderSpacing && (try opt(moved)) == (fokBefore[moved]?.1 ?? 0) + 1)
            let removed = Int64(before[0])!
            #expect(try Int64.fetchOne(db, sql: "SELECT ZOWNER FROM ZCAR WHERE Z_PK = ?", arguments: [removed]) == nil)
            #expect(try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'") == new)
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }
        // A fresh session reads the same order back.
        #expect(try fixture.open().string(#"keys(Person:get("Person/\#(owner)").cars)"#) == expected)
    }

    @Test func settingTheToOneSideAppendsToTheOrder() throws {
        let fixture = try Self.cars()
        let owner: Int64 = try #require(
            try fixture.sql.read { db in
                try Int64.fetchOne(db, sql: "SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING count(*) > 1 LIMIT 1")
            })
        let before = try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER", [owner])
        let h = try fixture.open()
        // Two cars with lower keys than every member: appended after them all, in the order set.
        h.run(
            #"""
            local p = Person:get("Person/\#(owner)")
            local a = Car:new{ maker = "A", model = "a", numberPlate = "ORDERED-A" }
            local b = Car:new{ maker = "B", model = "b", numberPlate = "ORDERED-B" }
            b.owner = p; a.owner = p
            save()
            """#)
        let keys = try fixture.sql.read { db in
            try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZCAR WHERE ZNUMBERPLATE IN ('ORDERED-A', 'ORDERED-B') ORDER BY ZNUMBERPLATE")
        }
        #expect(keys.count == 2)
        #expect(try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER", [owner]) == before + ",\(keys[1]),\(keys[0])")
    }

    @Test func anOrderedManyToManyKeepsItsOrderInTheJoinTable() throws {
        let fixture = try Self.authors()
        let h = try fixture.open()
        h.run(
            #"""
            a = Author:new{ firstName = "Ada", lastName = "Lovelace" }
            b1, b2, b3 = Book:new{ title = "One" }, Book:new{ title = "Two" }, Book:new{ title = "Three" }
            a.books:add(b2); a.books:add(b1); a.books:add(b3)
            assert(a.books[1]:objectID() == b2:objectID() and a.books[3]:objectID() == b3:objectID())
            save()
            """#)
        let author = try #require(try fixture.sql.read { db in try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ZAUTHOR WHERE ZLASTNAME = 'Lovelace'") })
        func title(_ key: String) throws -> String? {
            try fixture.sql.read { db in try String.fetchOne(db, sql: "SELECT ZTITLE FROM ZBOOK WHERE Z_PK = ?", arguments: [key]) }
        }
        func order() throws -> [String] {
            try fixture.keys("SELECT Z_2BOOKS FROM Z_1BOOKS WHERE Z_1AUTHORS = ? ORDER BY Z_FOK_2BOOKS", [author]).split(separator: ",").map {
                try title(String($0)) ?? "?"
            }
        }
        #expect(try order() == ["Two", "One", "Three"])
        #expect(
            try fixture.sql.read { db in
                try Int64.fetchAll(db, sql: "SELECT Z_FOK_2BOOKS FROM Z_1BOOKS WHERE Z_1AUTHORS = ? ORDER BY Z_FOK_2BOOKS", arguments: [author])
            }
                == [1, 2, 3].map { $0 * CoreDataStore.orderSpacing })
        // Another session: read back in that order; a removal keeps the rest, an addition goes last.
        let again = try fixture.open()
        #expect(
            again.string(#"keys(Author:first("lastName == 'Lovelace'").books)"#)
                == (try fixture.keys("SELECT Z_2BOOKS FROM Z_1BOOKS WHERE Z_1AUTHORS = ? ORDER BY Z_FOK_2BOOKS", [author])))
        again.run(
            #"""
            local a = Author:first("lastName == 'Lovelace'")
            a.books:remove(Book:first("title == 'One'"))
            a.books:add(Book:new{ title = "Four" })
            save()
            """#)
        #expect(try order() == ["Two", "Three", "Four"])
        #expect(
            try fixture.sql.read { db in
                try Int64.fetchAll(db, sql: "SELECT Z_FOK_2BOOKS FROM Z_1BOOKS WHERE Z_1AUTHORS = ? ORDER BY Z_FOK_2BOOKS", arguments: [author])
            }
                == [1, 3, 4].map { $0 * CoreDataStore.orderSpacing })
        #expect(try fixture.sql.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    /// Order values that are not integers (a file may hold anything) are no positions:
    /// those members come last, by key, and nothing traps.
    @Test func orderValuesThatAreNotIntegersComeLast() throws {
        let fixture = try Self.cars()
        let owner = try #require(
            try fixture.sql.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING count(*) >= 3 ORDER BY ZOWNER LIMIT 1")
            })
        let writer = try DatabaseQueue(path: fixture.path)
        let odd = try writer.write { db -> Int64 in
            let key = try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? ORDER BY Z_FOK_OWNER LIMIT 1", arguments: [owner]) ?? -1
            try db.execute(sql: "UPDATE ZCAR SET Z_FOK_OWNER = 'first' WHERE Z_PK = ?", arguments: [key])
            return key
        }
        try writer.close()
        let rest = try fixture.keys("SELECT Z_PK FROM ZCAR WHERE ZOWNER = ? AND Z_PK <> ? ORDER BY Z_FOK_OWNER", [owner, odd])
        #expect(try fixture.open().string(#"keys(Person:get("Person/\#(owner)").cars)"#) == rest + ",\(odd)")
    }

    @Test func orderValuesAreSpacedAndNeverOverflow() {
        // Members in order keep their values; the others follow the one before.
        #expect(CoreDataStore.newPositions([1, 2, 3], old: [1: 10, 2: 20]).map(\.position) == [1044])
        // A member out of order is placed after the one before it.
        #expect(CoreDataStore.newPositions([2, 1], old: [1: 10, 2: 20]).map { [$0.member, $0.position] } == [[1, 1044]])
        // A value at the top of the range: everything is numbered afresh.
        #expect(CoreDataStore.newPositions([1, 2], old: [1: Int64.max]).map(\.position) == [1024, 2048])
    }
}
