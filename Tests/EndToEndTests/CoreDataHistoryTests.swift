import Foundation
import QuarryTestSupport
import Testing

/// `quarry App.sqlite` on a store that keeps Core Data's persistent history (a copy of a
/// real store given the history tables by `CoreDataFixtures.persistentHistorySQL`): a save
/// writes its transaction and changes; reading leaves every byte as it was.
@Suite struct CoreDataHistoryEndToEndTests {
    func storeWithHistory(in sandbox: Sandbox) async throws -> String {
        let source = try CoreDataFixtures.path("cars/SampleModel_V1.sqlite")
        let name = "App.sqlite"
        try FileManager.default.copyItem(atPath: source, toPath: sandbox.path(name))
        let made = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(name)], stdin: CoreDataFixtures.persistentHistorySQL(tombstones: 1))
        #expect(made.status == 0, "\(made)")
        return name
    }

    @Test func aSaveWritesCoreDatasHistoryAndReadingChangesNothing() async throws {
        let sandbox = try Sandbox()
        let store = try await storeWithHistory(in: sandbox)
        let listing = { try sandbox.listing().map { ($0, try Data(contentsOf: URL(fileURLWithPath: sandbox.path($0)))) } }
        let before = try listing()
        let read = try await sandbox.quarry([store, "-e", #"print(count("Car"), #entities())"#])
        #expect(read.status == 0 && read.lines == ["125\t4"] && read.stderr.isEmpty, "\(read)")
        let after = try listing()
        #expect(after.map(\.0) == before.map(\.0) && zip(after, before).allSatisfy { $0.1 == $1.1 }, "reading changed the store's folder")

        let saved = try await sandbox.quarry([
            store, "-e",
            #"""
            local p = Person:new{ firstName = "Ada", lastName = "History", id = "00112233-4455-6677-8899-AABBCCDDEEFF", updatedAt = date("2024-05-06T07:08:09Z") }
            Car:get("Car/7").maker = "Quarry"
            save()
            print(p:objectID())
            """#
        ])
        #expect(saved.status == 0 && saved.stderr.isEmpty, "\(saved)")
        let check = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path(store),
                """
                SELECT t.Z_PK, t.Z_ENT, quote(t.Z_OPT), s.ZNAME, t.ZBUNDLEIDTS = t.ZAUTHORTS, quote(t.ZCONTEXTNAMETS), t.ZTIMESTAMP > 700000000 FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS WHERE t.Z_PK = 2;
                SELECT c.ZCHANGETYPE, p.Z_NAME, c.ZENTITYPK, quote(c.ZCOLUMNS) FROM ACHANGE c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY WHERE c.ZTRANSACTIONID = 2 ORDER BY c.Z_PK;
                SELECT group_concat(Z_MAX) FROM (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT);
                PRAGMA integrity_check;
                """
            ])
        let personKey = saved.lines.last?.split(separator: "/").last.map(String.init) ?? "?"
        let carEntity = try await sandbox.run(
            HostileFileTests.sqlite3, [sandbox.path(store), "SELECT p.Z_NAME FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT WHERE c.Z_PK = 7"])
        // In Core Data's order (to-one relationships, then attributes by name, as its own rows
        // in photos/ show) maker is the 3rd of Car's (and SportCar's) properties, after owner
        // and color, the 4th of ExpensiveSportCar's. (Before those rows were read, this test
        // asserted every property by name: 2nd and 3rd.)
        let makerBit = carEntity.lines == ["ExpensiveSportCar"] ? "X'10'" : "X'20'"
        #expect(
            check.lines == [
                "2|16002|NULL|quarry|1|NULL|1",
                "0|Person|\(personKey)|NULL",
                "1|\(carEntity.lines.first ?? "?")|7|\(makerBit)",
                "3,2,3", "ok"
            ], "\(check)")

        // A deleted Person keeps its id (preserved after deletion in the model) as a tombstone.
        let id = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(store), "SELECT hex(ZID) FROM ZPERSON WHERE Z_PK = 2"])
        let deleted = try await sandbox.quarry([store, "-e", #"Person:get("Person/2"):delete(); save()"#])
        #expect(deleted.status == 0 && deleted.stderr.isEmpty, "\(deleted)")
        let tombstone = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path(store),
                """
                SELECT hex(c.ZTOMBSTONE0) FROM ACHANGE c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY WHERE c.ZTRANSACTIONID = 3 AND c.ZCHANGETYPE = 2 AND p.Z_NAME = 'Person' AND c.ZENTITYPK = 2;
                PRAGMA integrity_check;
                """
            ])
        #expect(id.lines.count == 1 && id.lines[0].count == 32 && tombstone.lines == [id.lines[0], "ok"], "\(id) \(tombstone)")
    }
}
