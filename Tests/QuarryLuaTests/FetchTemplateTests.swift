import Foundation
import QuarryLua
import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `fetch{ template = "name", vars = { ... } }`: a model's fetch request templates, kept in
/// the Quarry store the model was loaded into.
@Suite struct FetchTemplateTests {
    static let contents = #"""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Car" representedClassName="Car" isAbstract="YES" syncable="YES">
                <attribute name="make" attributeType="String"/>
            </entity>
            <entity name="SportCar" representedClassName="SportCar" parentEntity="Car" syncable="YES">
                <attribute name="topSpeed" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
            <fetchRequest name="FastCars" entity="SportCar" predicateString="topSpeed &gt; $MIN"/>
            <fetchRequest name="AllCars" entity="Car"/>
            <fetchRequest name="ByMake" entity="Car" predicateString="make BEGINSWITH[c] $PREFIX"/>
        </model>
        """#

    @Test func templatesFetchWithTheirVariablesAndSurviveReopening() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let modelFolder = folder.appendingPathComponent("Cars.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        try Self.contents.write(to: modelFolder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("cars.db").path
        do {
            let h = try Harness(context: StoreOpener.open(path))
            h.run(
                #"""
                model("\#(modelFolder.path)")
                SportCar:new{ make = "Ferrari", topSpeed = 320 }
                SportCar:new{ make = "Fiat", topSpeed = 150 }
                save()
                """#)
        }
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            local fast = fetch{ template = "FastCars", vars = { MIN = 200 } }
            assert(#fast == 1 and fast[1].make == "Ferrari")
            assert(#fetch{ template = "AllCars" } == 2, "a template without a predicate fetches everything")
            assert(#fetch{ template = "ByMake", vars = { PREFIX = "f" }, sort = "-topSpeed" } == 2)
            assert(fetch{ "SportCar", template = "ByMake", vars = { PREFIX = "fia" } }[1].make == "Fiat", "a sub-entity of the template's")
            """#)
        let unknown = h.error(#"fetch{ template = "FastCar", vars = { MIN = 1 } }"#)
        #expect(unknown.contains("no fetch request template 'FastCar'") && unknown.contains("FastCars"), "\(unknown)")
        #expect(h.error(#"fetch{ template = "FastCars" }"#).contains("MIN"), "a variable left unfilled is named")
        #expect(h.error(#"fetch{ template = "FastCars", predicate = "make == 'x'", vars = { MIN = 1 } }"#).contains("a template holds its predicate"))
        #expect(h.error(#"fetch{ "Car", template = "FastCars", vars = { MIN = 1 } }"#).contains("fetches SportCar, not Car"))
        // Exported, the templates go with the model.
        let out = folder.appendingPathComponent("Out.xcdatamodel").path
        h.run(#"export(entities(), "\#(out)")"#)
        #expect(try CoreDataModel.load(contentsOf: out).fetchRequests.map(\.name) == ["AllCars", "ByMake", "FastCars"])
    }
}
