import Foundation
import GRDB
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// How a Quarry store keeps a hierarchy: one table per root, `_entity`, views for the
/// other entities; declared definitions in `quarry_model`, effective ones in memory.
@Suite struct HierarchyStorageTests {
    static func entity(_ name: String, parent: String? = nil, abstract: Bool = false, _ attributes: [AttributeDescription]) -> EntityDescription {
        var e = EntityDescription(name: name, attributes: attributes)
        e.parent = parent
        e.isAbstract = abstract
        return e
    }

    static let car = entity("Car", abstract: true, [AttributeDescription(name: "make", type: .string)])
    static let sport = entity("SportCar", parent: "Car", [AttributeDescription(name: "topSpeed", type: .int64)])
    static let race = entity("RaceCar", parent: "SportCar", [AttributeDescription(name: "team", type: .string, isOptional: true)])

    /// A model walks its hierarchy by the parents it keeps with its entities: a parent
    /// changed or removed is followed at once, and a cycle (which a definition refuses,
    /// but a model being built can hold) ends the walk.
    @Test func aModelsRootsAndKindsFollowItsEntities() {
        var model = ManagedObjectModel()
        let plain = [AttributeDescription(name: "n", type: .int64)]
        for e in [Self.entity("A", parent: "B", plain), Self.entity("B", parent: "C", plain), Self.entity("C", plain)] {
            model.setEntity(e, named: e.name)
        }
        #expect(model.root(of: "A") == "C" && model.root(of: "C") == "C" && model.root(of: "Unknown") == "Unknown")
        #expect(model.isKind("A", of: "C") && model.isKind("A", of: "A") && !model.isKind("C", of: "A"))
        model.setEntity(Self.entity("B", plain), named: "B")
        #expect(model.root(of: "A") == "B" && !model.isKind("A", of: "C"))
        model.setEntity(nil, named: "B")
        #expect(model.root(of: "A") == "B", "a parent that is no entity is still the top")
        model.setEntity(Self.entity("X", parent: "Y", plain), named: "X")
        model.setEntity(Self.entity("Y", parent: "X", plain), named: "Y")
        #expect(model.root(of: "X") == "Y" && model.root(of: "Y") == "X")
        #expect(model.isKind("X", of: "Y") && !model.isKind("X", of: "C"))
    }

    func temporaryPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-hierarchy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("cars.db").path
    }

    @Test func oneTablePerRootViewsForTheRestAndTheModelAsDeclared() throws {
        let path = try temporaryPath()
        do {
            let context = try OpenFileRequest.open(path: path)
            for e in [Self.car, Self.sport, Self.race] { try context.define(e) }
            _ = try context.insert(into: "SportCar", values: ["make": .text("Ferrari"), "topSpeed": .integer(320)])
            _ = try context.insert(into: "RaceCar", values: ["make": .text("McLaren"), "topSpeed": .integer(350), "team": .text("P")])
            try context.save()
            let kinds = try context.connection.read { db in
                try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE name IN ('Car', 'SportCar', 'RaceCar') ORDER BY name")
                    .map { "\($0[0] as String) \($0[1] as String)" }
            }
            #expect(kinds == ["table Car", "view RaceCar", "view SportCar"])
            // The keys handed out through the views are the root table's.
            let keys = try context.connection.read { db in try Int64.fetchAll(db, sql: "SELECT _pk FROM Car ORDER BY _pk") }
            #expect(keys == [1, 2])
            // quarry_model keeps what was declared: a sub-entity's own attributes only.
            let stored =
                try context.connection.read { db in try String.fetchOne(db, sql: "SELECT definition FROM quarry_model WHERE name = 'RaceCar'") } ?? ""
            let decoded = try StoredDefinition(text: stored).entity
            #expect(decoded.attributeNames == ["team"] && decoded.parent == "SportCar")
        }
        // Reopened: declared and effective descriptions as they were.
        let context = try OpenFileRequest.open(path: path)
        #expect(context.declaredEntity("SportCar")?.attributeNames == ["topSpeed"])
        #expect(try context.entity(named: "SportCar").attributeNames == ["make", "topSpeed", "team"])
        #expect(try context.entity(named: "SportCar").attribute(named: "team")?.isOptional == true)
        #expect(try context.entity(named: "Car").attributeNames == ["make", "topSpeed", "team"])
        #expect(try context.entity(named: "Car").attribute(named: "topSpeed")?.isOptional == true, "nil on rows lacking it")
        #expect(try context.entity(named: "RaceCar").attribute(named: "topSpeed")?.isOptional == false, "inherited as declared")
        #expect(context.rootName(of: "RaceCar") == "Car" && context.isKind("RaceCar", of: "Car"))
        let object = try #require(try context.object(entityName: "Car", primaryKey: 2))
        #expect(object.entity.name == "RaceCar", "a row fetched through its parent is made as its own entity")
        #expect(CoreDataModel(entities: context.declaredEntities).entity(named: "RaceCar")?.attributes.map(\.name) == ["team"])
    }

    @Test func anAbstractEntityMakesNoObjectsAndACycleIsRefused() throws {
        let context = try OpenFileRequest.open(path: nil)
        for e in [Self.car, Self.sport] { try context.define(e) }
        #expect(throws: StoreError.self) { try context.insert(into: "Car", values: ["make": .text("x")]) }
        let cycle = Self.entity("Car", parent: "SportCar", [AttributeDescription(name: "make", type: .string)])
        #expect(throws: StoreError.self) { try context.define(cycle) }
        #expect(context.declaredEntity("Car")?.parent == nil)
    }
}
