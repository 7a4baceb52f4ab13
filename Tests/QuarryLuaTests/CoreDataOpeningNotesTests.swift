import Foundation
import GRDB
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// What opening a Core Data store leaves out is said in a note, never silently (a trial on
/// an app's store, issue 80): a table whose Z_PK holds text (made by a CSV import) read
/// as empty, and a `--model` the store's own cache overrode went unused without a word.
@Suite struct CoreDataOpeningNotesTests {
    @Test func rowsWhoseKeyIsNotAnIntegerAreCountedInANote() throws {
        let path = try CoreDataFixtures.copyOfStore("authors/TestModel.sqlite")
        let sql = try DatabaseQueue(path: path)
        // As a CSV import into a table with untyped columns writes it: every value text.
        try sql.write { db in
            try db.execute(sql: "DROP TABLE ZAUTHOR")
            try db.execute(sql: "CREATE TABLE ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME)")
            try db.execute(sql: "INSERT INTO ZAUTHOR VALUES ('1', '1', '1', 'Ann', 'Lee'), ('2', '1', '1', 'Bo', 'Ng'), (3, 1, 1, 'Cy', 'Oz')")
        }
        try sql.close()
        let context = try StoreOpener.open(path)
        let h = try Harness(context: context)
        #expect(h.string("count('Author')") == "1")
        let note = "ZAUTHOR: 2 of its 3 rows are not read as Author: their Z_PK is text, not an integer as Core Data writes it (sql() reads them)"
        #expect(context.openingNotes.contains(note), "\(context.openingNotes)")
        // A store Core Data made says nothing of the kind.
        let plain = try StoreOpener.open(try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite"))
        #expect(!plain.openingNotes.contains { $0.contains("Z_PK is") }, "\(plain.openingNotes)")
    }

    @Test func aModelTheStoresCacheOverridesIsNamedInANote() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let model = try CoreDataFixtures.path("cars/SampleModel.xcdatamodeld")
        let context = try StoreOpener.open(path, model: model)
        let expected = "\(path): --model \(model) is not used: the store carries its own model (Z_MODELCACHE), which is read instead"
        #expect(context.openingNotes.contains(expected), "\(context.openingNotes)")
        // Defining the model's entities again is refused without offering --model, which
        // the store's own model overrides.
        let h = try Harness(context: context)
        let refused = h.error("model([[\(model)]])")
        #expect(refused.contains("the model it carries (Z_MODELCACHE)") && !refused.contains("open it with --model"), "\(refused)")
        let without = try StoreOpener.open(try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite"))
        #expect(!without.openingNotes.contains { $0.contains("--model") }, "\(without.openingNotes)")
    }
}
