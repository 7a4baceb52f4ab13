/// The Swift written for a model: what each construct must produce, for Quarry's entities
/// and for the real models, and all of it type-checked by swiftc (see `SwiftTypeChecker`).
import Foundation
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

@Suite struct SwiftModelSourceTests {
    static var quarryModel: CoreDataModel {
        var vehicle = EntityDescription(name: "Vehicle", attributes: [AttributeDescription(name: "maker", type: .string)])
        vehicle.isAbstract = true
        var sport = EntityDescription(
            name: "Sport",
            attributes: [
                AttributeDescription(name: "speed", type: .double),
                AttributeDescription(name: "turbo", type: .bool, isOptional: true)
            ])
        sport.parent = "Vehicle"
        return CoreDataModel(
            entities: [CoreDataModelEntitiesTests.item] + CoreDataModelEntitiesTests.others.filter { $0.name != "Vehicle" && $0.name != "Sport" }
                + [vehicle, sport])
    }

    func lines(_ text: String?) -> [String] {
        (text ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func swiftDataConstructs() throws {
        let source = SwiftModelSource(model: Self.quarryModel)
        let item = lines(source.source(for: "Item", style: .swiftData))
        #expect(item.prefix(2) == ["import Foundation", "import SwiftData"])
        #expect(item.contains("@Model") && item.contains("final class Item {"))
        let expected = [
            "var title: String?", "@Attribute(.unique) var code: String", "var n16: Int16 = 0", "var n32: Int32 = -7",
            "var n64: Int64", "var ratio: Double = 0.25", "var price: Decimal? = 2", "var done: Bool = false",
            "var when: Date = Date(timeIntervalSinceReferenceDate: 60)", "var id: UUID?", "var photo: Data?", "var extra: String?",
            "#Unique<Item>([\\.a, \\.b])", "#Index<Item>([\\.n16])",
            "@Relationship(deleteRule: .deny) var owner: Person? = nil",
            "@Relationship(deleteRule: .cascade, inverse: \\Tag.items) var tags: [Tag] = []",
            "init(a: String, b: String, code: String, n64: Int64) {", "self.code = code", "self.n64 = n64"
        ]
        for line in expected { #expect(item.contains(line), "missing: \(line)\n\(item.joined(separator: "\n"))") }
        // The inverse is declared once, on the to-many side: Person.items, not Item.owner.
        #expect(lines(source.source(for: "Person", style: .swiftData)).contains("@Relationship(inverse: \\Item.owner) var items: [Item] = []"))
        // Many-to-many: the side sorting first (Item.tags) declares it, Tag.items does not.
        #expect(lines(source.source(for: "Tag", style: .swiftData)).contains("@Relationship(deleteRule: .noAction) var items: [Item] = []"))

        let vehicle = lines(source.source(for: "Vehicle", style: .swiftData))
        #expect(vehicle.contains("class Vehicle {") && !vehicle.contains("final class Vehicle {"))
        #expect(vehicle.contains("@available(iOS 26, macOS 26, *)") && vehicle.contains { $0.hasPrefix("// Abstract") })
        let sport = lines(source.source(for: "Sport", style: .swiftData))
        #expect(sport.contains("final class Sport: Vehicle {"))
        #expect(sport.contains("init(maker: String, speed: Double) {") && sport.contains("super.init(maker: maker)"))
        #expect(sport.contains("var turbo: Bool?") && !sport.contains("var maker: String"))
        try SwiftTypeChecker.checkSwiftData(source.source(style: .swiftData))
    }

    @Test func coreDataConstructs() throws {
        let source = SwiftModelSource(model: Self.quarryModel)
        let item = lines(source.source(for: "Item", style: .coreData))
        #expect(item.prefix(2) == ["import Foundation", "import CoreData"])
        let expected = [
            "@objc(Item)", "public class Item: NSManagedObject {", "@nonobjc public class func fetchRequest() -> NSFetchRequest<Item> {",
            "return NSFetchRequest<Item>(entityName: \"Item\")",
            "@NSManaged public var title: String?", "@NSManaged public var code: String?", "@NSManaged public var n16: Int16",
            "@NSManaged public var n32: Int32", "@NSManaged public var n64: Int64", "@NSManaged public var ratio: Double",
            "@NSManaged public var price: NSDecimalNumber?", "@NSManaged public var done: Bool", "@NSManaged public var when: Date?",
            "@NSManaged public var id: UUID?", "@NSManaged public var photo: Data?", "@NSManaged public var extra: String?",
            "@NSManaged public var owner: Person?", "@NSManaged public var tags: NSSet?",
            "@objc(addTagsObject:)", "@NSManaged public func addToTags(_ value: Tag)", "@NSManaged public func removeFromTags(_ values: NSSet)",
            "extension Item : Identifiable {"
        ]
        for line in expected { #expect(item.contains(line), "missing: \(line)\n\(item.joined(separator: "\n"))") }
        let sport = lines(source.source(for: "Sport", style: .coreData))
        #expect(sport.contains("public class Sport: Vehicle {") && sport.contains("@NSManaged public var turbo: NSNumber?"))
        #expect(!sport.contains("extension Sport : Identifiable {"))
        try SwiftTypeChecker.checkCoreData(source.source(style: .coreData))
    }

    @Test func orderedBoundedAndTransientFromAModel() throws {
        let model = CoreDataModel(entities: [
            CoreDataEntity(
                name: "List",
                attributes: [
                    CoreDataAttribute(name: "cache", type: .integer64, isOptional: false, isTransient: true),
                    CoreDataAttribute(name: "picture", type: .binary, allowsExternalBinaryDataStorage: true),
                    CoreDataAttribute(name: "default", type: .string, isOptional: false, defaultValue: "say \"hi\"\n")
                ],
                relationships: [
                    CoreDataRelationship(
                        name: "entries", destination: "Entry", inverse: "list", isToMany: true, isOrdered: true,
                        minCount: 1, maxCount: 5, deleteRule: .cascade)
                ]),
            CoreDataEntity(name: "Entry", relationships: [CoreDataRelationship(name: "list", destination: "List", inverse: "entries")])
        ])
        let source = SwiftModelSource(model: model)
        let swiftData = lines(source.source(for: "List", style: .swiftData))
        #expect(swiftData.contains("@Transient var cache: Int64? = nil"))
        #expect(swiftData.contains("@Attribute(.externalStorage) var picture: Data? = nil"))
        #expect(swiftData.contains("var `default`: String = \"say \\\"hi\\\"\\n\""))
        #expect(
            swiftData.contains(
                "@Relationship(deleteRule: .cascade, minimumModelCount: 1, maximumModelCount: 5, inverse: \\Entry.list) var entries: [Entry] = []  // ordered in the model: a SwiftData array keeps no order"
            ))
        let coreData = lines(source.source(for: "List", style: .coreData))
        #expect(coreData.contains("@NSManaged public var entries: NSOrderedSet?") && coreData.contains("@NSManaged public var cache: Int64"))
        #expect(coreData.contains("@NSManaged public func insertIntoEntries(_ value: Entry, at idx: Int)"))
        try SwiftTypeChecker.checkSwiftData(source.source(style: .swiftData))
        try SwiftTypeChecker.checkCoreData(source.source(style: .coreData))
    }

    /// Issue #79: a fetch index over a to-many (an array of models in SwiftData) gets no
    /// `#Index`, which SwiftData does not take; the entity's other indexes stay.
    @Test func noIndexOverAToMany() throws {
        let model = CoreDataModel(entities: [
            CoreDataEntity(
                name: "List", attributes: [CoreDataAttribute(name: "title", type: .string)],
                relationships: [CoreDataRelationship(name: "entries", destination: "Entry", inverse: "list", isToMany: true)],
                fetchIndexes: [
                    CoreDataFetchIndex(name: "byEntries", properties: ["entries"]), CoreDataFetchIndex(name: "byTitle", properties: ["title"])
                ]),
            CoreDataEntity(name: "Entry", relationships: [CoreDataRelationship(name: "list", destination: "List", inverse: "entries")])
        ])
        let source = SwiftModelSource(model: model)
        let list = lines(source.source(for: "List", style: .swiftData))
        #expect(list.contains("#Index<List>([\\.title])"), "\(list.joined(separator: "\n"))")
        #expect(!list.contains { $0.hasPrefix("#Index") && $0.contains("entries") }, "\(list.joined(separator: "\n"))")
        try SwiftTypeChecker.checkSwiftData(source.source(style: .swiftData))
    }

    @Test func realModelsTypeCheckInBothStyles() throws {
        for path in [
            "cars/SampleModel.momd", "cars/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel", "posts/CoreDataMigration_Example.xcdatamodeld",
            "authors/Sample.xcdatamodeld", "surfjournal/SurfJournalModel.xcdatamodeld"
        ] {
            let model = try CoreDataModel.load(contentsOf: CoreDataFixtures.path(path))
            let source = SwiftModelSource(model: model)
            let swiftData = source.source(style: .swiftData)
            let coreData = source.source(style: .coreData)
            // Every entity is a class in both styles.
            for entity in model.entities {
                let name = SwiftModelSource.className(entity)
                #expect(swiftData.contains("class \(name)"), "\(path): \(name)")
                #expect(coreData.contains("@objc(\(name))"), "\(path): \(name)")
            }
            try SwiftTypeChecker.checkSwiftData(swiftData)
            try SwiftTypeChecker.checkCoreData(coreData)
        }
        let cars = SwiftModelSource(model: try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.momd")))
        let expensive = lines(cars.source(for: "ExpensiveSportCar", style: .swiftData))
        #expect(expensive.contains("final class ExpensiveSportCar: SportCar {"))
        #expect(expensive.contains("var isLimitedEdition: Bool? = false"))
        #expect(expensive.contains("override init(numberPlate: String) {") && expensive.contains("super.init(numberPlate: numberPlate)"))
        let person = lines(cars.source(for: "Person", style: .swiftData))
        #expect(person.contains("#Unique<Person>([\\.firstName, \\.lastName])"))
        #expect(person.contains("@Transient var isDriving: Bool = false"))
        #expect(lines(cars.source(for: "Car", style: .swiftData)).contains("@Attribute(.unique) var numberPlate: String"))
        #expect(
            lines(cars.source(for: "Car", style: .swiftData)).contains(
                "@Attribute(.transformable(by: \"ColorTransformer\")) var color: NSObject? = nil"))
        #expect(lines(cars.source(for: "SportCar", style: .coreData)).contains("public class SportCar: Car {"))
        #expect(SwiftModelSource(model: CoreDataModel(entities: [])).source(for: "Nope", style: .swiftData) == nil)
    }

    /// Names no plain Swift identifier spells (issue 48 item 7): each property is an
    /// identifier any Swift takes (no raw identifier), distinct within its class, with the
    /// store's name beside it where Swift needs it; both styles type-check.
    @Test func everyNameBecomesAnIdentifierAndKeepsItsOriginal() throws {
        let attributes =
            ["$0", "first name", "first_name", "class", "1st", "cafés", "%%", "a-b"].map {
                AttributeDescription(name: $0, type: .string, isOptional: $0 != "first name")
            } + [AttributeDescription(name: "n b", type: .int64)]
        let place = EntityDescription(
            name: "Café", attributes: attributes,
            relationships: [RelationshipDescription(name: "the owner", destination: "Owner", inverse: "all cafés", isToMany: false)])
        let owner = EntityDescription(
            name: "Owner", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
            relationships: [RelationshipDescription(name: "all cafés", destination: "Café", inverse: "the owner", isToMany: true)])
        // Two tables that would make one class: the one Swift cannot spell is numbered.
        let spaced = EntityDescription(
            name: "order items", attributes: [AttributeDescription(name: "n", type: .int64, isOptional: true)],
            relationships: [RelationshipDescription(name: "café", destination: "Café", isToMany: false)])
        let plain = EntityDescription(name: "order_items", attributes: [AttributeDescription(name: "n", type: .int64, isOptional: true)])
        let model = CoreDataModel(entities: [place, owner, spaced, plain])
        let names = SwiftNames(model: model)
        #expect([names.type(of: "Café"), names.type(of: "order items"), names.type(of: "order_items")] == ["Café", "order_items_2", "order_items"])
        let written = ["$0", "first name", "first_name", "class", "1st", "cafés", "%%", "a-b", "n b"].map { names.property($0, of: "Café") }
        #expect(written == ["_0", "first_name_2", "first_name", "`class`", "_1st", "cafés", "_25_25", "a_b", "n_b"])
        #expect(names.property("all cafés", of: "Owner") == "all_cafés")
        let swiftData = SwiftModelSource(model: model).source(style: .swiftData)
        let cafe = lines(swiftData)
        for line in [
            "@Attribute(originalName: \"$0\") var _0: String? = nil", "@Attribute(originalName: \"first name\") var first_name_2: String",
            "var first_name: String?", "var `class`: String?", "var cafés: String?", "@Attribute(originalName: \"n b\") var n_b: Int64",
            "@Relationship(originalName: \"the owner\") var the_owner: Owner? = nil",
            "@Relationship(originalName: \"all cafés\", inverse: \\Café.the_owner) var all_cafés: [Café] = []",
            "init(first_name_2: String, n_b: Int64) {", "self.first_name_2 = first_name_2",
            "final class order_items_2 {", "final class order_items {", "var café: Café?"
        ] {
            #expect(cafe.contains(line), "missing: \(line)\n\(swiftData)")
        }
        #expect(!swiftData.contains("`$") && !swiftData.contains("` "), "\(swiftData)")
        try SwiftTypeChecker.checkSwiftData(swiftData)
        let coreData = SwiftModelSource(model: model).source(style: .coreData)
        let managed = lines(coreData)
        for line in [
            "@NSManaged public var first_name: String?", "@NSManaged public var `class`: String?",
            "public var first_name_2: String? {", "get { value(forKey: \"first name\") as? String }",
            "set { setValue(newValue, forKey: \"first name\") }", "public var n_b: NSNumber? {",
            "public var _0: String? {", "get { value(forKey: \"$0\") as? String }", "public var the_owner: Owner? {",
            "@objc(order_items_2)", "public class order_items_2: NSManagedObject {", "@NSManaged public var café: Café?"
        ] {
            #expect(managed.contains(line), "missing: \(line)\n\(coreData)")
        }
        try SwiftTypeChecker.checkCoreData(coreData)
        // An Objective-C name Swift spells otherwise keeps it in @objc.
        let keyword = CoreDataModel(entities: [
            EntityDescription(name: "K", attributes: [AttributeDescription(name: "_", type: .string, isOptional: true)])
        ])
        let k = SwiftModelSource(model: keyword).source(style: .coreData)
        #expect(lines(k).contains("@objc(_)") && lines(k).contains("@NSManaged public var _5F: String?"), "\(k)")
        try SwiftTypeChecker.checkCoreData(k)
    }

    @Test func theTypeCheckerRefusesWrongSwift() {
        // The stand-ins are strict enough to fail: a key path to no property, a scalar
        // @NSManaged with a value, and a class that is not an NSManagedObject.
        #expect(throws: SwiftTypeChecker.Failure.self) {
            try SwiftTypeChecker.checkSwiftData("import SwiftData\n@Model final class A { @Relationship(inverse: \\A.nope) var x: [A] = [] }")
        }
        #expect(throws: SwiftTypeChecker.Failure.self) {
            try SwiftTypeChecker.checkCoreData("import CoreData\n@objc(A) public class A: NSManagedObject { @NSManaged public var n: Int64 = 0 }")
        }
        #expect(throws: SwiftTypeChecker.Failure.self) {
            try SwiftTypeChecker.checkCoreData("import CoreData\n@objc(A) public class A { @NSManaged public var s: String? }")
        }
    }
}
