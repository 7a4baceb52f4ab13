import GRDB
import QuarryModel
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarrySQLite
@testable import QuarryStore

/// The context never asks which kind of store it has: it asks its `PersistentStore` at
/// fixed points. A store that records those points, put behind a context, hears every
/// one of a save, a rollback and a batch change, in order, and writes what it is asked.
struct SQLitePersistentStoreSeamTests {
    /// Quarry's own store, recording what the context asks of it.
    final class RecordingStore: SQLiteStore {
        var managedObjectModel = ManagedObjectModel()
        var mapping = StoreMapping()
        let own = QuarryFileStore()
        var heard: [String] = []
        var dialect: any SQLDialect { own.dialect }
        var runsCascadesAtOnce: Bool { own.runsCascadesAtOnce }
        var isQuarrysFile: Bool { own.isQuarrysFile }
        func keepsDeclaration(of name: String) -> Bool { keepsQuarryLayout(name) }

        func refuseUnfaithfulWrite(_ operation: String, in session: StoreSession) throws { heard.append("refuse \(operation)") }
        func pendingChanges(_ event: PendingChangeEvent, in session: StoreSession) {
            switch event {
            case .changed(let object): heard.append("changed \(object.entity.name)")
            case .ended: heard.append("ended")
            case .unchanged, .refreshed: break
            }
        }
        func prepare(_ request: SaveChangesRequest, in session: StoreSession) throws -> StoreSaveWork {
            heard.append("prepare \(request.inserts.count)/\(request.updates.count)/\(request.deletes.count)")
            return StoreSaveWork()
        }
        func write(_ request: SaveChangesRequest, _ work: StoreSaveWork, session: StoreSession) throws -> SaveChangesResult {
            heard.append("write")
            return try SQLiteSaveWriter(session: session, store: self).write(request, work)
        }
        func willDeleteRows(
            _ request: SaveChangesRequest, _ work: inout StoreSaveWork, keys: SaveChangesRequest.Keys,
            in db: Database, session: StoreSession
        ) throws {
            heard.append("before deletes \(keys.insertedIDs(request))")
        }
        func didWriteRows(
            _ request: SaveChangesRequest, _ work: StoreSaveWork, keys: SaveChangesRequest.Keys,
            in db: Database, session: StoreSession
        ) throws { heard.append("after deletes") }
        func didSave(in session: StoreSession) { heard.append("saved") }
        func recordHistory(inserted: [String], updated: [String], deleted: [String], in db: Database, session: StoreSession) throws {
            heard.append("history \(inserted) \(updated) \(deleted)")
        }
        func prepareDeclarations(in db: Database) throws { try own.prepareDeclarations(in: db) }
        func keepDeclaration(_ name: String, definition: String, in db: Database, session: StoreSession) throws {
            heard.append("declare \(name)")
            try own.keepDeclaration(name, definition: definition, in: db, session: session)
        }
    }

    @Test func theContextAsksItsStoreAtEveryPointOfASave() throws {
        let context = try OpenFileRequest.open(path: nil)
        let store = RecordingStore()
        context.adopt(store)
        try context.define(EntityDescription(name: "Item", attributes: [AttributeDescription(name: "n", type: .int64)]))
        #expect(store.heard == ["declare Item"])
        #expect(context.entities.map(\.name) == ["Item"] && store.managedObjectModel.entities.map(\.name) == ["Item"])

        store.heard = []
        let first = try context.insert(into: "Item", values: ["n": .integer(1)])
        _ = try context.insert(into: "Item", values: ["n": .integer(2)])
        #expect(try context.save() == SaveSummary(inserted: 2))
        #expect(store.heard == ["refuse save", "prepare 2/0/0", "write", #"before deletes ["Item/1", "Item/2"]"#, "after deletes", "ended", "saved"])

        store.heard = []
        try first.setValue(.integer(10), forKey: "n")
        let second = try #require(try context.object(entityName: "Item", primaryKey: 2))
        try context.delete(second)
        #expect(try context.save() == SaveSummary(updated: 1, deleted: 1))
        // One change each: the update and the delete.
        #expect(
            store.heard == [
                "changed Item", "changed Item", "refuse save", "prepare 0/1/1", "write", "before deletes []", "after deletes", "ended", "saved"
            ])
        #expect(try context.connection.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Item") } == 1)

        store.heard = []
        try first.setValue(.integer(11), forKey: "n")
        context.rollback()
        #expect(store.heard == ["changed Item", "ended"])
        #expect(try first.value(forKey: "n") == .integer(10))
    }
}
