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

/// Issue 28, round three: the model an app ships beside its store is found; columns
/// Core Data suffixed, hidden to-many columns and suffixed join tables are mapped where
/// Core Data put them; property proxies resolve to their parent's property.
@Suite struct CoreDataLayoutTests {
    /// Every file under `folder` with its bytes, to show that opening changed none.
    func contents(of folder: String) -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var directory: ObjCBool = false
            let path = folder + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &directory), !directory.boolValue {
                found[name] = FileManager.default.contents(atPath: path)
            }
        }
        return found
    }

    /// A copy of surfjournal's store (with its -wal) in `folder`.
    func copySurfJournal(into folder: URL) throws -> String {
        let source = try CoreDataFixtures.path("surfjournal/SurfJournalModel.sqlite")
        let target = folder.appendingPathComponent("SurfJournalModel.sqlite").path
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target + suffix)
        }
        return target
    }

    @Test func theModelBesideTheStoreIsUsedWithANote() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let store = try copySurfJournal(into: folder)
        let model = folder.appendingPathComponent("SurfJournalModel.xcdatamodeld").path
        try FileManager.default.copyItem(atPath: CoreDataFixtures.path("surfjournal/SurfJournalModel.xcdatamodeld"), toPath: model)
        let modelBefore = contents(of: model)
        #expect(!modelBefore.isEmpty)
        let context = try OpenFileRequest.open(path: store)
        let entry = try #require(context.entities.first { $0.name == "JournalEntry" }, "\(context.entities.map(\.name))")
        // The model's names, in its case: inferred names would be lowercased.
        #expect(Set(entry.attributes.map(\.name)).isSuperset(of: ["date", "height", "location", "period", "rating", "wind"]))
        #expect(CoreDataStore.behind(context)?.modelSource == model)
        #expect(
            context.openingNotes.count == 1 && context.openingNotes[0].contains("the model beside it was used: \(model)"), "\(context.openingNotes)")
        let rows = try context.connection.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \"JournalEntry\"") ?? 0 }
        #expect(rows > 0)
        context.close()
        #expect(contents(of: model) == modelBefore, "reading the model changed it")
    }

    @Test func aSingleModelInTheParentFolderIsUsed() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let data = folder.appendingPathComponent("Data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let store = try copySurfJournal(into: data)
        // Named unlike the store: it is the parent folder's only model.
        let model = folder.appendingPathComponent("Journal.xcdatamodeld").path
        try FileManager.default.copyItem(atPath: CoreDataFixtures.path("surfjournal/SurfJournalModel.xcdatamodeld"), toPath: model)
        let context = try OpenFileRequest.open(path: store)
        defer { context.close() }
        #expect(CoreDataStore.behind(context)?.modelSource == model)
        #expect(context.entities.first { $0.name == "JournalEntry" } != nil, "\(context.entities.map(\.name))")
    }

    @Test func withNoModelBesideOrSeveralTheNamesAreInferred() throws {
        let store = try CoreDataFixtures.copyOfStore("recipes/Recipes.sqlite")
        let first = try OpenFileRequest.open(path: store)
        #expect(CoreDataStore.behind(first)?.modelSource == "inferred")
        #expect(first.openingNotes.count == 1 && first.openingNotes[0].contains("were inferred"), "\(first.openingNotes)")
        first.close()
        // Two unrelated models, neither named after the store: none is chosen.
        let folder = URL(fileURLWithPath: store).deletingLastPathComponent()
        for name in ["One", "Two"] {
            try FileManager.default.copyItem(
                atPath: CoreDataFixtures.path("surfjournal/SurfJournalModel.xcdatamodeld"),
                toPath: folder.appendingPathComponent(name + ".xcdatamodeld").path)
        }
        let second = try OpenFileRequest.open(path: store)
        defer { second.close() }
        #expect(CoreDataStore.behind(second)?.modelSource == "inferred")
        #expect(CoreDataModel.modelBeside(store: store) == nil)
    }

    @Test func anUnreadableModelBesideIsANoteNotAnError() throws {
        let store = try CoreDataFixtures.copyOfStore("recipes/Recipes.sqlite")
        let model = URL(fileURLWithPath: store).deletingLastPathComponent().appendingPathComponent("Recipes.xcdatamodeld")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let context = try OpenFileRequest.open(path: store)
        #expect(CoreDataStore.behind(context)?.modelSource == "inferred")
        #expect(
            context.openingNotes.count == 1 && context.openingNotes[0].contains("the model beside it could not be read"), "\(context.openingNotes)")
        #expect(context.entities.contains { $0.name.lowercased() == "recipe" }, "\(context.entities.map(\.name))")
        context.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
