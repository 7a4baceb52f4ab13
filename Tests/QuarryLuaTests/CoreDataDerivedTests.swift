import Foundation
import GRDB
import QuarryCoreData
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Derived attributes of Core Data stores: computed by the store's own triggers, which call
/// Core Data's SQL functions. None of the real stores here has one, so each test adds one
/// to a copy of the cars store as Core Data lays it out: a column, the model's attribute
/// marked derived, and `Z_DA_` triggers in Core Data's form (their SQL, then a notice
/// through `NSCoreDataDATrigger...`). Every check reads the file with plain SQL.
@Suite struct CoreDataDerivedTests {
    struct Fixture {
        let path: String
        let model: String
        let sql: DatabaseQueue

        init(extraSQL: String = "") throws {
            path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
            let xml = try String(
                contentsOfFile: try CoreDataFixtures.path("cars/SampleModel.xcdatamodeld/SampleModel.xcdatamodel/contents"), encoding: .utf8)
            let marker = #"<attribute name="firstName" optional="YES" attributeType="String"/>"#
            #expect(xml.contains(marker))
            let derived =
                marker
                + #"<attribute name="carCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="cars.@count" usesScalarValueType="YES"/>"#
                + #"<attribute name="touched" optional="YES" attributeType="Date" derived="YES" derivationExpression="now()" usesScalarValueType="NO"/>"#
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("Derived.xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try xml.replacingOccurrences(of: marker, with: derived).write(
                to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
            model = folder.path
            let count = "(SELECT IFNULL(COUNT(ZOWNER), 0) FROM ZCAR WHERE ZOWNER = ZPERSON.Z_PK)"
            let notice = "SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZPERSON', Z_ENT, Z_PK, 'carCount', ZCARCOUNT) FROM ZPERSON"
            let writer = try DatabaseQueue(path: path)
            try writer.write { db in
                try db.execute(
                    sql: """
                        DELETE FROM Z_MODELCACHE;
                        ALTER TABLE ZPERSON ADD COLUMN ZCARCOUNT INTEGER;
                        ALTER TABLE ZPERSON ADD COLUMN ZTOUCHED TIMESTAMP;
                        UPDATE ZPERSON SET ZCARCOUNT = \(count);
                        CREATE TRIGGER IF NOT EXISTS Z_DA_ZPERSON_Person_carCount_ZCAR_INSERT AFTER INSERT ON ZCAR FOR EACH ROW WHEN NEW.ZOWNER IS NOT NULL BEGIN UPDATE ZPERSON SET ZCARCOUNT = \(count) WHERE Z_PK = NEW.ZOWNER; \(notice) WHERE Z_PK = NEW.ZOWNER; END;
                        CREATE TRIGGER IF NOT EXISTS Z_DA_ZPERSON_Person_carCount_ZCAR_UPDATE AFTER UPDATE OF ZOWNER ON ZCAR FOR EACH ROW BEGIN UPDATE ZPERSON SET ZCARCOUNT = \(count) WHERE Z_PK IN (OLD.ZOWNER, NEW.ZOWNER); \(notice) WHERE Z_PK IN (OLD.ZOWNER, NEW.ZOWNER); END;
                        CREATE TRIGGER IF NOT EXISTS Z_DA_ZPERSON_Person_carCount_ZCAR_DELETE AFTER DELETE ON ZCAR FOR EACH ROW WHEN OLD.ZOWNER IS NOT NULL BEGIN UPDATE ZPERSON SET ZCARCOUNT = \(count) WHERE Z_PK = OLD.ZOWNER; \(notice) WHERE Z_PK = OLD.ZOWNER; END;
                        CREATE TRIGGER IF NOT EXISTS Z_DA_ZPERSON_Person_touched_UPDATE AFTER UPDATE OF Z_OPT ON ZPERSON FOR EACH ROW BEGIN UPDATE ZPERSON SET ZTOUCHED = NSCoreDataNow() WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZPERSON', Z_ENT, Z_PK, 'touched', ZTOUCHED) FROM ZPERSON WHERE Z_PK = NEW.Z_PK; END;
                        \(extraSQL)
                        """)
            }
            try writer.close()
            sql = try DatabaseQueue(path: path)
        }

        func open() throws -> Harness { try Harness(context: try StoreOpener.open(path, model: model)) }

        func files() -> [Data?] { ["", "-wal"].map { FileManager.default.contents(atPath: path + $0) } }
    }

    @Test func theStoresTriggersKeepDerivedAttributesWhenQuarrySaves() throws {
        let f = try Fixture()
        let h = try f.open()
        let (owner, before) = try #require(
            try f.sql.read { db in
                try Row.fetchOne(db, sql: "SELECT Z_PK, ZCARCOUNT FROM ZPERSON WHERE ZCARCOUNT > 0 ORDER BY Z_PK LIMIT 1").map {
                    ($0[0] as Int64, $0[1] as Int64)
                }
            })
        #expect(h.string(#"Person:get("Person/\#(owner)").carCount"#) == String(before))
        #expect(
            h.string(#"count("Person", "carCount > 1")"#)
                == String(try f.sql.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZPERSON WHERE ZCARCOUNT > 1") ?? -1 }))
        // A new car for the owner: the store's triggers count it, and the object in use
        // has the new count after the save, as Core Data's trigger notices give it.
        h.run(
            #"""
            p = Person:get("Person/\#(owner)")
            Car:new{ maker = "Alfa", model = "Giulia", numberPlate = "DERIVED-1", owner = p }
            save()
            assert(p.carCount == \#(before + 1), tostring(p.carCount))
            """#)
        let sqlCount = try f.sql.read { db in try Int64.fetchOne(db, sql: "SELECT ZCARCOUNT FROM ZPERSON WHERE Z_PK = ?", arguments: [owner]) }
        #expect(sqlCount == before + 1)
        // A change of the person moves its Z_OPT: `now()` is written by NSCoreDataNow, in Core Data's epoch.
        h.run(#"p.lastName = "Derived"; save()"#)
        let touched = try f.sql.read { db in try Double.fetchOne(db, sql: "SELECT ZTOUCHED FROM ZPERSON WHERE Z_PK = ?", arguments: [owner]) }
        #expect(abs((touched ?? 0) - Date().timeIntervalSinceReferenceDate) < 600)
        #expect(try f.sql.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func settingADerivedAttributeIsRefusedWithNothingWritten() throws {
        let f = try Fixture()
        let h = try f.open()
        let before = f.files()
        let message = h.error(#"local p = Person:get("Person/1"); p.carCount = 99; p.lastName = "x"; save()"#)
        #expect(
            message.contains("Person.carCount") && message.contains("derived") && message.contains("cars.@count")
                && message.contains("nothing was written"), "\(message)")
        #expect(h.string("haschanges()") == "true")
        h.run("rollback()")
        #expect(h.error(#"Person:updateall("lastName != nil", {}, { carCount = 1 })"#).contains("derived"))
        #expect(f.files() == before)
    }

    @Test func aTriggerCallingAFunctionQuarryLacksRefusesSaves() throws {
        let f = try Fixture(
            extraSQL:
                "CREATE TRIGGER Z_DA_ZCAR_Car_other_UPDATE AFTER UPDATE OF ZMODEL ON ZCAR FOR EACH ROW BEGIN SELECT NSCoreDataSomethingNew(NEW.Z_PK); END;"
        )
        let h = try f.open()
        #expect(h.string(#"count("Car")"#) == "125")
        let before = f.files()
        let message = h.error(#"Car:get("Car/1").model = "x"; save()"#)
        #expect(
            message.contains("Z_DA_ZCAR_Car_other_UPDATE") && message.contains("NSCoreDataSomethingNew") && message.contains("nothing was written"),
            "\(message)")
        #expect(f.files() == before)
    }

    @Test func functionCallsAreFoundOutsideQuotes() {
        #expect(CoreDataStore.calledFunctions("SELECT f(1), g (2), 'h(3)', \"i\" FROM t WHERE j(k(4))") == ["f", "g", "j", "k"])
    }
}
