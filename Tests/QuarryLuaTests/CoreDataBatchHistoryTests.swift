import Foundation
import GRDB
import QuarryCoreData
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `updateall` and `deleteall` on a Core Data store with persistent history write it as
/// Core Data's batch requests do: one transaction, an update change per row with the
/// set attributes' bits, a delete change per row with its tombstones; or are refused with
/// nothing written. The cars store with Core Data's history tables added (its model
/// preserves `Person.id` after deletion: one tombstone column; the fixture's history
/// holds one transaction of the app's), checked with SQL.
@Suite struct CoreDataBatchHistoryTests {
    func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] { try CoreDataHistoryStores.rows(path, sql) }

    @Test func updateallRecordsAnUpdateOfEachRowWithTheSetAttributesBits() throws {
        let path = try CoreDataHistoryStores.copy("cars/SampleModel_V1.sqlite")
        let matching = try rows(path, "SELECT Z_PK, Z_ENT FROM ZCAR WHERE ZMAKER = 'McLaren' ORDER BY Z_ENT, Z_PK")
        #expect(matching.count >= 2)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"n = Car:updateall("maker == 'McLaren'", {}, { model = "x", color = "red" })"#)
        #expect(h.string("n") == "\(matching.count)")
        let model = try #require(CoreDataStore.behind(h.context)?.model)
        let names = try Dictionary(
            uniqueKeysWithValues: rows(path, "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY").map {
                (Int64.fromDatabaseValue($0[0])!, String.fromDatabaseValue($0[1])!)
            })
        let expected: [[DatabaseValue]] = try matching.map { row in
            let entity = try #require(Int64.fromDatabaseValue(row[1]))
            let bits = PersistentHistoryColumns.bitmap(
                changed: ["model", "color"], order: PersistentHistoryColumns.coreDataOrder(of: names[entity] ?? "?", in: model))
            return [1.databaseValue, row[1], row[0], bits.databaseValue]
        }
        #expect(try rows(path, "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 2 ORDER BY Z_PK") == expected)
        // The same bits a save writes for the same change.
        h.run(#"local c = Car:first("maker == 'McLaren'"); c.model = "y"; c.color = "blue"; save()"#)
        let saved = try rows(path, "SELECT ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 3")
        #expect(saved.count == 1 && expected.contains { $0[3] == saved[0][0] })
        #expect(
            try rows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('TRANSACTION', 'CHANGE') ORDER BY Z_NAME") == [
                [(matching.count + 2).databaseValue], [3.databaseValue]
            ])
        #expect(
            try rows(path, "SELECT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS WHERE t.Z_PK = 2") == [
                ["quarry".databaseValue]
            ])
        // history{} reads it back as the app would.
        #expect(h.string("#history{ since = 1 }[1].updated") == "\(matching.count)")
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }

    @Test func deleteallRecordsADeleteOfEachRowWithItsTombstone() throws {
        let path = try CoreDataHistoryStores.copy("cars/SampleModel_V1.sqlite")
        let doomed = try rows(path, "SELECT Z_PK, Z_ENT, ZID FROM ZPERSON WHERE ZLASTNAME = 'Gleaves' ORDER BY Z_PK")
        #expect(doomed.count >= 2)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"n = Person:deleteall("lastName == 'Gleaves'", {})"#)
        #expect(h.string("n") == "\(doomed.count)")
        // Each row's id as stored (a 16-byte UUID), copied before the row went.
        #expect(
            try rows(path, "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS, ZTOMBSTONE0 FROM ACHANGE WHERE ZTRANSACTIONID = 2 ORDER BY Z_PK")
                == doomed.map { [2.databaseValue, $0[1], $0[0], .null, $0[2]] })
        #expect(doomed.allSatisfy { Data.fromDatabaseValue($0[2])?.count == 16 })
        #expect(try rows(path, "SELECT count(*) FROM ZPERSON WHERE ZLASTNAME = 'Gleaves'") == [[0.databaseValue]])
        #expect(h.string("#history{ since = 1 }[1].deleted") == "\(doomed.count)")
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }

    /// A store whose history has no tombstone column for what the model preserves: the
    /// batch delete is refused from inside its transaction, naming the attribute, and
    /// nothing of it stays (rows, history, Z_MAX).
    @Test func aDeleteWhoseTombstoneHasNoColumnIsRefusedWithNothingWritten() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: CoreDataFixtures.persistentHistorySQL(tombstones: 0)) }
        try queue.close()
        let before =
            try rows(path, "SELECT * FROM ZPERSON ORDER BY Z_PK") + rows(path, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            + rows(path, "SELECT count(*) FROM ACHANGE")
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"Person:deleteall("lastName == 'Gleaves'", {})"#)
        #expect(
            message.contains("deleteall: this Core Data store's persistent history has no tombstone column for Person.id")
                && message.contains("nothing was written"), "\(message)")
        #expect(!message.contains("\n"))
        h.context.close()
        #expect(
            try rows(path, "SELECT * FROM ZPERSON ORDER BY Z_PK") + rows(path, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                + rows(path, "SELECT count(*) FROM ACHANGE") == before)
    }

    /// A store without history gets none from a batch change.
    @Test func aStoreWithoutHistoryGetsNone() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"Car:updateall("maker == 'McLaren'", {}, { model = "x" }); Person:deleteall("lastName == 'Gleaves'", {})"#)
        #expect(try rows(path, "SELECT count(*) FROM sqlite_master WHERE name IN ('ACHANGE', 'ATRANSACTION')") == [[0.databaseValue]])
        #expect(try rows(path, "SELECT count(*) FROM ZCAR WHERE ZMAKER = 'McLaren' AND ZMODEL <> 'x'") == [[0.databaseValue]])
    }

    /// An import writes its rows' history as `NSBatchInsertRequest` does: one transaction
    /// by Quarry, an insert change per row, keyed as the rows were numbered (issue 61
    /// item 3: an import wrote rows the app's history processing never heard of).
    @Test func anImportRecordsAnInsertOfEachRow() throws {
        let path = try CoreDataHistoryStores.copy("cars/SampleModel_V1.sqlite")
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("people-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: csv) }
        try """
        firstName,lastName,id,updatedAt
        Ada,Imported,0B6E1F50-5E0C-4C59-8D5B-6B1D1A6F0001,2024-01-02T03:04:05Z
        Alan,Imported,0B6E1F50-5E0C-4C59-8D5B-6B1D1A6F0002,2024-01-02T03:04:06Z

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        let before = try rows(path, "SELECT max(Z_PK) FROM ATRANSACTION")
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"n = import("\#(csv)", { entity = "Person" })"#)
        #expect(h.string("n") == "2")
        let entity = try rows(path, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'")
        let imported = try rows(path, "SELECT Z_PK FROM ZPERSON WHERE ZLASTNAME = 'Imported' ORDER BY Z_PK")
        #expect(imported.count == 2)
        let transaction = try rows(path, "SELECT max(Z_PK) FROM ATRANSACTION")
        #expect(transaction != before)
        #expect(
            try rows(
                path, "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK FROM ACHANGE WHERE ZTRANSACTIONID = (SELECT max(Z_PK) FROM ATRANSACTION) ORDER BY Z_PK")
                == imported.map { [0.databaseValue, entity[0][0], $0[0]] })
        // history{} reads the import back as the app would, and it is this context's own.
        #expect(h.string("#history{}[#history{}].inserted") == "2")
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }

    /// format() declares another program's columns; a Core Data store's encoding is its own,
    /// and the refusal says so without calling the store Quarry's.
    @Test func formatOnACoreDataStoreSaysTheEncodingIsTheStores() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"format("Car", "markedForDeletionAsOf", "unix")"#)
        #expect(message.contains("store's own encoding") && !message.contains("Quarry's own"), "\(message)")
    }
}
