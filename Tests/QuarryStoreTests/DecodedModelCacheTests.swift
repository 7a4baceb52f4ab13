import Foundation
import GRDB
/// Models decoded from `Z_MODELCACHE` kept between runs (`DecodedModelCache`): what comes
/// back is exactly what decoding gives, only for the very bytes it was decoded from, and a
/// damaged or foreign cache file is a miss, never another model and never a crash.
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

@Suite struct DecodedModelCacheTests {
    /// Every shared store that carries a model cache.
    static let stores = [
        "cars/SampleModel_V1.sqlite", "posts/CoreDataMigration_Example_3.sqlite", "authors/TestModel.sqlite",
        "books2/SampleModel2_V2.sqlite", "photos/Photos.sqlite"
    ]

    /// The store's `Z_MODELCACHE.Z_CONTENT`, read from a copy.
    static func blob(_ relative: String) throws -> [UInt8] {
        let queue = try DatabaseQueue(path: try CoreDataFixtures.copyOfStore(relative))
        defer { try? queue.close() }
        let data = try queue.read { db in try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") }
        return [UInt8](try #require(data, "\(relative) has no model cache"))
    }

    static func freshCache() throws -> DecodedModelCache {
        DecodedModelCache(folder: try CoreDataFixtures.temporaryFolder().appendingPathComponent("models").path)
    }

    static func files(_ cache: DecodedModelCache) throws -> [String] {
        let folder = try #require(cache.folder)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
    }

    @Test(arguments: stores) func theByteFormReadsBackToTheSameModel(_ store: String) throws {
        let model = try CoreDataModel.decodeModelCache(Data(try Self.blob(store)), path: store)
        #expect(!model.entities.isEmpty)
        let again = try CoreDataModel(bytes: model.encodedBytes())
        #expect(again == model)
        // Equal also in what Equatable may not weigh: the order of every list.
        #expect(again.entities.map(\.name) == model.entities.map(\.name))
        #expect(again.entities.map { $0.attributes.map(\.name) } == model.entities.map { $0.attributes.map(\.name) })
    }

    @Test func aModelOfEveryKindOfValueReadsBack() throws {
        var entity = CoreDataEntity(
            name: "Épée", parent: "Weapon", isAbstract: true, className: "App.Épée",
            uniquenessConstraints: [["name", "maker"], ["serial"]],
            fetchIndexes: [CoreDataFetchIndex(name: "byName", properties: ["name"])],
            fetchedProperties: [CoreDataFetchRequest(name: "rivals", entity: "Épée", predicate: .unsupported("a subquery"))])
        entity.attributes = CoreDataAttributeType.allCases.enumerated().map { i, type in
            CoreDataAttribute(
                name: "a\(i)", type: type, isOptional: i % 2 == 0, isTransient: i % 3 == 0, isDerived: i % 5 == 0,
                derivationExpression: i % 5 == 0 ? "now()" : nil, defaultValue: i % 4 == 0 ? "" : nil,
                isIndexed: i % 7 == 0, allowsExternalBinaryDataStorage: i == 1,
                valueTransformerName: i == 2 ? "NSSecureUnarchiveFromData" : nil, preservesValueInHistoryOnDeletion: i == 3)
        }
        entity.relationships = [
            CoreDataRelationship(
                name: "books", destination: "Book", inverse: "author", isToMany: true, isOrdered: true,
                minCount: 2, maxCount: -1, deleteRule: .cascade, isOptional: false),
            CoreDataRelationship(name: "owner", destination: "Person", deleteRule: .deny, isTransient: true),
            CoreDataRelationship(name: "big", destination: "Person", isToMany: true, minCount: Int.min, maxCount: Int.max, deleteRule: .noAction)
        ]
        let model = CoreDataModel(
            entities: [entity, CoreDataEntity(name: "Weapon")],
            fetchRequests: [
                CoreDataFetchRequest(name: "all", entity: "Weapon"),
                CoreDataFetchRequest(name: "sharp", entity: "Épée", predicate: .format("edge > 3"))
            ])
        #expect(try CoreDataModel(bytes: model.encodedBytes()) == model)
    }

    /// A cache folder others may write (a world-writable `/tmp` for all), or a file that
    /// is not the user's own and theirs alone, is not used, as ssh treats its files: a
    /// forged file there would hand a store another model (every delete rule cascading).
    @Test func aFolderOrFileOthersMayWriteIsNotUsed() throws {
        let cache = try Self.freshCache()
        let blob = try Self.blob("books2/SampleModel2_V2.sqlite")
        let decoded = try CoreDataModel.decodeModelCache(Data(blob), path: "Books.sqlite", cache: cache)
        #expect(cache.model(for: blob) == decoded)
        let folder = try #require(cache.folder)
        let file = try #require(try Self.files(cache).first)
        DecodedModelCache.distrustSaid = false
        #expect(chmod(folder, 0o1777) == 0)
        #expect(cache.model(for: blob) == nil)
        #expect(DecodedModelCache.takeNote()?.contains("is not the user's own or others may write it") == true)
        #expect(DecodedModelCache.takeNote() == nil)
        #expect(chmod(folder, 0o700) == 0)
        #expect(cache.model(for: blob) == decoded)
        #expect(chmod(file, 0o666) == 0)
        #expect(cache.model(for: blob) == nil)
        // Nor is a file kept there: the folder others may write is left as it was.
        #expect(chmod(file, 0o600) == 0 && chmod(folder, 0o777) == 0)
        try FileManager.default.removeItem(atPath: file)
        cache.keep(decoded, for: blob)
        #expect(try Self.files(cache).isEmpty)
        #expect(chmod(folder, 0o700) == 0)
    }

    @Test func aKeptModelComesBackOnlyForItsOwnBytes() throws {
        let cache = try Self.freshCache()
        let blob = try Self.blob("books2/SampleModel2_V2.sqlite")
        #expect(cache.model(for: blob) == nil)
        let decoded = try CoreDataModel.decodeModelCache(Data(blob), path: "Books.sqlite", cache: cache)
        #expect(try Self.files(cache).count == 1)
        #expect(cache.model(for: blob) == decoded)
        // The same decoding with the cache answers from it.
        #expect(try CoreDataModel.decodeModelCache(Data(blob), path: "Books.sqlite", cache: cache) == decoded)
        // Any other blob misses, even one of the same length and CRC's file name.
        var other = blob
        other[other.count / 2] ^= 1
        #expect(cache.model(for: other) == nil)
        let file = try #require(try Self.files(cache).first)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        // A byte of the blob the file keeps (its CRC in the name still matches): a miss.
        let start = try #require((8..<bytes.count).first { bytes[$0..<$0 + 32].elementsEqual(blob[..<32]) })
        bytes[start + blob.count / 2] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(cache.model(for: blob) == nil)
    }

    @Test func aDamagedFileIsAMissNeverAnotherModel() throws {
        let cache = try Self.freshCache()
        let blob = try Self.blob("cars/SampleModel_V1.sqlite")
        let decoded = try CoreDataModel.decodeModelCache(Data(blob), path: "cars", cache: cache)
        let file = try #require(try Self.files(cache).first)
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        var misses = 0
        // Every byte changed, and every length cut short: each is refused or (never, but
        // allowed) the same model; none crashes or yields a different one.
        for at in good.indices {
            var bad = good
            bad[at] ^= 0x41
            try Data(bad).write(to: URL(fileURLWithPath: file))
            let read = cache.model(for: blob)
            #expect(read == nil || read == decoded, "byte \(at)")
            if read == nil { misses += 1 }
        }
        for length in stride(from: 0, to: good.count, by: 7) {
            try Data(good[..<length]).write(to: URL(fileURLWithPath: file))
            #expect(cache.model(for: blob) == nil, "cut at \(length)")
        }
        #expect(misses == good.count)
        // Written again by the next decoding, and used.
        _ = try CoreDataModel.decodeModelCache(Data(blob), path: "cars", cache: cache)
        #expect(cache.model(for: blob) == decoded)
    }

    @Test func aCacheFolderThatCannotBeWrittenOnlyCostsTime() throws {
        let blocked = try CoreDataFixtures.temporaryFolder().appendingPathComponent("file")
        try Data("not a folder".utf8).write(to: blocked)
        let cache = DecodedModelCache(folder: blocked.path + "/models")
        let blob = try Self.blob("authors/TestModel.sqlite")
        let decoded = try CoreDataModel.decodeModelCache(Data(blob), path: "authors", cache: cache)
        #expect(decoded == (try CoreDataModel.decodeModelCache(Data(blob), path: "authors")))
        #expect(cache.model(for: blob) == nil)
    }

    @Test func aRefusedArchiveIsNotKept() throws {
        let cache = try Self.freshCache()
        #expect(throws: ModelFileError.self) {
            try CoreDataModel.decodeModelCache(Data(PlistBombs.dagBombModelCache), path: "bomb", cache: cache)
        }
        #expect(try Self.files(cache).isEmpty)
    }

    @Test func theOldestFilesGoPastTheLimit() throws {
        var cache = try Self.freshCache()
        cache.limit = 2
        let blobs = try ["cars/SampleModel_V1.sqlite", "authors/TestModel.sqlite", "books2/SampleModel2_V2.sqlite"].map(Self.blob)
        for (i, blob) in blobs.prefix(2).enumerated() {
            _ = try CoreDataModel.decodeModelCache(Data(blob), path: "store \(i)", cache: cache)
            // Distinct modification times, whatever the file system's resolution.
            let file = try #require(try Self.files(cache).first { $0.hasSuffix("-\(blob.count).model") })
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: Double(1_000_000 + i * 100))],
                ofItemAtPath: file)
        }
        #expect(try Self.files(cache).count == 2)
        // A third file is past the limit: the oldest goes.
        _ = try CoreDataModel.decodeModelCache(Data(blobs[2]), path: "store 2", cache: cache)
        #expect(try Self.files(cache).count == 2)
        #expect(cache.model(for: blobs[0]) == nil)
        #expect(cache.model(for: blobs[1]) != nil)
        #expect(cache.model(for: blobs[2]) != nil)
    }

    /// Pruning removes only the cache's own files: a folder or a user's file whose name
    /// ends in `.model`, or a file named like the cache's that does not start as they do,
    /// stays (a folder was removed with all it held).
    @Test func pruningTouchesOnlyItsOwnFiles() throws {
        var cache = try Self.freshCache()
        cache.limit = 1
        let folder = try #require(cache.folder)
        try FileManager.default.createDirectory(atPath: folder + "/important.model", withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: folder + "/important.model/weights.bin"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/user.model"))
        try Data("not a cache file".utf8).write(to: URL(fileURLWithPath: folder + "/abc-12.model"))
        let old = Date(timeIntervalSince1970: 1_000_000)
        for name in ["important.model", "user.model", "abc-12.model"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder + "/" + name)
        }
        for store in ["cars/SampleModel_V1.sqlite", "authors/TestModel.sqlite"] {
            _ = try CoreDataModel.decodeModelCache(Data(try Self.blob(store)), path: store, cache: cache)
        }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(names.isSuperset(of: ["important.model", "user.model", "abc-12.model"]), "\(names)")
        #expect(FileManager.default.fileExists(atPath: folder + "/important.model/weights.bin"))
        #expect(names.filter { DecodedModelCache.isCacheFileName($0) && $0 != "abc-12.model" }.count == 1, "\(names)")
    }

    /// A model the archive decoder would refuse (an entity twice, a parent cycle) is not
    /// taken from a file either, whatever its CRC says.
    @Test func aModelThatFailsTheChecksIsAMiss() throws {
        let cache = try Self.freshCache()
        let blob = try Self.blob("cars/SampleModel_V1.sqlite")
        let twice = CoreDataModel(entities: [CoreDataEntity(name: "Car"), CoreDataEntity(name: "Car")])
        cache.keep(twice, for: blob)
        #expect(try Self.files(cache).count == 1)
        #expect(cache.model(for: blob) == nil)
        let cycle = CoreDataModel(entities: [CoreDataEntity(name: "A", parent: "B"), CoreDataEntity(name: "B", parent: "A")])
        cache.keep(cycle, for: blob)
        #expect(cache.model(for: blob) == nil)
    }

    /// A model far larger than its blob could make is neither written nor read: a forged
    /// file of millions of properties took gigabytes to load.
    @Test func aModelLargerThanItsBlobCouldMakeIsNotKept() throws {
        let cache = try Self.freshCache()
        let blob = Array(try Self.blob("cars/SampleModel_V1.sqlite").prefix(64))
        var entity = CoreDataEntity(name: "Big")
        entity.attributes = (0..<100_000).map { CoreDataAttribute(name: "a\($0)", type: .string) }
        cache.keep(CoreDataModel(entities: [entity]), for: blob)
        #expect(try Self.files(cache).isEmpty)
    }
}
