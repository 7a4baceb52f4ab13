import Foundation
import GRDB
/// The model reader against real Core Data files: the facts asserted were checked
/// independently (python's plistlib and zlib on copies of the stores, and the XML by eye).
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

@Suite struct CoreDataModelTests {
    func cacheOf(_ store: String) throws -> CoreDataModel {
        try CoreDataModel.fromStore(atPath: CoreDataFixtures.copyOfStore(store))
    }

    /// What every source agrees on: the class name is left out (a cache may not record it).
    func normalized(_ model: CoreDataModel) -> CoreDataModel {
        var model = model
        for i in model.entities.indices { model.entities[i].className = nil }
        return model
    }

    @Test func carsCacheHasTheHierarchyTypesAndRelationships() throws {
        let model = try cacheOf("cars/SampleModel_V1.sqlite")
        #expect(model.entities.map(\.name) == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        #expect(model.entity(named: "SportCar")?.parent == "Car")
        #expect(model.entity(named: "ExpensiveSportCar")?.parent == "SportCar")
        #expect(model.entity(named: "Car")?.parent == nil)
        #expect(model.rootEntity(of: "ExpensiveSportCar")?.name == "Car")
        #expect(model.descendants(of: "Car").map(\.name) == ["Car", "SportCar", "ExpensiveSportCar"])
        #expect(model.subentities(of: "SportCar").map(\.name) == ["ExpensiveSportCar"])

        let car = try #require(model.entity(named: "Car"))
        #expect(car.attributes.map(\.name) == ["color", "currentDrivingSpeed", "maker", "markedForDeletionAsOf", "model", "numberPlate"])
        #expect(car.attributes.map(\.type) == [.transformable, .integer64, .string, .date, .string, .string])
        #expect(car.attribute(named: "color")?.valueTransformerName == "ColorTransformer")
        #expect(car.attribute(named: "currentDrivingSpeed")?.isTransient == true)
        #expect(car.attribute(named: "currentDrivingSpeed")?.defaultValue == "0")
        #expect(car.attribute(named: "numberPlate")?.isOptional == false)
        #expect(car.attribute(named: "maker")?.isOptional == true)
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        let owner = try #require(car.relationship(named: "owner"))
        #expect(owner.destination == "Person" && owner.inverse == "cars")
        #expect(!owner.isToMany && owner.maxCount == 1 && owner.deleteRule == .nullify && owner.isOptional && !owner.isOrdered)

        // Subentities declare only their own properties; inherited ones come back through the model.
        #expect(model.entity(named: "SportCar")?.attributes.isEmpty == true)
        #expect(model.entity(named: "ExpensiveSportCar")?.attributes.map(\.name) == ["isLimitedEdition"])
        #expect(model.entity(named: "ExpensiveSportCar")?.attributes.first?.defaultValue == "NO")
        #expect(model.allAttributes(of: "ExpensiveSportCar").count == 7)
        #expect(model.allRelationships(of: "SportCar").map(\.name) == ["owner"])

        let person = try #require(model.entity(named: "Person"))
        #expect(person.attributes.map(\.type) == [.string, .uuid, .boolean, .string, .date])
        #expect(person.attribute(named: "isDriving")?.isTransient == true)
        #expect(person.attribute(named: "isDriving")?.isOptional == false)
        #expect(person.attribute(named: "id")?.isOptional == false)
        #expect(person.uniquenessConstraints == [["firstName", "lastName"]])
        let cars = try #require(person.relationship(named: "cars"))
        #expect(cars.destination == "Car" && cars.inverse == "owner" && cars.isToMany && cars.maxCount == 0 && !cars.isOrdered)
    }

    @Test func carsModelIsTheSameFromXcodeCompiledAndCache() throws {
        let xcode = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.xcdatamodeld"))
        let compiled = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.momd"))
        let mom = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.momd/SampleModel.mom"))
        let cache = try cacheOf("cars/SampleModel_V1.sqlite")
        #expect(normalized(xcode) == normalized(cache))
        #expect(normalized(compiled) == normalized(cache))
        #expect(mom == compiled)
        #expect(xcode.entity(named: "Car")?.className == "Car")
    }

    @Test func carsOtherVersionsDecodeWithTheirFetchIndex() throws {
        let v2xml = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel"))
        let v2mom = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.momd/SampleModel2.mom"))
        #expect(normalized(v2xml) == normalized(v2mom))
        #expect(v2mom.entity(named: "Car")?.fetchIndexes == [CoreDataFetchIndex(name: "byMakerAndNumberPlate", properties: ["maker", "numberPlate"])])
        #expect(v2mom.entity(named: "LuxuryCar")?.parent == "SportCar")
        let v3xml = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel"))
        let v3mom = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("cars/SampleModel.momd/SampleModel3.mom"))
        #expect(normalized(v3xml) == normalized(v3mom))
        #expect(v3mom.entity(named: "Car")?.relationship(named: "createdBy")?.destination == "Maker")
    }

    @Test func everyModelCacheMatchesThePrimaryKeyTable() throws {
        for store in CoreDataFixtures.stores {
            let copy = try CoreDataFixtures.copyOfStore(store.path)
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: copy, configuration: configuration)
            let names = try queue.read { db in try String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_NAME") }
            #expect(!names.isEmpty, "\(store.path)")
            if store.hasCache {
                let model = try queue.read { db in try CoreDataModel.fromModelCache(db, path: copy) }
                #expect(model.entities.map(\.name) == names, "\(store.path)")
                let parents = try queue.read { db in
                    try Row.fetchAll(db, sql: "SELECT p.Z_NAME, s.Z_NAME FROM Z_PRIMARYKEY p LEFT JOIN Z_PRIMARYKEY s ON s.Z_ENT = p.Z_SUPER")
                }
                for row in parents {
                    let name: String = row[0]
                    let parent: String? = row[1]
                    #expect(model.entity(named: name)?.parent == parent, "\(store.path): \(name)")
                }
            } else {
                #expect(throws: ModelFileError.self) { try queue.read { db in try CoreDataModel.fromModelCache(db, path: copy) } }
                #expect(try queue.read { db in try CoreDataModel.hasModelCache(db) } == false)
            }
        }
    }

    @Test func postsCacheIsVersionThreeNotTheCurrentFour() throws {
        let cache = try cacheOf("posts/CoreDataMigration_Example_3.sqlite")
        let folder = "posts/CoreDataMigration_Example.xcdatamodeld"
        let v3 = try CoreDataModel.load(contentsOf: CoreDataFixtures.path(folder + "/CoreDataMigration_Example 3.xcdatamodel"))
        let current = try CoreDataModel.load(contentsOf: CoreDataFixtures.path(folder))
        #expect(normalized(cache) == normalized(v3))
        #expect(normalized(cache) != normalized(current))
        #expect(current.entity(named: "Post")?.attribute(named: "hide")?.type == .boolean)
        #expect(cache.entity(named: "Post")?.attribute(named: "hide") == nil)
        let color = try #require(cache.entity(named: "Post")?.relationship(named: "color"))
        #expect(color.destination == "Color" && color.inverse == "post" && !color.isToMany && !color.isOptional)
        #expect(cache.entity(named: "Post")?.className == nil) // this cache records no class names
    }

    @Test func authorsCacheIsTheFirstVersionWithAManyToManyPair() throws {
        let cache = try cacheOf("authors/TestModel.sqlite")
        let v1 = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("authors/Sample.xcdatamodeld/TestModel.xcdatamodel"))
        let current = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("authors/Sample.xcdatamodeld"))
        #expect(normalized(cache) == normalized(v1))
        #expect(current.entities.map(\.name) == ["Author", "Book", "Publisher"])
        let books = try #require(cache.entity(named: "Author")?.relationship(named: "books"))
        let authors = try #require(cache.entity(named: "Book")?.relationship(named: "authors"))
        #expect(books.isToMany && authors.isToMany && books.inverse == "authors" && authors.inverse == "books")
    }

    @Test func surfJournalXcodeModel() throws {
        let model = try CoreDataModel.load(contentsOf: CoreDataFixtures.path("surfjournal/SurfJournalModel.xcdatamodeld"))
        let entry = try #require(model.entity(named: "JournalEntry"))
        #expect(entry.className == "SurfJournal.JournalEntry")
        #expect(entry.attributes.map(\.name) == ["date", "height", "location", "period", "rating", "wind"])
        #expect(entry.attribute(named: "rating")?.type == .integer16)
        #expect(entry.attribute(named: "rating")?.defaultValue == "0")
        #expect(entry.attribute(named: "date")?.type.quarryType == .date)
    }

    @Test func xmlFetchRequestsFetchedPropertiesAndDerivedAttributes() throws {
        let text = """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Shape" isAbstract="YES">
                    <attribute name="area" attributeType="Double" derived="YES" derivationExpression="width * height"/>
                    <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="tag" optional="YES" attributeType="String" indexed="YES"/>
                    <relationship name="parts" optional="YES" toMany="YES" minCount="1" maxCount="5" deletionRule="Cascade" ordered="YES" destinationEntity="Shape"/>
                    <fetchedProperty name="big" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Shape" predicateString="area &gt; 10"/>
                    </fetchedProperty>
                </entity>
                <fetchRequest name="Tagged" entity="Shape" predicateString="tag != nil"/>
            </model>
            """
        let model = try CoreDataModel.decodeXML(Data(text.utf8), path: "Shapes.xcdatamodel/contents")
        let shape = try #require(model.entity(named: "Shape"))
        #expect(shape.isAbstract)
        #expect(shape.attribute(named: "area")?.isDerived == true && shape.attribute(named: "area")?.derivationExpression == "width * height")
        #expect(shape.attribute(named: "area")?.isOptional == false)
        #expect(shape.attribute(named: "photo")?.allowsExternalBinaryDataStorage == true)
        #expect(shape.attribute(named: "tag")?.isIndexed == true)
        #expect(
            shape.relationship(named: "parts")
                == CoreDataRelationship(
                    name: "parts", destination: "Shape", isToMany: true, isOrdered: true, minCount: 1, maxCount: 5, deleteRule: .cascade))
        #expect(shape.fetchedProperties == [CoreDataFetchedProperty(name: "big", entity: "Shape", predicate: .format("area > 10"))])
        #expect(model.fetchRequests == [CoreDataFetchRequest(name: "Tagged", entity: "Shape", predicate: .format("tag != nil"))])
    }

    @Test func attributeTypesMapToQuarryTypes() {
        #expect(CoreDataAttributeType.float.quarryType == .double)
        #expect(CoreDataAttributeType.uri.quarryType == .string)
        #expect(CoreDataAttributeType.transformable.quarryType == .binary)
        #expect(CoreDataAttributeType.integer16.quarryType == .int16)
        #expect(CoreDataAttributeType.objectID.quarryType == nil)
        #expect(CoreDataAttributeType(code: 1100) == .uuid)
        #expect(CoreDataAttributeType(xmlName: "Binary Data") == .binary)
        for type in CoreDataAttributeType.allCases { #expect(CoreDataAttributeType(code: type.code) == type) }
    }
}
