import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue #29: a file Quarry did not create gains only what its user asks for. Entities
/// defined or imported into it add their tables, and nothing of Quarry's choosing:
/// no `sqlite_sequence` (no AUTOINCREMENT), no sub-entity views, triggers or `_entity`
/// index (TEMP, made again at each open), no table of fetch request templates (the
/// sidecar keeps them).
@Suite struct ForeignFileAddsNothingTests {
    /// Each schema object of the file as `type name`, but its rows' own tables.
    static func schema(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master ORDER BY type, name").map {
                "\($0["type"] as String) \($0["name"] as String)"
            }
        }
    }

    @Test func definingImportingAndModelTemplatesAddOnlyTheTablesAskedFor() throws {
        let path = try foreignFile("CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name TEXT); INSERT INTO Artist VALUES (1, 'Miles')")
        let folder = try CoreDataFixtures.temporaryFolder()
        let modelFolder = folder.appendingPathComponent("Cars.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        try FetchTemplateTests.contents.write(to: modelFolder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let csv = folder.appendingPathComponent("t.csv")
        try "a,b\n1,x\n2,y\n".write(to: csv, atomically: true, encoding: .utf8)
        do {
            let h = try Harness(context: StoreOpener.open(path))
            h.run(
                #"""
                model("\#(modelFolder.path)")
                entity("Racer", { parent = "SportCar" }) { wins = "int" }
                SportCar:new{ make = "Ferrari", topSpeed = 320 }
                Racer:new{ make = "Fiat", topSpeed = 150, wins = 3 }
                save()
                import("\#(csv.path)", { entity = "T" })
                save()
                T:first("a == 2"):delete()
                T:new{ a = 3, b = "z" }
                save()
                """#)
        }
        #expect(try Self.schema(path) == ["table Artist", "table Car", "table T"], "the file gained more than the tables asked for")
        let sidecar = try String(contentsOfFile: path + ".quarry", encoding: .utf8)
        #expect(sidecar.contains("\"FastCars\"") && sidecar.contains("topSpeed > $MIN"), "the templates are not in the sidecar: \(sidecar)")

        // Reopened, the sub-entities' views are there again (TEMP), writable, and the
        // templates fetch; the file still gains nothing.
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            assert(count("Car") == 2 and count("SportCar") == 2 and count("Racer") == 1, count("Car") .. " " .. count("SportCar") .. " " .. count("Racer"))
            local fast = fetch{ template = "FastCars", vars = { MIN = 200 } }
            assert(#fast == 1 and fast[1].make == "Ferrari")
            local r = Racer:first("wins == 3"); r.wins = 4
            Racer:new{ make = "Lancia", topSpeed = 200, wins = 1 }
            SportCar:first("make == 'Ferrari'"):delete()
            save()
            assert(count("Racer", "wins >= 1") == 2 and count("SportCar") == 2)
            assert(#T:fetch() == 2)
            """#)
        #expect(try Self.schema(path) == ["table Artist", "table Car", "table T"])
        let ro = try Harness(context: StoreOpener.open(path, readOnly: true))
        ro.run(#"assert(count("Racer") == 2 and fetch{ template = "AllCars" }[1] ~= nil)"#)
    }
}
