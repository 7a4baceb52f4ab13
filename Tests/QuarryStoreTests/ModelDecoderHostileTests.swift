import Foundation
import GRDB
/// Model files and caches crafted to hurt (issue #33): property lists whose shared
/// objects expand without bound ("DAG bombs"), files that cannot be read or never end,
/// and files that are not files. Each must be refused with one line naming the file,
/// without a crash, and without reading or building more than the bounds allow.
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore
@testable import QuarryStores

@Suite struct ModelDecoderHostileTests {
    func expectRefusal(
        _ kind: ModelFileError.Kind, mentioning text: String, path: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Any
    ) {
        do {
            _ = try body()
            Issue.record("accepted; expected \(kind)", sourceLocation: sourceLocation)
        } catch let error as ModelFileError {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation)
            if let path { #expect(error.description.hasPrefix(path + ": "), "\(error)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: DAG bombs

    @Test func theBombIsWhatItSaysItIs() throws {
        // Small, and a valid plist: Foundation reads a two-level one (10 x 10 leaves).
        #expect(PlistBombs.dagBomb().count == 235)
        let small = try PropertyListSerialization.propertyList(from: Data(PlistBombs.dagBomb(levels: 2)), format: nil)
        let objects = (small as? [String: Any])?["$objects"] as? [Any]
        #expect(((objects?[1] as? [Any])?.first as? [Any])?.count == 10)
        // The cache blob is the same archive, deflated.
        #expect(try Inflate.inflate(PlistBombs.dagBombModelCache, path: "blob") == PlistBombs.dagBomb())
    }

    @Test func aDAGBombAsAMomIsRefusedBeforeFoundationExpandsIt() {
        expectRefusal(.malformedPlist, mentioning: "shared so as to expand", path: "bomb.mom") {
            try CoreDataModel.decodeArchive(Data(PlistBombs.dagBomb()), path: "bomb.mom")
        }
    }

    @Test func aDAGBombAsAModelCacheIsRefused() {
        expectRefusal(.malformedPlist, mentioning: "shared so as to expand", path: "store.sqlite (Z_MODELCACHE)") {
            try CoreDataModel.decodeModelCache(Data(PlistBombs.dagBombModelCache), path: "store.sqlite")
        }
    }

    @Test func aDAGBombInAStoreIsRefusedWhenTheStoreIsRead() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("bomb.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (?)", arguments: [Data(PlistBombs.dagBombModelCache)])
        }
        try queue.close()
        // A store read as a model is read by the Core Data layout, which the registry
        // hands to the model files.
        expectRefusal(.malformedPlist, mentioning: "shared so as to expand", path: path + " (Z_MODELCACHE)") {
            try StoreRegistry.readModel(path)
        }
    }

    @Test func sharingThatStaysSmallIsAccepted() throws {
        // Two levels of 10 (111 values from 115 bytes) is within the budget: only the
        // archive's shape is wrong, and that is what is reported.
        expectRefusal(.brokenArchive, mentioning: "not an instance") {
            try CoreDataModel.decodeArchive(Data(PlistBombs.dagBomb(levels: 2)), path: "small.mom")
        }
    }

    @Test func aContainerThatContainsItselfIsRefused() {
        let cycle = PlistBombs.binary([.array([1]), .array([0])])
        expectRefusal(.malformedPlist, mentioning: "contains itself") { try BinaryPlistCheck.check(Data(cycle), path: "cycle.mom") }
    }

    @Test func nestingPastTheBoundIsRefused() {
        var objects: [PlistBombs.Object] = (0..<299).map { .array([$0 + 1]) }
        objects.append(.array([]))
        expectRefusal(.malformedPlist, mentioning: "nests deeper than 256") {
            try BinaryPlistCheck.check(Data(PlistBombs.binary(objects)), path: "deep.mom")
        }
        // 200 levels are within it.
        var fine: [PlistBombs.Object] = (0..<199).map { .array([$0 + 1]) }
        fine.append(.array([]))
        #expect(throws: Never.self) { try BinaryPlistCheck.check(Data(PlistBombs.binary(fine)), path: "deep.mom") }
    }

    @Test func aTruncatedObjectTableIsRefused() {
        var bytes = PlistBombs.dagBomb(levels: 2)
        bytes[bytes.count - 9] = 0xFF // the top object's number, past the objects
        expectRefusal(.malformedPlist, mentioning: "trailer is invalid") { try BinaryPlistCheck.check(Data(bytes), path: "cut.mom") }
    }

    @Test func aPredicateSharedAtEveryLevelIsRefusedByTheWorkBudget() {
        // UIDs, not the plist's own sharing: the plist is small and plain; rendering the
        // fetch request's predicate would visit 10^8 comparisons.
        let archive = Data(PlistBombs.predicateBomb().utf8)
        expectRefusal(.brokenArchive, mentioning: "refer to each other so often", path: "predicates.mom") {
            try CoreDataModel.decodeArchive(archive, path: "predicates.mom")
        }
        // Two levels render: (TRUEPREDICATE AND ...) ten times ten.
        let model = try? CoreDataModel.decodeArchive(Data(PlistBombs.predicateBomb(levels: 2).utf8), path: "two.mom")
        guard case .format(let text)? = model?.fetchRequests.first?.predicate else {
            Issue.record("the two-level predicate did not render: \(String(describing: model))")
            return
        }
        #expect(text.components(separatedBy: "TRUEPREDICATE").count - 1 == 100)
    }

    @Test func realModelsAndCachesPassTheChecks() throws {
        for mom in ["SampleModel.mom", "SampleModel2.mom", "SampleModel3.mom"] {
            let path = try CoreDataFixtures.path("cars/SampleModel.momd/\(mom)")
            try BinaryPlistCheck.check(Data(ModelFileReader.read(path)), path: path)
            _ = try CoreDataModel.load(contentsOf: path)
        }
        for store in CoreDataFixtures.stores where store.hasCache {
            _ = try CoreDataModel.fromStore(atPath: CoreDataFixtures.copyOfStore(store.path))
        }
    }

    @Test func modelXMLThatIsNotUTF8IsRefusedBeforeFoundationParsesIt() {
        // A stray byte in an attribute's name trapped inside Foundation's XMLParser.
        var xml = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8) + Array("\n<model><entity name=\"A\"><relationship name=\"r\" ".utf8)
        xml += Array("inverse".utf8) + [0xD2] + Array(#"Name="x" destinationEntity="A"/></entity></model>"#.utf8)
        expectRefusal(.malformedXML, mentioning: "line 2: byte 93 is not UTF-8", path: "contents") {
            try CoreDataModel.decodeXML(Data(xml), path: "contents")
        }
        let latin1 = #"<?xml version="1.0" encoding="ISO-8859-1"?><model/>"#
        expectRefusal(.malformedXML, mentioning: "declares encoding iso-8859-1", path: "contents") {
            try CoreDataModel.decodeXML(Data(latin1.utf8), path: "contents")
        }
    }

    @Test func markupXcodeNeverWritesIsRefusedBeforeFoundationParsesIt() throws {
        // A processing instruction without data made Foundation's XMLParser read a null
        // pointer; a DTD's declarations reach callbacks that do the same.
        let cases = [
            ("<?xml version=\"1.0\"?>\n<model><?pi?></model>", "line 2: a processing instruction"),
            ("<?xml?><model/>", "line 1: a processing instruction"),
            ("\n<?xml version=\"1.0\"?><model/>", "line 2: a processing instruction"),
            ("<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!NOTATION n SYSTEM \"x\">]><model/>", "line 2: a document type declaration")
        ]
        for (xml, message) in cases {
            expectRefusal(.malformedXML, mentioning: message, path: "contents") { try CoreDataModel.decodeXML(Data(xml.utf8), path: "contents") }
        }
        // Comments and CDATA may hold anything, and a real model still reads.
        let commented = "<?xml version=\"1.0\"?>\n<!-- <?pi?> <!DOCTYPE x> -->\n<model><entity name=\"A\"/></model>"
        #expect(try CoreDataModel.decodeXML(Data(commented.utf8), path: "contents").entities.map(\.name) == ["A"])
    }

    // MARK: Files that cannot be read, or are not files

    @Test func procSelfMemIsOneLineNotATrap() {
        expectRefusal(.unreadable, mentioning: "Input/output error", path: "/proc/self/mem") {
            try CoreDataModel.load(contentsOf: "/proc/self/mem")
        }
    }

    @Test func anEndlessProcFileIsNotReadPastItsSize() {
        // /proc/self/pagemap says 0 bytes and holds 8 for every page of the address space.
        expectRefusal(.unreadable, mentioning: "/proc/self/pagemap", path: "/proc/self/pagemap") {
            try ModelFileReader.read("/proc/self/pagemap")
        }
        expectRefusal(.unreadable, mentioning: "after 0 bytes", path: "/proc/self/pagemap") {
            // Through load: the same refusal, not a read of 64 MiB.
            try CoreDataModel.load(contentsOf: "/proc/self/pagemap")
        }
    }

    @Test func aFIFOIsRefusedAtOnceNotWaitedOn() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let fifo = folder.appendingPathComponent("model.mom").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody writes: reading would wait for ever, so only a refusal can end this.
        expectRefusal(.unreadable, mentioning: "not a regular file (a FIFO)", path: fifo) {
            try CoreDataModel.load(contentsOf: fifo)
        }
        let momd = folder.appendingPathComponent("Model.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        #expect(mkfifo(momd.appendingPathComponent("VersionInfo.plist").path, 0o600) == 0)
        expectRefusal(.unreadable, mentioning: "a FIFO", path: momd.appendingPathComponent("VersionInfo.plist").path) {
            try CoreDataModel.load(contentsOf: momd.path)
        }
    }

    @Test func aDeviceOrAFolderWhereAFileBelongsIsRefused() throws {
        expectRefusal(.unreadable, mentioning: "a character device", path: "/dev/zero") {
            try CoreDataModel.load(contentsOf: "/dev/zero")
        }
        let folder = try CoreDataFixtures.temporaryFolder()
        let model = folder.appendingPathComponent("Model.xcdatamodel")
        try FileManager.default.createDirectory(at: model.appendingPathComponent("contents"), withIntermediateDirectories: true)
        expectRefusal(.unreadable, mentioning: "a directory", path: model.appendingPathComponent("contents").path) {
            try CoreDataModel.load(contentsOf: model.path)
        }
    }

    @Test func readsAreBoundedInBytes() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("big.mom").path
        try Data(repeating: 0x20, count: 4096).write(to: URL(fileURLWithPath: path))
        expectRefusal(.unreadable, mentioning: "more than the 1024", path: path) { try ModelFileReader.read(path, limit: 1024) }
        #expect(try ModelFileReader.read(path, limit: 4096).count == 4096)
        #expect(try ModelFileReader.head(path).count == 512)
    }
}
