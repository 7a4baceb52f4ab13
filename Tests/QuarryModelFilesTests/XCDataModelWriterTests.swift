/// The model writer: every real model survives load → write → load unchanged, and what
/// is written reads as Xcode's own `contents` does.
import Foundation
import QuarryModel
import QuarryModelFiles
import QuarryTestSupport
import Testing

@Suite struct XCDataModelWriterTests {
    /// Every model in the shared data, in every version and form: each `.xcdatamodeld`
    /// (its current version) and each `.xcdatamodel` in it, the cars `.momd` and each `.mom`.
    static func allModelPaths() throws -> [String] {
        let root = try CoreDataFixtures.path("")
        var paths: [String] = []
        let fm = FileManager.default
        for project in try fm.contentsOfDirectory(atPath: root).sorted() {
            let folder = (root as NSString).appendingPathComponent(project)
            for item in (try? fm.contentsOfDirectory(atPath: folder))?.sorted() ?? [] {
                let path = (folder as NSString).appendingPathComponent(item)
                if item.hasSuffix(".xcdatamodeld") {
                    paths.append(path)
                    for version in try fm.contentsOfDirectory(atPath: path).sorted() where version.hasSuffix(".xcdatamodel") {
                        paths.append((path as NSString).appendingPathComponent(version))
                    }
                } else if item.hasSuffix(".momd") {
                    paths.append(path)
                    for mom in try fm.contentsOfDirectory(atPath: path).sorted() where mom.hasSuffix(".mom") {
                        paths.append((path as NSString).appendingPathComponent(mom))
                    }
                }
            }
        }
        return paths
    }

    func roundTrip(_ model: CoreDataModel) throws -> CoreDataModel {
        let folder = try CoreDataFixtures.temporaryFolder().appendingPathComponent("Model.xcdatamodel").path
        try XCDataModelWriter.write(model, toFolder: folder)
        return try CoreDataModel.load(contentsOf: folder)
    }

    @Test func everyRealModelRoundTrips() throws {
        let paths = try Self.allModelPaths()
        // 4 .xcdatamodeld + 10 versions + the .momd + 3 .mom: a missing fixture fails here.
        #expect(paths.count == 18, "\(paths)")
        for path in paths {
            let model = try CoreDataModel.load(contentsOf: path)
            #expect(!model.entities.isEmpty, "\(path)")
            #expect(try roundTrip(model) == model, "\(path)")
        }
    }

    @Test func writtenTextIsXcodesForAModernModel() throws {
        // Xcode's own file, less what the model does not keep: the version label. Its
        // element IDs (renaming identifiers: LuxuryCar was ExpensiveSportCar) are kept.
        for version in ["SampleModel2", "SampleModel3"] {
            let path = try CoreDataFixtures.path("cars/SampleModel.xcdatamodeld/\(version).xcdatamodel")
            let original = try String(contentsOfFile: path + "/contents", encoding: .utf8)
                .replacingOccurrences(
                    of: #"userDefinedModelVersionIdentifier="\d+""#, with: #"userDefinedModelVersionIdentifier="""#,
                    options: .regularExpression)
            let written = XCDataModelWriter.contents(of: try CoreDataModel.load(contentsOf: path))
            #expect(written.split(separator: "\n") == original.split(separator: "\n"), "\(version)")
        }
    }

    @Test func everyFeatureRoundTrips() throws {
        let model = CoreDataModel(
            entities: [
                CoreDataEntity(
                    name: "Shape", isAbstract: true, className: "App.Shape",
                    attributes: [
                        CoreDataAttribute(name: "area", type: .double, isOptional: false, isDerived: true, derivationExpression: "width * height"),
                        CoreDataAttribute(name: "photo", type: .binary, allowsExternalBinaryDataStorage: true),
                        CoreDataAttribute(name: "tag", type: .string, defaultValue: "a \"quoted\" <tag> & more\nlines\ttabs", isIndexed: true),
                        CoreDataAttribute(name: "scratch", type: .integer32, isTransient: true, defaultValue: "7"),
                        CoreDataAttribute(name: "tint", type: .transformable, valueTransformerName: "NSSecureUnarchiveFromData")
                    ],
                    relationships: [
                        CoreDataRelationship(
                            name: "parts", destination: "Part", inverse: "shape", isToMany: true, isOrdered: true,
                            minCount: 1, maxCount: 5, deleteRule: .cascade),
                        CoreDataRelationship(name: "owner", destination: "Part", deleteRule: .deny, isOptional: false),
                        CoreDataRelationship(name: "seen", destination: "Part", isToMany: true, deleteRule: .noAction)
                    ], uniquenessConstraints: [["tag"], ["area", "tag"]],
                    fetchIndexes: [CoreDataFetchIndex(name: "byTag", properties: ["tag", "area"])],
                    fetchedProperties: [CoreDataFetchedProperty(name: "big", entity: "Shape", predicate: .format("area > 10 AND tag == \"x\""))]),
                CoreDataEntity(name: "Square", parent: "Shape", attributes: [CoreDataAttribute(name: "side", type: .float, isOptional: false)]),
                CoreDataEntity(
                    name: "Part",
                    attributes: CoreDataAttributeType.allCases.filter { $0 != .objectID && $0 != .composite && $0 != .undefined }
                        .map { CoreDataAttribute(name: "a" + $0.rawValue.replacingOccurrences(of: " ", with: ""), type: $0) },
                    relationships: [CoreDataRelationship(name: "shape", destination: "Shape", inverse: "parts")])
            ],
            fetchRequests: [
                CoreDataFetchRequest(name: "Tagged", entity: "Shape", predicate: .format("tag != nil")),
                CoreDataFetchRequest(name: "All", entity: "Part")
            ])
        #expect(try roundTrip(model) == model)
    }

    @Test func anUnrenderablePredicateIsLeftOutNotWidened() throws {
        let model = CoreDataModel(
            entities: [
                CoreDataEntity(
                    name: "A",
                    fetchedProperties: [
                        CoreDataFetchedProperty(name: "odd", entity: "A", predicate: .unsupported("a block predicate"))
                    ])
            ],
            fetchRequests: [CoreDataFetchRequest(name: "Odd", entity: "A", predicate: .unsupported("a block predicate"))])
        let back = try roundTrip(model)
        #expect(back.fetchRequests.isEmpty)
        #expect(back.entity(named: "A")?.fetchedProperties.isEmpty == true)
    }

    @Test func writingReplacesContentsAndRefusesAFileInTheWay() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let target = folder.appendingPathComponent("M.xcdatamodel").path
        try XCDataModelWriter.write(CoreDataModel(entities: [CoreDataEntity(name: "Old")]), toFolder: target)
        try XCDataModelWriter.write(CoreDataModel(entities: [CoreDataEntity(name: "New")]), toFolder: target)
        #expect(try CoreDataModel.load(contentsOf: target).entities.map(\.name) == ["New"])

        let file = folder.appendingPathComponent("F.xcdatamodel").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: StoreError.self) { try XCDataModelWriter.write(CoreDataModel(entities: []), toFolder: file) }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
        let missingParent = folder.appendingPathComponent("no/such/M.xcdatamodel").path
        #expect(throws: StoreError.self) { try XCDataModelWriter.write(CoreDataModel(entities: []), toFolder: missingParent) }
    }
}
