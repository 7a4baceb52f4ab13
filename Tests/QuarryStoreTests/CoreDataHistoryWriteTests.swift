/// A save into a Core Data store that keeps persistent history writes that history as Core
/// Data would (one ATRANSACTION row, one ACHANGE row per changed object, the author
/// interned in ATRANSACTIONSTRING, Z_MAX advanced), or is refused with nothing written.
/// The history tables are added to a copy of a real store by
/// `CoreDataFixtures.persistentHistorySQL` (whose comment says where its schema comes from).
import Foundation
import GRDB
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

@Suite struct CoreDataHistoryWriteTests {
    /// A copy of the cars store with history tables (and `extra` SQL run after them). Its
    /// model preserves one attribute after deletion (Person.id), so Core Data would give
    /// ACHANGE one tombstone column.
    func storeWithHistory(tombstones: Int = 1, extra: String = "") throws -> String {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: CoreDataFixtures.persistentHistorySQL(tombstones: tombstones))
            if !extra.isEmpty { try db.execute(sql: extra) }
        }
        try queue.close()
        return path
    }

    /// Plain SQL on the file, outside Quarry.
    func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: sql).map { row in Array(row.databaseValues) } }
    }

    func int(_ path: String, _ sql: String) throws -> Int64? {
        try rows(path, sql).first.flatMap { $0.first }.flatMap { Int64.fromDatabaseValue($0) }
    }

    func bytes(_ path: String) -> [Data?] {
        ["", "-wal"].map { FileManager.default.contents(atPath: path + $0) }
    }

    /// The bit vector Core Data records for an update of `changed` on an entity whose
    /// stored properties, sorted by name, are `properties` (written out here from the
    /// model file, not computed by the code under test).
    func expectedColumns(_ properties: [String], _ changed: Set<String>) -> Data {
        var bytes = [UInt8](repeating: 0, count: (properties.count + 7) / 8)
        for (i, name) in properties.enumerated() where changed.contains(name) { bytes[i / 8] |= 0x80 >> (i % 8) }
        return Data(bytes)
    }

    /// Car and SportCar (no properties of its own); ExpensiveSportCar adds isLimitedEdition.
    /// The transient currentDrivingSpeed is left out.
    // Core Data's order, as its own rows in photos/ show it (PhotosColumnsOrderTests): to-one
    // relationships, then attributes by name. (Before those rows were read, these lists
    // were every property by name, owner last.)
    static let carProperties = ["owner", "color", "maker", "markedForDeletionAsOf", "model", "numberPlate"]
    static let expensiveProperties = ["owner", "color", "isLimitedEdition", "maker", "markedForDeletionAsOf", "model", "numberPlate"]

    @Test func insertUpdateAndDeleteEachWriteATransactionAndItsChanges() throws {
        let path = try storeWithHistory()
        let personCode = try #require(try int(path, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'"))
        let personMax = try #require(try int(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'"))
        let context = try OpenFileRequest.open(path: path)

        // Insert.
        let start = Date().timeIntervalSinceReferenceDate
        _ = try context.insert(
            into: "Person",
            values: [
                "firstName": .text("Ada"), "lastName": .text("Quarry"),
                "id": .text("0F0E0D0C-0B0A-0908-0706-050403020100"), "updatedAt": .date(1_700_000_000)
            ])
        try context.save()
        let end = Date().timeIntervalSinceReferenceDate
        let transaction = try rows(
            path,
            "SELECT Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN FROM ATRANSACTION WHERE Z_PK = 2"
        )
        let t = try #require(transaction.first)
        let quarryKey = try #require(try int(path, "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = 'quarry'"))
        #expect(quarryKey == 3, "a new string takes TRANSACTIONSTRING's Z_MAX + 1")
        #expect(t[0] == 2.databaseValue && t[1] == 16002.databaseValue && t[2].isNull)
        #expect(t[3] == quarryKey.databaseValue && t[4] == quarryKey.databaseValue && t[5].isNull && t[6] == quarryKey.databaseValue)
        let stamp = try #require(Double.fromDatabaseValue(t[7]))
        #expect(stamp >= start.rounded(.down) && stamp <= end + 1, "ZTIMESTAMP \(stamp) is seconds since 2001")
        #expect(t[8...].allSatisfy { $0.isNull })
        let inserted = try rows(
            path, "SELECT Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 2")
        #expect(
            inserted == [
                [
                    2.databaseValue, 16001.databaseValue, .null, 0.databaseValue, personCode.databaseValue, (personMax + 1).databaseValue,
                    2.databaseValue, .null
                ]
            ])
        #expect(try int(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002") == 2)
        #expect(try int(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == 2)
        #expect(try int(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16003") == 3)

        // Update: one row, its columns' bits; the author's string row is reused.
        let car = try #require(try context.object(entityName: "Car", primaryKey: 1))
        let carCode = try #require(try int(path, "SELECT Z_ENT FROM ZCAR WHERE Z_PK = 1"))
        let carEntity = try #require(
            try rows(path, "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = \(carCode)").first?.first.flatMap { String.fromDatabaseValue($0) })
        try car.setValue(.text("Testarossa"), forKey: "model")
        try car.setValue(.text("Q-HIST-1"), forKey: "numberPlate")
        try context.save()
        let properties = carEntity == "ExpensiveSportCar" ? Self.expensiveProperties : Self.carProperties
        let updated = try rows(path, "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 3")
        #expect(
            updated == [
                [
                    3.databaseValue, 1.databaseValue, carCode.databaseValue, 1.databaseValue, 3.databaseValue,
                    expectedColumns(properties, ["model", "numberPlate"]).databaseValue
                ]
            ], "\(updated)")
        #expect(try int(path, "SELECT count(*) FROM ATRANSACTIONSTRING") == 3, "the author's string is kept once")
        #expect(try int(path, "SELECT ZAUTHORTS FROM ATRANSACTION WHERE Z_PK = 3") == quarryKey)

        // Delete (no tombstones in this store's history).
        let other = try #require(try context.object(entityName: "Car", primaryKey: 2))
        let otherCode = try #require(try int(path, "SELECT Z_ENT FROM ZCAR WHERE Z_PK = 2"))
        try context.delete(other)
        try context.save()
        let deleted = try rows(path, "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 4")
        #expect(deleted == [[4.databaseValue, 2.databaseValue, otherCode.databaseValue, 2.databaseValue, 4.databaseValue, .null]], "\(deleted)")
        #expect(try int(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == 4)
        #expect(try int(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002") == 4)
        // The app's own earlier transaction is untouched.
        #expect(try rows(path, "SELECT ZAUTHORTS, ZBUNDLEIDTS FROM ATRANSACTION WHERE Z_PK = 1") == [[1.databaseValue, 2.databaseValue]])
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
        #expect(try rows(path, "PRAGMA foreign_key_check").isEmpty)
    }

    @Test func oneSaveOfManyChangesIsOneTransaction() throws {
        let path = try storeWithHistory()
        let context = try OpenFileRequest.open(path: path)
        let a = try #require(try context.object(entityName: "Car", primaryKey: 3))
        try a.setValue(.text("One"), forKey: "maker")
        try context.delete(try #require(try context.object(entityName: "Car", primaryKey: 4)))
        _ = try context.insert(into: "Car", values: ["numberPlate": .text("Q-NEW")])
        let author = "seeding-script"
        context.author = author
        try context.save()
        #expect(try int(path, "SELECT count(*) FROM ATRANSACTION") == 2)
        let kinds = try rows(path, "SELECT ZCHANGETYPE, ZENTITYPK FROM ACHANGE WHERE ZTRANSACTIONID = 2 ORDER BY Z_PK")
        let newKey = try #require(try int(path, "SELECT max(Z_PK) FROM ZCAR"))
        #expect(
            kinds == [[0.databaseValue, newKey.databaseValue], [1.databaseValue, 3.databaseValue], [2.databaseValue, 4.databaseValue]], "\(kinds)")
        // The save's author is the transaction's author; bundle and process stay quarry's.
        #expect(
            try rows(
                path,
                "SELECT a.ZNAME, b.ZNAME, p.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS WHERE t.Z_PK = 2"
            )
                == [[author.databaseValue, "quarry".databaseValue, "quarry".databaseValue]])
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }

    /// History tables that are not the ones Core Data makes: refused, one line naming the
    /// table and column, and not a byte written.
    @Test func anUnknownHistorySchemaIsRefusedWithNothingWritten() throws {
        let cases: [(extra: String, names: [String])] = [
            ("ALTER TABLE ATRANSACTION ADD COLUMN ZSOMETHINGNEW INTEGER", ["ATRANSACTION", "ZSOMETHINGNEW"]),
            ("DROP TABLE ATRANSACTIONSTRING", ["ATRANSACTIONSTRING"]),
            ("DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'CHANGE'", ["CHANGE", "Z_PRIMARYKEY"]),
            ("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE2 BLOB", ["ACHANGE", "ZTOMBSTONE2"])
        ]
        for (extra, names) in cases {
            let path = try storeWithHistory(extra: extra)
            let before = bytes(path)
            let context = try OpenFileRequest.open(path: path)
            let car = try #require(try context.object(entityName: "Car", primaryKey: 1))
            try car.setValue(.text("x"), forKey: "model")
            do {
                try context.save()
                Issue.record("\(extra): the save was not refused")
            } catch {
                let message = "\(error)"
                #expect(message.contains("persistent history") && message.contains("nothing was written") && !message.contains("\n"), "\(message)")
                for name in names { #expect(message.contains(name), "\(extra): \(message)") }
            }
            #expect(context.hasChanges)
            context.close()
            #expect(bytes(path) == before, "\(extra): the store changed")
        }
    }

    /// The cars model marks Person.id "Preserve After Deletion" (its XML says
    /// preserveAfterDeletion="YES"): a deleted Person's history row keeps the id's stored
    /// value (the 16-byte blob) in ZTOMBSTONE0; a deleted Car keeps none.
    @Test func aDeletedObjectsPreservedAttributeIsItsTombstone() throws {
        let path = try storeWithHistory(tombstones: 1)
        let stored = try #require(try rows(path, "SELECT ZID FROM ZPERSON WHERE Z_PK = 1").first?.first)
        #expect(Data.fromDatabaseValue(stored)?.count == 16)
        let personCode = try #require(try int(path, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'"))
        let carCode = try #require(try int(path, "SELECT Z_ENT FROM ZCAR WHERE Z_PK = 3"))
        let context = try OpenFileRequest.open(path: path)
        try context.delete(try #require(try context.object(entityName: "Person", primaryKey: 1)))
        try context.delete(try #require(try context.object(entityName: "Car", primaryKey: 3)))
        try context.save()
        let deletes = try rows(
            path,
            "SELECT ZENTITY, ZENTITYPK, ZTOMBSTONE0 FROM ACHANGE WHERE ZTRANSACTIONID = 2 AND ZCHANGETYPE = 2 ORDER BY ZENTITY = \(personCode) DESC, ZENTITYPK"
        )
        #expect(deletes == [[personCode.databaseValue, 1.databaseValue, stored], [carCode.databaseValue, 3.databaseValue, .null]], "\(deletes)")
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }

    /// A store whose history has no tombstone column for an attribute the model preserves
    /// is not the store Core Data would have made from this model: a delete is refused.
    @Test func aDeleteIsRefusedWhenTheStoreHasNoTombstoneColumnForIt() throws {
        let path = try storeWithHistory(tombstones: 0)
        let context = try OpenFileRequest.open(path: path)
        try context.delete(try #require(try context.object(entityName: "Person", primaryKey: 1)))
        let before = bytes(path)
        let error = #expect(throws: StoreError.self) { try context.save() }
        #expect("\(error.map { "\($0)" } ?? "")".contains("Person.id"))
        #expect(bytes(path) == before)
        context.rollback()
        try (try #require(try context.object(entityName: "Person", primaryKey: 1))).setValue(.text("Grace-Q-History"), forKey: "firstName")
        try context.save()
        #expect(try rows(path, "SELECT ZCHANGETYPE FROM ACHANGE WHERE ZTRANSACTIONID = 2") == [[1.databaseValue]])
    }

    /// "Preserve After Deletion" is read from the model file and from the compiled model
    /// (bit 0x10 of the attribute's NSFlagsKey) and the store's cache alike.
    @Test func preserveAfterDeletionIsReadFromEveryModelSource() throws {
        let copy = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let models = [
            try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.xcdatamodeld/SampleModel.xcdatamodel")),
            try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.momd/SampleModel.mom")),
            try CoreDataModel.fromStore(atPath: copy)
        ]
        for model in models {
            let preserved = model.entities.flatMap { e in e.attributes.filter(\.preservesValueInHistoryOnDeletion).map { "\(e.name).\($0.name)" } }
            #expect(preserved == ["Person.id"])
        }
    }

    @Test func readingAStoreWithHistoryChangesNoByte() throws {
        let path = try storeWithHistory()
        let before = bytes(path)
        let context = try OpenFileRequest.open(path: path)
        #expect(try context.object(entityName: "Car", primaryKey: 1) != nil)
        #expect(!context.entities.contains { ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING", "ACHANGE", "ATRANSACTION"].contains($0.name) })
        context.close()
        #expect(bytes(path) == before)
    }

    @Test func columnsBitmapIsCoreDataBitOrder() {
        let order = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        #expect(PersistentHistoryColumns.bitmap(changed: ["a", "i"], order: order) == Data([0x80, 0x80]))
        #expect(PersistentHistoryColumns.bitmap(changed: ["h"], order: order) == Data([0x01, 0x00]))
        #expect(PersistentHistoryColumns.names(in: Data([0x81, 0x80]), order: order) == ["a", "h", "i"])
    }
}
