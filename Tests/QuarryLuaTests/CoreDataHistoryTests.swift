/// Persistent history of relationship changes, written from Lua: a to-one change records
/// the relationship's bit in the changed row's ACHANGE.ZCOLUMNS; a many-to-many change
/// records both ends as updated in their to-many relationships. Batch changes on such a
/// store are still refused. (History tables added by `CoreDataFixtures.persistentHistorySQL`.)
import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryLua
@testable import QuarryPredicates
@testable import QuarryStore

@Suite struct CoreDataHistoryTests {
    func storeWithHistory(_ relative: String) throws -> String { try CoreDataHistoryStores.copy(relative) }

    func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] { try CoreDataHistoryStores.rows(path, sql) }

    @Test func aToOneChangeRecordsTheRelationshipsBit() throws {
        let path = try storeWithHistory("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"local c = Car:get("Car/5"); c.owner = Person:get("Person/3"); save{ author = "fixer" }"#)
        let entity = try rows(path, "SELECT p.Z_NAME, c.Z_ENT FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT WHERE c.Z_PK = 5").first ?? []
        // In Core Data's order (to-one relationships first, then attributes by name: what
        // Core Data's own rows in photos/ show, PhotosColumnsOrderTests) owner is the first
        // of Car's and of ExpensiveSportCar's properties. (Before those rows were read, this
        // test asserted all properties by name: owner 6th of Car's, 7th of ExpensiveSportCar's.)
        let bits: [UInt8] = [0x80]
        // Person's `cars` (owner's inverse) changed too: the old owner (Person/17) and the
        // new one are updated in it, as Core Data records a to-many's change (issue 81).
        let model = try #require(CoreDataStore.behind(h.context)?.model)
        let cars = PersistentHistoryColumns.columns(changed: ["cars"], of: "Person", in: model)
        #expect(PersistentHistoryColumns.names(in: cars, order: PersistentHistoryColumns.coreDataOrder(of: "Person", in: model)) == ["cars"])
        #expect(
            try rows(path, "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 2 ORDER BY ZENTITY, ZENTITYPK")
                == [
                    [1.databaseValue, entity.last ?? .null, 5.databaseValue, Data(bits).databaseValue],
                    [1.databaseValue, 4.databaseValue, 3.databaseValue, cars.databaseValue],
                    [1.databaseValue, 4.databaseValue, 17.databaseValue, cars.databaseValue]
                ])
        #expect(
            try rows(path, "SELECT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS WHERE t.Z_PK = 2") == [
                ["fixer".databaseValue]
            ])
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }

    @Test func aManyToManyChangeUpdatesBothEnds() throws {
        let path = try storeWithHistory("authors/TestModel.sqlite")
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"a = Author:new{ firstName = "Ursula", lastName = "Le Guin" }; b = Book:new{ title = "The Dispossessed" }; save()"#)
        let codes = try rows(path, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Author', 'Book') ORDER BY Z_NAME").map { $0[0] }
        #expect(
            try rows(path, "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 2 ORDER BY Z_PK")
                == [[0.databaseValue, codes[0], 1.databaseValue, .null], [0.databaseValue, codes[1], 1.databaseValue, .null]])
        h.run("a.books:add(b); save()")
        #expect(try rows(path, "SELECT Z_2BOOKS FROM Z_1BOOKS") == [[1.databaseValue]])
        // Many-to-many relationships come after the attributes in Core Data's order (what
        // its own rows in photos/ show): books is the 3rd of Author's (firstName, lastName,
        // books), authors the 2nd of Book's (title, authors). (Before those rows were read,
        // this test asserted all properties by name: each the first.)
        let changes = try rows(path, "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 3 ORDER BY ZENTITY")
        #expect(
            changes == [
                [1.databaseValue, codes[0], 1.databaseValue, Data([0x20]).databaseValue],
                [1.databaseValue, codes[1], 1.databaseValue, Data([0x40]).databaseValue]
            ], "\(changes)")
        #expect(
            try rows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('CHANGE', 'TRANSACTION') ORDER BY Z_NAME") == [
                [5.databaseValue], [3.databaseValue]
            ])
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }

    /// `history{}` and `historytoken()` read the store's own history: the app's earlier
    /// transaction (the fixture's, by "app") and Quarry's saves, by Core Data's transaction
    /// numbers, with object IDs by the row's own entity.
    @Test func historyReadsCoreDatasOwnTransactions() throws {
        let path = try storeWithHistory("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("historytoken()") == "1")
        // The fixture's transaction: author "app", an insert of entity 1 (Car), key 1.
        let carEntity =
            try rows(path, "SELECT p.Z_NAME FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT WHERE c.Z_PK = 9").first?.first
            .flatMap { String.fromDatabaseValue($0) } ?? "?"
        #expect(h.string(#"(function() local t = history{}[1]; return t.token .. " " .. t.author .. " " .. t.inserted[1] end)()"#) == "1 app Car/1")
        // 700000000.5 seconds after 2001-01-01 (the fixture's ZTIMESTAMP).
        #expect(h.string("history{}[1].time")?.hasPrefix("2023-03-08T20:26:40") == true, "\(h.string("history{}[1].time") ?? "")")
        h.run(#"Car:get("Car/9").maker = "Q"; save{ author = "me" }; Car:get("Car/10"):delete(); save()"#)
        #expect(h.string("historytoken()") == "3")
        #expect(
            h.string(#"(function() local t = history{ since = 1, author = "me" }; return #t .. " " .. t[1].token .. " " .. t[1].updated[1] end)()"#)
                == "1 2 \(carEntity)/9")
        #expect(
            h.string(
                #"(function() local t = history{ since = 2 }; return #t .. " " .. t[1].author .. " " .. #t[1].deleted .. " " .. tostring(tostring(t[1].time) > "2020") end)()"#
            )
                == "1 quarry 1 true")
    }

    /// Batch changes write history now (`CoreDataBatchHistoryTests`), except where a save
    /// could not either: an update with an inferred model (its bits are the model's order).
    @Test func batchChangesWithAnInferredModelAreStillRefused() throws {
        let path = try CoreDataHistoryStores.copy("cars/SampleModel_V1.sqlite", then: "DELETE FROM Z_MODELCACHE")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"Car:updateall("maker == 'McLaren'", {}, { model = "x" })"#)
        #expect(message.contains("persistent history") && message.contains("updateall") && message.contains("nothing was written"), "\(message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
