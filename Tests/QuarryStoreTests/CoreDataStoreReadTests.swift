import Foundation
import GRDB
/// Reading a store's model cache must change no byte of the store or its `-wal`
/// (a Core Data store belongs to its app; Quarry only looks).
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

enum GRDBHelpers {
    /// The raw `Z_MODELCACHE.Z_CONTENT` of a store copy.
    static func modelCacheBlob(_ path: String) throws -> [UInt8] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let data = try queue.read { db in try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") }
        return [UInt8](try #require(data))
    }
}

@Suite struct CoreDataStoreReadTests {
    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func readingTheModelCacheChangesNoByte() throws {
        for store in CoreDataFixtures.stores {
            let copy = try CoreDataFixtures.copyOfStore(store.path)
            let before = (bytes(copy), bytes(copy + "-wal"))
            #expect(before.0 != nil)
            if store.hasCache {
                let model = try CoreDataModel.fromStore(atPath: copy)
                #expect(!model.entities.isEmpty)
            } else {
                #expect(throws: ModelFileError.self) { try CoreDataModel.fromStore(atPath: copy) }
            }
            // Also through GRDB directly, as a caller holding the database would.
            var configuration = Configuration()
            configuration.readonly = true
            do {
                let queue = try DatabaseQueue(path: CoreDataModel.storeOpeningPath(copy), configuration: configuration)
                if try queue.read({ db in try CoreDataModel.hasModelCache(db) }) {
                    _ = try queue.read { db in try CoreDataModel.fromModelCache(db, path: copy) }
                }
            }
            #expect(bytes(copy) == before.0, "\(store.path) changed")
            #expect(bytes(copy + "-wal") == before.1, "\(store.path)-wal changed (or was made)")
            if before.1 == nil {
                // cars and authors are WAL-mode stores shipped without their -wal: no side file may appear.
                #expect(!FileManager.default.fileExists(atPath: copy + "-shm"), "\(store.path): a -shm appeared")
            }
        }
    }

    @Test func surfJournalRowsAreReadFromTheWAL() throws {
        let copy = try CoreDataFixtures.copyOfStore("surfjournal/SurfJournalModel.sqlite")
        #expect(FileManager.default.fileExists(atPath: copy + "-wal"))
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: copy, configuration: configuration)
        let count = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ZJOURNALENTRY") }
        #expect((count ?? 0) > 0)
        let error = #expect(throws: ModelFileError.self) { try CoreDataModel.fromStore(atPath: copy) }
        #expect(error?.kind == .noModelCache)
    }
}
