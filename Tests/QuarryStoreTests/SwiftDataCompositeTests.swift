import Foundation
import GRDB
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Issue 49, item 1: SwiftData's composite attributes, on a store built to the format of a
/// real one (`SwiftDataCompositeStore` says how it was checked). The silent wrong value
/// first: `Cocktail.id` is `ZID1`, not the author's `ZID`.
@Suite struct SwiftDataCompositeTests {
    static func store() throws -> String {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("default.store").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: try SwiftDataCompositeStore.sql()) }
        try queue.close()
        return path
    }

    @Test func compositesDecodeWithTheirElementsInDeclaredOrder() throws {
        let model = try CoreDataModel.decodeArchive(SwiftDataCompositeStore.modelArchive(), path: "Built.mom")
        let cocktail = try #require(model.entity(named: "Cocktail"))
        let author = try #require(cocktail.attribute(named: "author"))
        #expect(author.type == .composite && author.isOptional && !author.isEnum)
        #expect(author.elements.map(\.name) == ["id", "person", "place", "year"])
        #expect(author.elements.map(\.type) == [.uuid, .string, .string, .string])
        let origin = try #require(cocktail.attribute(named: "origin"))
        #expect(origin.elements.map(\.name) == ["city", "coords", "place"])
        #expect(origin.elements[1].elements.map(\.name) == ["lat", "lon"])
        #expect(origin.storedElements.map(\.key) == ["origin.city", "origin.coords.lat", "origin.coords.lon", "origin.place"])
        #expect(origin.storedElements.map(\.columnName) == ["city", "lat", "lon", "place"])
        // An enum with a raw value is its one element, under its own name.
        let glassware = try #require(cocktail.attribute(named: "glasswareType"))
        #expect(glassware.isEnum && !glassware.isOptional)
        #expect(glassware.storedElements.map(\.key) == ["glasswareType"])
        #expect(glassware.storedElements.first?.attribute.isOptional == false)
        // An enum without one keeps an element per case.
        #expect(
            try #require(cocktail.attribute(named: "historicSpec")).storedElements.map(\.key) == ["historicSpec.algonquin", "historicSpec.alaska"])
        // The decoded-model cache keeps all of it.
        #expect(try CoreDataModel(bytes: model.encodedBytes()) == model)
    }

    @Test func eachElementAndAttributeHasTheColumnCoreDataNamedForIt() throws {
        let context = try OpenFileRequest.open(path: try Self.store())
        defer { context.close() }
        let store = try #require(CoreDataStore.behind(context))
        let cocktail = store.attributeColumns["Cocktail"] ?? [:]
        #expect(cocktail["id"] == "ZID1")
        #expect(cocktail["author.id"] == "ZID")
        #expect(cocktail["author.place"] == "ZPLACE")
        #expect(cocktail["origin.place"] == "ZPLACE1")
        #expect(cocktail["origin.coords.lat"] == "ZLAT")
        #expect(cocktail["glasswareType"] == "ZGLASSWARETYPE")
        #expect(cocktail["historicSpec.alaska"] == "ZALASKA")
        #expect(cocktail["collection"] == "ZCOLLECTION")
        let ingredient = store.attributeColumns["IngredientBase"] ?? [:]
        #expect(ingredient["id"] == "ZID")
        #expect(ingredient["prep.id"] == "ZID1")
        #expect(!context.openingNotes.contains { $0.contains("is not read") }, "\(context.openingNotes)")
    }

    /// Every id read through Quarry is the one plain SQL finds in the column the rule names.
    @Test func idsAreReadFromTheirOwnColumns() throws {
        let path = try Self.store()
        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        let objects = try (1...3).map { try #require(try context.object(entityName: "Cocktail", primaryKey: $0)) }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        for object in objects {
            let key = object.identityKey
            let (own, authors) =
                try queue.read { db in
                    try Row.fetchOne(db, sql: "SELECT nullif(hex(ZID1), ''), nullif(hex(ZID), '') FROM ZCOCKTAIL WHERE Z_PK = ?", arguments: [key])
                        .map { ($0[0] as String?, $0[1] as String?) }
                } ?? (nil, nil)
            let id = try object.value(forKey: "id")
            let authorID = try object.value(forKey: "author.id")
            #expect(id.textValue?.replacingOccurrences(of: "-", with: "") == own)
            #expect(authorID.textValue?.replacingOccurrences(of: "-", with: "") == authors)
        }
    }
}

extension SwiftDataCompositeTests {
    /// Issue 49: `Entity:swift()` of a store with composites writes their Codable types, and
    /// swiftc takes it beside the stand-in SwiftData declarations.
    @Test func swiftSourceDeclaresTheCompositesTypes() throws {
        let model = try CoreDataModel.decodeArchive(SwiftDataCompositeStore.modelArchive(), path: "Built.mom")
        let source = SwiftModelSource(model: model)
        let cocktail = (source.source(for: "Cocktail", style: .swiftData) ?? "").split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let expected = [
            "struct Author: Codable {", "var id: UUID?", "var person: String?", "var author: Author?",
            "struct Origin: Codable {", "struct Coords: Codable {", "var lat: Double?", "var coords: Coords?", "var origin: Origin?",
            "enum HistoricSpec: Codable {", "case algonquin", "case alaska", "var historicSpec: HistoricSpec?",
            "init(cocktailName: String, glasswareType: String, id: UUID) {"
        ]
        for line in expected { #expect(cocktail.contains(line), "missing: \(line)\n\(cocktail.joined(separator: "\n"))") }
        #expect(cocktail.contains { $0.hasPrefix("var glasswareType: String  // an enum with raw values") })
        #expect(cocktail.contains { $0.hasPrefix("var collection: Int64?  // an enum with raw values") })
        try SwiftTypeChecker.checkSwiftData(source.source(style: .swiftData))
        // As an NSManagedObject subclass, a composite is the dictionary Core Data gives.
        #expect(source.source(for: "Cocktail", style: .coreData)?.contains("@NSManaged public var author: NSDictionary?") == true)
        try SwiftTypeChecker.checkCoreData(source.source(style: .coreData))
    }
}

extension SwiftDataCompositeTests {
    /// `Item.c`, a composite whose elements `elements` adds.
    func model(_ elements: (inout ArchiveBuilder) -> [[String: Int]]) throws -> CoreDataModel {
        var b = ArchiveBuilder()
        let list = b.add("NSMutableArray", ["NS.objects": elements(&b)], superclasses: ["NSArray", "NSObject"])
        let c = b.add(
            "NSCompositeAttributeDescription", ["NSAttributeType": 2100, "NSPropertyName": b.add("c"), "NSCompositeElements": list],
            superclasses: ["NSAttributeDescription", "NSPropertyDescription", "NSObject"])
        let entity = b.add("NSEntityDescription", ["NSEntityName": b.add("Item"), "NSProperties": b.dictionary([("c", c)])])
        let entities = b.dictionary([("Item", entity)])
        let root = b.add("NSManagedObjectModel", ["NSEntities": entities])
        return try CoreDataModel.decodeArchive(b.data(root: root), path: "Built.mom")
    }

    func element(_ b: inout ArchiveBuilder, _ name: String) -> [String: Int] {
        b.add("NSAttributeDescription", ["NSAttributeType": 700, "NSPropertyName": b.add(name)], superclasses: ["NSPropertyDescription", "NSObject"])
    }

    /// A composite that contains itself (met as nesting past the bound), nests past it,
    /// repeats or misnames an element, or holds something other than an attribute is a
    /// broken archive, not a hang or a trap.
    @Test func brokenCompositesAreRefusedInOneLine() throws {
        let cases: [(String, (inout ArchiveBuilder) -> [[String: Int]])] = [
            // Itself: past the list's class, the list, "c" and the composite's class.
            ("nested more than", { b in [ArchiveBuilder.uid(b.objects.count + 4)] }),
            (
                "nested more than",
                { b in
                    var inner = [self.element(&b, "leaf")]
                    for i in 0..<20 {
                        let list = b.add("NSMutableArray", ["NS.objects": inner], superclasses: ["NSArray", "NSObject"])
                        inner = [
                            b.add(
                                "NSCompositeAttributeDescription",
                                ["NSAttributeType": 2100, "NSPropertyName": b.add("n\(i)"), "NSCompositeElements": list],
                                superclasses: ["NSAttributeDescription", "NSPropertyDescription", "NSObject"])
                        ]
                    }
                    return inner
                }
            ),
            ("two elements named x", { b in [self.element(&b, "x"), self.element(&b, "x")] }),
            ("with a dot", { b in [self.element(&b, "a.b")] }),
            (
                "not NSAttributeDescription",
                { b in [b.add("NSRelationshipDescription", ["NSPropertyName": b.add("r")], superclasses: ["NSPropertyDescription", "NSObject"])] }
            )
        ]
        for (text, elements) in cases {
            let error = #expect(throws: ModelFileError.self) { _ = try self.model(elements) }
            #expect(error?.kind == .brokenArchive && error?.detail.contains(text) == true, "\(text): \(String(describing: error))")
        }
        #expect(try model { b in [self.element(&b, "x")] }.entity(named: "Item")?.attribute(named: "c")?.elements.map(\.name) == ["x"])
    }
}

extension Value {
    fileprivate var textValue: String? { if case .text(let s) = self { return s } else { return nil } }
}
