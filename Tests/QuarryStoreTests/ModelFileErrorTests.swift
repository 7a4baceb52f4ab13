import Foundation
/// Broken model files, made small in a temporary folder: each must be one `ModelFileError`
/// of the right kind, one line naming the file, and never a crash.
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

@Suite struct ModelFileErrorTests {
    func write(_ text: String, to name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Model XML with one entity whose body is `body`.
    func xml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item" representedClassName="Item">\(body)</entity>
        </model>
        """
    }

    func expectError(
        _ kind: ModelFileError.Kind, loading path: String, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try CoreDataModel.load(contentsOf: path)
            Issue.record("\(path) loaded; expected \(kind)", sourceLocation: sourceLocation)
        } catch let error as ModelFileError {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix(error.path + ": "), "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// The cars `.mom` parsed, for archives broken on purpose.
    func carsArchive() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: CoreDataFixtures.path("cars/SampleModel.momd/SampleModel.mom")))
        return try #require(try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
    }

    /// Writes `archive` with object `index` changed by `change`.
    func writeArchive(_ archive: [String: Any], changing index: Int, in folder: URL, _ change: (inout [String: Any]) -> Void) throws -> String {
        var archive = archive
        var objects = try #require(archive["$objects"] as? [Any])
        var object = try #require(objects[index] as? [String: Any])
        change(&object)
        objects[index] = object
        archive["$objects"] = objects
        let data = try PropertyListSerialization.data(fromPropertyList: archive, format: .binary, options: 0)
        let path = folder.appendingPathComponent("Broken.mom").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func missingFileAndFolderThatIsNotAModel() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        expectError(.missingFile, loading: folder.appendingPathComponent("Nope.xcdatamodeld").path, mentioning: "no such file")
        _ = try write("hello", to: "Plain/readme.txt", in: folder)
        expectError(.notAModel, loading: folder.appendingPathComponent("Plain").path, mentioning: "not a Core Data model")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Empty.xcdatamodeld"), withIntermediateDirectories: true)
        expectError(.notAModel, loading: folder.appendingPathComponent("Empty.xcdatamodeld").path, mentioning: "no .xcdatamodel")
        _ = try write(
            "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>Gone.xcdatamodel</string></dict></plist>",
            to: "Versions.xcdatamodeld/.xccurrentversion", in: folder)
        expectError(.missingFile, loading: folder.appendingPathComponent("Versions.xcdatamodeld").path, mentioning: "Gone.xcdatamodel")
        // Xcode 3 kept its models as `elements` and `layout` archives, with no `contents`.
        _ = try write("bplist00", to: "Old.xcdatamodel/elements", in: folder)
        _ = try write("bplist00", to: "Old.xcdatamodel/layout", in: folder)
        expectError(.notAModel, loading: folder.appendingPathComponent("Old.xcdatamodel").path, mentioning: "Xcode 3's format")
    }

    @Test func truncatedPlist() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: CoreDataFixtures.path("cars/SampleModel.momd/SampleModel.mom")))
        let path = folder.appendingPathComponent("Cut.mom").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        expectError(.malformedPlist, loading: path, mentioning: "Cut.mom")
    }

    @Test func garbageXML() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = try write("<model><entity name=\"A\"><attribute", to: "Bad.xcdatamodel/contents", in: folder)
        expectError(.malformedXML, loading: folder.appendingPathComponent("Bad.xcdatamodel").path, mentioning: path)
        let other = try write("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>", to: "Other.xcdatamodel/contents", in: folder)
        expectError(.notAModel, loading: other, mentioning: "<plist>")
    }

    @Test func unknownAttributeType() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = try write(xml(#"<attribute name="big" optional="YES" attributeType="Integer 128"/>"#), to: "M.xcdatamodel/contents", in: folder)
        expectError(.unknownAttributeType, loading: path, mentioning: "Item.big has attributeType \"Integer 128\"")
        let archive = try carsArchive()
        // Object 16 of the cars .mom is ExpensiveSportCar.isLimitedEdition (NSAttributeType 800).
        let mom = try writeArchive(archive, changing: 16, in: folder) { $0["NSAttributeType"] = 1234 }
        expectError(.unknownAttributeType, loading: mom, mentioning: "NSAttributeType 1234")
    }

    @Test func danglingReferences() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let destination = try write(
            xml(#"<relationship name="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Nope"/>"#),
            to: "D.xcdatamodel/contents", in: folder)
        expectError(.danglingReference, loading: destination, mentioning: "Item.owner points to entity Nope")
        let inverse = try write(
            xml(#"<relationship name="next" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="previous"/>"#),
            to: "I.xcdatamodel/contents", in: folder)
        expectError(.danglingReference, loading: inverse, mentioning: "inverse Item.previous")
        let cycle = """
            <model><entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/></model>
            """
        expectError(.danglingReference, loading: try write(cycle, to: "C.xcdatamodel/contents", in: folder), mentioning: "cycle")
    }

    @Test func brokenObjectGraphs() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let archive = try carsArchive()
        // Object 1 is the NSManagedObjectModel; a UID far past the 69 objects.
        let outOfRange = try writeArchive(archive, changing: 1, in: folder) { $0["NSEntities"] = ["CF$UID": 9999] }
        expectError(.brokenArchive, loading: outOfRange, mentioning: "UID 9999 is out of range")
        let wrongType = try writeArchive(archive, changing: 16, in: folder) { $0["NSAttributeType"] = "eight hundred" }
        expectError(.brokenArchive, loading: wrongType, mentioning: "expected an integer, got a string")
        let notAString = try writeArchive(archive, changing: 1, in: folder) { $0["NSEntities"] = ["CF$UID": 3] }
        expectError(.brokenArchive, loading: notAString, mentioning: "object 3 is a string, not an instance")
        let root = try writeArchive(archive, changing: 1, in: folder) { $0["$class"] = ["CF$UID": 13] }
        expectError(.brokenArchive, loading: root, mentioning: "not NSManagedObjectModel")
        // Object 9 is SportCar: make it its own superentity.
        let selfParent = try writeArchive(archive, changing: 9, in: folder) { $0["NSSuperentity"] = ["CF$UID": 9] }
        expectError(.danglingReference, loading: selfParent, mentioning: "cycle")
    }

    @Test func compressionIsBoundedAndChecked() throws {
        let store = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let blob = try GRDBHelpers.modelCacheBlob(store)
        #expect(!Inflate.looksZlibWrapped(blob)) // raw DEFLATE, no zlib header
        #expect(try Inflate.inflate(blob, path: store).count == 5642)
        #expect(throws: ModelFileError.self) { try Inflate.inflate(blob, path: store, limit: 1000) }
        #expect(throws: ModelFileError.self) { try Inflate.inflate(Array(blob.prefix(blob.count / 2)), path: store) }
        #expect(throws: ModelFileError.self) { try Inflate.inflate([0xFF, 0xFF, 0xFF, 0xFF], path: store) }
        #expect(throws: ModelFileError.self) { try Inflate.inflate([], path: store) }
        do {
            _ = try Inflate.inflate(blob, path: store, limit: 1000)
        } catch let error as ModelFileError {
            #expect(error.kind == .compression && error.description.contains("past 1000 bytes"), "\(error)")
        }
    }
}
