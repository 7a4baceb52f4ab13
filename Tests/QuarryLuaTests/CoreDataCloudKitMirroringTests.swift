import Foundation
import GRDB
import QuarryCoreData
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Stores `NSPersistentCloudKitContainer` mirrors (issue 49 item 5). No shareable real store
/// here has the mirror's tables, so each test adds them to a copy of a real store as the
/// container lays them out: `ANSCK…` tables for entities of Core Data's own numbered from
/// 16001, listed in `Z_PRIMARYKEY`. They are not entities; a save to a store that keeps
/// persistent history (which the mirror exports from) leaves them as they were, and a save
/// to one that keeps none is refused, writing nothing.
@Suite struct CoreDataCloudKitMirroringTests {
    static let mirrorSQL = """
        CREATE TABLE ANSCKRECORDZONEMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCKRECORDZONENAME VARCHAR, ZCKOWNERNAME VARCHAR);
        CREATE TABLE ANSCKRECORDMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZENTITYID INTEGER, ZENTITYPK INTEGER,
            ZRECORDZONE INTEGER, ZCKRECORDNAME VARCHAR, ZENCODEDRECORD BLOB);
        CREATE TABLE ANSCKEXPORTOPERATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTATUS INTEGER, ZIDENTIFIER VARCHAR);
        INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16101, 'NSCKRecordZoneMetadata', 0, 1), (16102, 'NSCKRecordMetadata', 0, 1),
            (16103, 'NSCKExportOperation', 0, 1);
        INSERT INTO ANSCKRECORDZONEMETADATA VALUES (1, 16101, 1, 'com.apple.coredata.cloudkit.zone', '__defaultOwner__');
        INSERT INTO ANSCKRECORDMETADATA VALUES (1, 16102, 1, 1, 1, 1, 'CD_Book_1', x'62706c6973743030');
        INSERT INTO ANSCKEXPORTOPERATION VALUES (1, 16103, 1, 2, 'E1');
        """

    static func mirrored(_ store: String, dropModelCache: Bool = false) throws -> (path: String, sql: DatabaseQueue) {
        let path = try CoreDataFixtures.copyOfStore(store)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: mirrorSQL)
            if dropModelCache { try db.execute(sql: "DELETE FROM Z_MODELCACHE") }
        }
        return (path, queue)
    }

    static func mirrorRows(_ sql: DatabaseQueue) throws -> [[DatabaseValue]] {
        try sql.read { db in
            try ["ANSCKRECORDZONEMETADATA", "ANSCKRECORDMETADATA", "ANSCKEXPORTOPERATION"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY Z_PK").map { Array($0.databaseValues) }
            } + Row.fetchAll(db, sql: "SELECT * FROM Z_PRIMARYKEY WHERE Z_ENT > 16100 ORDER BY Z_ENT").map { Array($0.databaseValues) }
        }
    }

    @Test(arguments: [false, true]) func theMirrorsTablesAreNoEntities(_ inferred: Bool) throws {
        let (path, _) = try Self.mirrored("books2/SampleModel2_V2.sqlite", dropModelCache: inferred)
        let context = try StoreOpener.open(path)
        defer { context.close() }
        #expect(context.entities.contains { $0.name == "Book" })
        #expect(!context.entities.contains { $0.name.uppercased().contains("NSCK") }, "\(context.entities.map(\.name))")
        #expect(!context.openingNotes.contains { $0.contains("NSCK") }, "\(context.openingNotes)")
    }

    @Test func aSaveWithHistoryLeavesTheMirrorsTablesAsTheyWere() throws {
        let (path, sql) = try Self.mirrored("books2/SampleModel2_V2.sqlite")
        let before = try Self.mirrorRows(sql)
        let transactions = try sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ATRANSACTION") ?? -1 }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"local b = fetch("Book")[1]; b.title = "Mirrored"; save()"#)
        #expect(try Self.mirrorRows(sql) == before)
        // The history the mirror exports from has the save.
        #expect(try sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ATRANSACTION") } == transactions + 1)
    }

    @Test func aSaveToAMirroredStoreWithoutHistoryIsRefusedWritingNothing() throws {
        let (path, sql) = try Self.mirrored("cars/SampleModel_V1.sqlite")
        try sql.close()
        let bytes = FileManager.default.contents(atPath: path)
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"local p = fetch("Person")[1]; p.lastName = "X"; save()"#)
        #expect(message.contains("mirrored to CloudKit") && message.contains("nothing was written"), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
        h.context.close()
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    /// Every write path is refused alike (issue 61 item 3: an import wrote its rows there).
    @Test(arguments: [
        #"import("CSV", { entity = "Car" })"#, #"Car:updateall("maker == 'McLaren'", {}, { model = "x" })"#,
        #"Person:deleteall("lastName == 'Gleaves'", {})"#
    ])
    func everyWriteToAMirroredStoreWithoutHistoryIsRefusedWritingNothing(_ code: String) throws {
        let (path, sql) = try Self.mirrored("cars/SampleModel_V1.sqlite")
        try sql.close()
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("cars-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: csv) }
        try "maker,model,numberPlate\nMcLaren,F1,XX 1\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let bytes = FileManager.default.contents(atPath: path)
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(code.replacingOccurrences(of: "CSV", with: csv))
        #expect(message.contains("mirrored to CloudKit") && message.contains("nothing was written"), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
        // Nor does Quarry prune the history a mirror exports from (nor any Core Data store's).
        #expect(h.error("history.prune(1)").contains("the app's to prune"))
        h.context.close()
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }
}
