import Foundation
import GRDB
import QuarryCoreData
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// What the review of the store seam found (#30): the store decides what may be
/// defined, and Quarry's own file keeps its layout.
struct StoreDefinitionTests {
    /// A Core Data store's entities are its model's: importing a file as a new entity is
    /// refused before the file is read, naming import, and the store is as it was (it
    /// once gained a table and `quarry_model`, and then no longer opened as Core Data).
    @Test func importingANewEntityIntoACoreDataStoreIsRefusedUpFront() throws {
        let store = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let folder = URL(fileURLWithPath: store).deletingLastPathComponent()
        let csv = folder.appendingPathComponent("a.csv").path
        try "carrier,name\nAA,American\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let h = try Harness(context: try StoreOpener.open(store))
        let message = h.error(#"import("\#(csv)", { entity = "Airline2" })"#)
        #expect(message.contains("import") && message.contains("Airline2 is not an entity of the store") && message.contains("Core Data store"))
        #expect(h.string(#"#entities()"#) == "\(h.context.entities.count)" && CoreDataStore.behind(h.context) != nil)
        h.context.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let reopened = try StoreOpener.open(store)
        defer { reopened.close() }
        #expect(CoreDataStore.behind(reopened) != nil && reopened.entities.allSatisfy { $0.name != "Airline2" })
    }

    /// In a new Quarry file `quarry_model` comes first, before the tables it describes,
    /// as it always has.
    @Test func quarryModelIsTheFirstTableOfANewFile() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("new.db").path
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"entity "A" { x = "string" }; entity "B" { y = "int64" }"#)
        let names = try h.context.connection.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
        }
        #expect(names.first == "quarry_model" && names.contains("A") && names.contains("B"))
    }
}
