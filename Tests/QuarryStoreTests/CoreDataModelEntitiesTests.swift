/// Quarry's schema to a Core Data model and back.
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

@Suite struct CoreDataModelEntitiesTests {
    static let item: EntityDescription = {
        var entity = EntityDescription(
            name: "Item",
            attributes: [
                AttributeDescription(name: "title", type: .string, isOptional: true),
                AttributeDescription(name: "code", type: .string, isUnique: true),
                AttributeDescription(name: "n16", type: .int16, defaultValue: .integer(0), isIndexed: true),
                AttributeDescription(name: "n32", type: .int32, defaultValue: .integer(-7)),
                AttributeDescription(name: "n64", type: .int64),
                AttributeDescription(name: "ratio", type: .double, defaultValue: .real(0.25)),
                AttributeDescription(name: "price", type: .decimal, isOptional: true, defaultValue: .decimal("2")),
                AttributeDescription(name: "done", type: .bool, defaultValue: .bool(false)),
                AttributeDescription(name: "when", type: .date, defaultValue: .date(CoreDataStore.epochOffset + 60)),
                AttributeDescription(name: "id", type: .uuid, isOptional: true),
                AttributeDescription(name: "photo", type: .binary, isOptional: true),
                AttributeDescription(name: "extra", type: .json, isOptional: true),
                AttributeDescription(name: "a", type: .string), AttributeDescription(name: "b", type: .string)
            ],
            relationships: [
                RelationshipDescription(name: "owner", destination: "Person", inverse: "items", isToMany: false, deleteRule: .deny),
                RelationshipDescription(name: "tags", destination: "Tag", inverse: "items", isToMany: true, deleteRule: .cascade)
            ])
        entity.uniqueness = [["a", "b"]]
        return entity
    }()

    static let others: [EntityDescription] = {
        var sport = EntityDescription(
            name: "Sport",
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "speed", type: .double)
            ])
        sport.parent = "Vehicle"
        var vehicle = EntityDescription(name: "Vehicle", attributes: [AttributeDescription(name: "name", type: .string)])
        vehicle.isAbstract = true
        return [
            EntityDescription(
                name: "Person", attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(name: "items", destination: "Item", inverse: "owner", isToMany: true)
                ]),
            EntityDescription(
                name: "Tag", attributes: [],
                relationships: [
                    RelationshipDescription(name: "items", destination: "Item", inverse: "tags", isToMany: true, deleteRule: .noaction)
                ]),
            vehicle, sport
        ]
    }()

    @Test func quarryEntitiesBecomeACoreDataModel() throws {
        let model = CoreDataModel(entities: [Self.item] + Self.others)
        let item = try #require(model.entity(named: "Item"))
        let types = Dictionary(uniqueKeysWithValues: item.attributes.map { ($0.name, $0.type) })
        #expect(
            types == [
                "title": .string, "code": .string, "n16": .integer16, "n32": .integer32, "n64": .integer64,
                "ratio": .double, "price": .decimal, "done": .boolean, "when": .date, "id": .uuid,
                "photo": .binary, "extra": .string, "a": .string, "b": .string
            ])
        #expect(item.attribute(named: "title")?.isOptional == true && item.attribute(named: "n64")?.isOptional == false)
        #expect(item.attribute(named: "n16")?.defaultValue == "0" && item.attribute(named: "n16")?.isIndexed == true)
        #expect(item.attribute(named: "n32")?.defaultValue == "-7")
        #expect(item.attribute(named: "ratio")?.defaultValue == "0.25")
        #expect(item.attribute(named: "price")?.defaultValue == "2")
        #expect(item.attribute(named: "done")?.defaultValue == "NO")
        #expect(item.attribute(named: "when")?.defaultValue == "60")
        #expect(item.uniquenessConstraints == [["code"], ["a", "b"]])
        #expect(item.className == "Item")
        #expect(item.relationship(named: "owner") == CoreDataRelationship(name: "owner", destination: "Person", inverse: "items", deleteRule: .deny))
        #expect(
            item.relationship(named: "tags")
                == CoreDataRelationship(name: "tags", destination: "Tag", inverse: "items", isToMany: true, deleteRule: .cascade))
        #expect(model.entity(named: "Tag")?.relationship(named: "items")?.deleteRule == .noAction)
        #expect(model.entity(named: "Vehicle")?.isAbstract == true)
        // The sub-entity repeats its parent's `name`: only `speed` is its own.
        #expect(model.entity(named: "Sport")?.parent == "Vehicle")
        #expect(model.entity(named: "Sport")?.attributes.map(\.name) == ["speed"])
        #expect(model.allAttributes(of: "Sport").map(\.name) == ["name", "speed"])
        // What Xcode would load: it passes the model reader's own checks.
        try ModelValidation.check(model, path: "test")
    }

    @Test func andBackToTheSameEntitiesExceptJSON() throws {
        let back = CoreDataModel(entities: [Self.item] + Self.others).quarryEntities()
        let item = try #require(back.first { $0.name == "Item" })
        for original in Self.item.attributes {
            let attribute = try #require(item.attribute(named: original.name))
            // json has no Core Data type: it goes as String and comes back as string.
            #expect(attribute.type == (original.type == .json ? .string : original.type), "\(original.name)")
            #expect(attribute.isOptional == original.isOptional, "\(original.name)")
            #expect(attribute.defaultValue == original.defaultValue, "\(original.name)")
            #expect(attribute.isIndexed == original.isIndexed, "\(original.name)")
            #expect(attribute.isUnique == original.isUnique, "\(original.name)")
        }
        #expect(item.uniqueness == [["a", "b"]])
        #expect(Set(item.relationships.map(\.name)) == ["owner", "tags"])
        #expect(item.relationship(named: "owner")?.deleteRule == .deny && item.relationship(named: "owner")?.inverse == "items")
        #expect(item.relationship(named: "tags")?.isToMany == true && item.relationship(named: "tags")?.deleteRule == .cascade)
        let sport = try #require(back.first { $0.name == "Sport" })
        #expect(sport.parent == "Vehicle" && sport.attributeNames == ["speed"])
        #expect(back.first { $0.name == "Vehicle" }?.isAbstract == true)
    }

    @Test func realModelsBecomeQuarryEntities() throws {
        let cars = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.momd")).quarryEntities()
        let car = try #require(cars.first { $0.name == "Car" })
        // currentDrivingSpeed is transient: no storage, no attribute.
        #expect(car.attributeNames == ["color", "maker", "markedForDeletionAsOf", "model", "numberPlate"])
        #expect(car.attribute(named: "color")?.type == .binary)
        #expect(car.attribute(named: "numberPlate")?.isUnique == true && car.uniqueness.isEmpty)
        let person = try #require(cars.first { $0.name == "Person" })
        #expect(person.attribute(named: "isDriving") == nil)
        #expect(person.uniqueness == [["firstName", "lastName"]])
        #expect(person.relationship(named: "cars")?.isToMany == true && person.relationship(named: "cars")?.inverse == "owner")
        let expensive = try #require(cars.first { $0.name == "ExpensiveSportCar" })
        #expect(expensive.parent == "SportCar" && expensive.attributeNames == ["isLimitedEdition"])
        #expect(expensive.attribute(named: "isLimitedEdition")?.defaultValue == .bool(false))

        let surf = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("surfjournal/SurfJournalModel.xcdatamodeld")).quarryEntities()
        #expect(surf.first?.attribute(named: "rating")?.defaultValue == .integer(0))
        #expect(surf.first?.attribute(named: "rating")?.type == .int16)
    }

    @Test func badDefaultsAreLeftOutNotGuessed() {
        #expect(CoreDataModel.quarryDefault("abc", type: .int64) == nil)
        #expect(CoreDataModel.quarryDefault("70000", type: .int16) == nil)
        #expect(CoreDataModel.quarryDefault("maybe", type: .bool) == nil)
        #expect(CoreDataModel.quarryDefault("not-a-uuid", type: .uuid) == nil)
        #expect(CoreDataModel.quarryDefault("0", type: .date) == .date(CoreDataStore.epochOffset))
        #expect(CoreDataModel.quarryDefault("YES", type: .bool) == .bool(true))
    }

    @Test func aCoreDataStoreExportsTheModelItWasReadWith() throws {
        let context = try OpenFileRequest.open(path: CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite"))
        let model = CoreDataModel(of: context)
        // Not the flattened views: SportCar declares nothing, Car does not hold isLimitedEdition.
        #expect(model.entity(named: "SportCar")?.attributes.isEmpty == true)
        #expect(model.entity(named: "Car")?.attribute(named: "isLimitedEdition") == nil)
        #expect(CoreDataModel(of: context, entities: ["Person"]).entities.map(\.name) == ["Person"])
    }
}
