import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Saves into copies of Photos.app's store run its triggers, which call Core Data's
/// private SQL functions (`NSCoreDataTriggerUpdateAffectedObjectValue` for the counts a
/// trigger keeps, `NSCoreDataDATrigger...` for derived attributes): the counts and derived
/// values come out as the triggers' SQL says, the objects in use take them as Core Data's
/// take them from those functions, and `integrity_check` stays ok. A trigger calling a
/// function of Core Data's that Quarry does not provide refuses the save, naming it, with
/// nothing written. Every expectation is worked out with SQL over the copy.
@Suite struct PhotosSaveTests {
    func rows(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws -> [[DatabaseValue]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map { Array($0.databaseValues) } }
    }

    func int(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws -> Int64? {
        try rows(path, sql, arguments).first?.first.flatMap { Int64.fromDatabaseValue($0) }
    }

    @Test func hidingAnAssetRunsTheFaceCountTriggersAndTheObjectsTakeTheCounts() throws {
        let path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
        // A visible asset with faces that count towards their people.
        let counted = "f.ZASSETVISIBLE = 1 AND f.ZHIDDEN = 0 AND f.ZCENTERX != 0 AND f.ZPERSONFORFACE IS NOT NULL"
        let asset = try #require(
            try int(path, "SELECT f.ZASSETFORFACE FROM ZDETECTEDFACE f WHERE \(counted) GROUP BY f.ZASSETFORFACE ORDER BY count(*) DESC, 1 LIMIT 1"))
        let faces = try rows(
            path, "SELECT f.Z_PK, f.ZPERSONFORFACE FROM ZDETECTEDFACE f WHERE f.ZASSETFORFACE = ? AND \(counted) ORDER BY f.Z_PK", [asset]
        )
        .map { (Int64.fromDatabaseValue($0[0])!, Int64.fromDatabaseValue($0[1])!) }
        #expect(!faces.isEmpty)
        var expectedCounts: [Int64: Int64] = [:]
        for (_, person) in faces {
            let count = try #require(try int(path, "SELECT ZFACECOUNT FROM ZPERSON WHERE Z_PK = ?", [person]))
            expectedCounts[person] = (expectedCounts[person] ?? count) - 1
        }
        let h = try Harness(context: try StoreOpener.open(path))
        let faceList = faces.map { "DetectedFace:get(\"DetectedFace/\($0.0)\")" }.joined(separator: ", ")
        let personList = expectedCounts.keys.sorted().map { "Person:get(\"Person/\($0)\")" }.joined(separator: ", ")
        // The faces and people are in use (read) before the save.
        h.run(
            #"""
            a = Asset:get("Asset/\#(asset)")
            faces = { \#(faceList) }
            people = { \#(personList) }
            for _, f in ipairs(faces) do assert(f.assetVisible == true) end  -- a boolean in the model
            a.hidden = true
            save()
            """#)
        for (face, _) in faces {
            #expect(try int(path, "SELECT ZASSETVISIBLE FROM ZDETECTEDFACE WHERE Z_PK = ?", [face]) == 0)
        }
        for (person, count) in expectedCounts {
            #expect(try int(path, "SELECT ZFACECOUNT FROM ZPERSON WHERE Z_PK = ?", [person]) == count)
        }
        // In memory, as the trigger functions said.
        #expect(
            h.string(
                "(function() local t = {} for _, f in ipairs(faces) do t[#t + 1] = tostring(f.assetVisible) end return table.concat(t, ',') end)()")
                == faces.map { _ in "false" }.joined(separator: ","))
        #expect(
            h.string("(function() local t = {} for _, p in ipairs(people) do t[#t + 1] = p.faceCount end return table.concat(t, ',') end)()")
                == expectedCounts.keys.sorted().map { String(expectedCounts[$0]!) }.joined(separator: ","))
        // Shown again: the counts come back.
        h.run("a.hidden = false; save()")
        for (face, _) in faces { #expect(try int(path, "SELECT ZASSETVISIBLE FROM ZDETECTEDFACE WHERE Z_PK = ?", [face]) == 1) }
        #expect(h.string("faces[1].assetVisible") == "true")
        for (person, count) in expectedCounts {
            let restored = count + Int64(faces.filter { $0.1 == person }.count)
            #expect(try int(path, "SELECT ZFACECOUNT FROM ZPERSON WHERE Z_PK = ?", [person]) == restored)
            #expect(h.string(#"Person:get("Person/\#(person)").faceCount"#) == "\(restored)")
        }
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
        // The R-tree the asset triggers keep still matches the assets.
        #expect(
            try int(path, "SELECT count(*) FROM ZASSET a JOIN Z_RT_Asset_boundedByRect r ON r.Z_PK = a.Z_PK")
                == (try int(path, "SELECT count(*) FROM ZASSET")))
    }

    @Test func aCameraDeviceReachesTheAssetsDerivedAttribute() throws {
        let path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
        let pair = try #require(
            try rows(path, "SELECT Z_PK, ZADDITIONALATTRIBUTES FROM ZASSET WHERE ZADDITIONALATTRIBUTES IS NOT NULL ORDER BY Z_PK LIMIT 1").first)
        let asset = try #require(Int64.fromDatabaseValue(pair[0]))
        let attributes = try #require(Int64.fromDatabaseValue(pair[1]))
        let before = try int(path, "SELECT ZCAMERACAPTUREDEVICE FROM ZADDITIONALASSETATTRIBUTES WHERE Z_PK = ?", [attributes]) ?? 0
        let device = before == 2 ? 1 : 2
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            a = Asset:get("Asset/\#(asset)")
            local before = a.derivedCameraCaptureDevice
            a.additionalAttributes.cameraCaptureDevice = \#(device)
            save()
            """#)
        #expect(try int(path, "SELECT ZDERIVEDCAMERACAPTUREDEVICE FROM ZASSET WHERE Z_PK = ?", [asset]) == Int64(device))
        #expect(h.string("a.derivedCameraCaptureDevice") == "\(device)")
        // Setting the derived attribute itself is the store's to do.
        #expect(h.error("a.derivedCameraCaptureDevice = 3; save()").contains("is derived by the store"))
        h.run("rollback()")
        #expect(try rows(path, "PRAGMA integrity_check") == [["ok".databaseValue]])
    }

    @Test func aTriggerCallingAFunctionQuarryLacksRefusesTheSaveNamingIt() throws {
        let path = try CoreDataFixtures.copyOfStore("photos/Photos.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql:
                    "CREATE TRIGGER ZT_TEST_UNKNOWN AFTER UPDATE OF ZFAVORITE ON ZASSET BEGIN SELECT NSCoreDataTriggerSomethingNew('ZASSET', NEW.Z_ENT, NEW.Z_PK); END"
            )
        }
        try queue.close()
        let before =
            try rows(path, "SELECT Z_PK, ZFAVORITE, Z_OPT FROM ZASSET ORDER BY Z_PK") + rows(path, "SELECT count(*), max(Z_PK) FROM ATRANSACTION")
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"local a = Asset:first(); a.favorite = not a.favorite; save()"#)
        #expect(message.contains("ZT_TEST_UNKNOWN (NSCoreDataTriggerSomethingNew)") && message.contains("nothing was written"), "\(message)")
        #expect(!message.contains("\n"))
        h.context.close()
        #expect(
            try rows(path, "SELECT Z_PK, ZFAVORITE, Z_OPT FROM ZASSET ORDER BY Z_PK") + rows(path, "SELECT count(*), max(Z_PK) FROM ATRANSACTION")
                == before)
    }
}
