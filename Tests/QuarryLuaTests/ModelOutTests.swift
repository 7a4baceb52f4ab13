import Foundation
import QuarryCoreData
/// `Item:swift(style)` and `export(entities(), "Model.xcdatamodel")` from Lua.
import QuarryModel
import QuarryModelFiles
import QuarryStore
import QuarryStores
import QuarryTestSupport
import Testing

@Suite struct ModelOutTests {
    static let definitions = """
        entity "Person" { name = "string", items = { many = "Item", inverse = "owner" } }
        entity "Item" { title = "string?", code = { "string", unique = true }, n = { "int16", default = 3 },
                        owner = { one = "Person", inverse = "items", delete = "cascade" } }
        """

    @Test func swiftOfAnEntityInEachStyle() throws {
        let h = try Harness()
        h.run(Self.definitions)
        let swiftData = h.string("Item:swift()") ?? ""
        for line in [
            "@Model", "final class Item {", "var title: String?", "@Attribute(.unique) var code: String", "var n: Int16 = 3",
            "@Relationship(deleteRule: .cascade) var owner: Person? = nil", "init(code: String) {"
        ] {
            #expect(swiftData.contains(line), "\(line) in \(swiftData)")
        }
        let coreData = h.string("Item:swift('coredata')") ?? ""
        for line in [
            "@objc(Item)", "public class Item: NSManagedObject {", "@NSManaged public var n: Int16",
            "@nonobjc public class func fetchRequest() -> NSFetchRequest<Item> {"
        ] {
            #expect(coreData.contains(line), "\(line) in \(coreData)")
        }
        #expect(h.string("Item:swift('SwiftData')") == swiftData)
        #expect(h.error("Item:swift('kotlin')").contains("style must be 'swiftdata' or 'coredata', got 'kotlin'"))
        #expect(h.stackTop == 0)
    }

    @Test func exportWritesAModelThatLoadsBackTheSame() throws {
        let h = try Harness()
        h.run(Self.definitions)
        let folder = try CoreDataFixtures.temporaryFolder().appendingPathComponent("Model.xcdatamodel").path
        #expect(h.string("export(entities(), '\(folder)')") == "2")
        let loaded = try CoreDataModel.load(contentsOf: folder)
        #expect(loaded == CoreDataModel(of: h.context))
        let back = loaded.quarryEntities()
        #expect(back.map(\.name) == ["Item", "Person"])
        #expect(back.first?.attribute(named: "code")?.isUnique == true)
        #expect(back.first?.relationship(named: "owner")?.deleteRule == .cascade)
    }

    @Test func exportOfAnEntityWithoutItsDestinationIsRefusedNamingThePath() throws {
        let h = try Harness()
        h.run(Self.definitions)
        let folder = try CoreDataFixtures.temporaryFolder().appendingPathComponent("Part.xcdatamodel").path
        let message = h.error("export({ Item }, '\(folder)')")
        #expect(message.contains(folder) && message.contains("Person") && !message.contains("\n"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(h.error("export({ 'Nope' }, '\(folder)')").contains("Nope"))
        #expect(h.error("export({ 1 }, '\(folder)')").contains("a table of entities expected"))
    }

    @Test func aCoreDataStoreExportsAndWritesSwiftFromItsModel() throws {
        let h = try Harness(context: OpenFileRequest.open(path: CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")))
        let folder = try CoreDataFixtures.temporaryFolder().appendingPathComponent("Cars.xcdatamodel").path
        #expect(h.string("export(entities(), '\(folder)')") == "4")
        let original = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.momd"))
        #expect(try CoreDataModel.load(contentsOf: folder).entities.map(\.name) == original.entities.map(\.name))
        #expect(try CoreDataModel.load(contentsOf: folder).entity(named: "SportCar")?.parent == "Car")
        let swift = h.string("SportCar:swift()") ?? ""
        #expect(swift.contains("class SportCar: Car {"), "\(swift)")
    }
}
