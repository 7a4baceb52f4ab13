/// The third hostile review's findings about saving and its messages: a change to an
/// object of a store `.open` closed, authors that were cut or ignored, the last key of a
/// Core Data store, an operation named twice, a tampered model row without its entity.
import Foundation
import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryLua
@testable import QuarryStore

@Suite struct HostileSaveTests {
    func carsWithHistory(then sql: String) throws -> String {
        try CoreDataHistoryStores.copy("cars/SampleModel_V1.sqlite", then: sql)
    }

    func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] { try CoreDataHistoryStores.rows(path, sql) }

    /// After `.open`, every change to an object of the closed store is refused with one
    /// line, where it was accepted and then lost (save reported 0/0/0).
    @Test func changesToAnObjectOfAClosedStoreAreRefused() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let first = folder.appendingPathComponent("first.db").path
        let h = try Harness(context: try StoreOpener.open(first))
        h.run(
            #"""
            entity "Tag" { name = "string" }
            entity "Item" { n = "int64", owner = { one = "Item", inverse = "owned" }, owned = { many = "Item", inverse = "owner" },
                            tags = { many = "Tag", inverse = "items" } }
            entity "Tag" { name = "string", items = { many = "Item", inverse = "tags" } }
            Item:new{ n = 1 }; Item:new{ n = 2 }; Tag:new{ name = "t" }; save()
            old = Item:first("n == 1"); other = Item:first("n == 2"); tag = Tag:first()
            r = fetch("Item"); watched = observe(r, function() end)
            """#)
        h.runtime.use(try StoreOpener.open(folder.appendingPathComponent("second.db").path))
        h.run(#"entity "Item" { n = "int64", owner = { one = "Item", inverse = "owned" }, owned = { many = "Item", inverse = "owner" } }"#)
        let changes = [
            "old.n = 5", "old.owner = other", "old.owned:add(other)", "old.tags:add(tag)", "old:delete()", "quarry.delete(old)",
            "old.tags = {}", "old:refresh()", "refresh(old)", "return old.owner", "return #old.owned"
        ]
        for change in changes {
            let message = h.error(change)
            #expect(message.contains("its store is closed (.open replaced it)"), "\(change): \(message)")
            #expect(!message.contains("\n"), "\(change): \(message)")
        }
        // Nothing reached either store.
        h.run("saved = save()")
        #expect(h.string("saved.inserted + saved.updated + saved.deleted") == "0")
        #expect(h.string("count('Item')") == "0")
        // Nor can the open store's objects point at it.
        let pointing = h.error("local new = Item:new{ n = 3 }; new.owner = old")
        #expect(pointing.contains("its store is closed (.open replaced it)"), "\(pointing)")
        // The closed store's objects still read their attributes.
        #expect(h.string("old.n") == "1" && h.string("old:objectID()") == "Item/1")
        #expect(h.string("tostring(old)") == "Item/1 {n = 1}")
        h.run("rollback()")
        #expect(try rows(first, "SELECT n FROM Item ORDER BY n") == [[1.databaseValue], [2.databaseValue]])
    }

    /// `save{ author = ... }` takes a string without NUL bytes; anything else is refused,
    /// with nothing written and the changes still pending, where it was cut or ignored.
    @Test func authorsThatAreNotPlainStringsAreRefused() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }; Item:new{ n = 1 }"#)
        let refusals: [(String, String)] = [
            (#"save{ author = "a\0b" }"#, "save: author must be a string without NUL bytes"),
            ("save{ author = 42 }", "save: author must be a string, got number"),
            ("save{ author = {} }", "save: author must be a string, got table"),
            ("save{ author = true }", "save: author must be a string, got boolean"),
            (#"save{ autor = "me" }"#, "save: unknown option 'autor' (did you mean 'author'?)"),
            ("save(42)", "bad argument #1 to 'save' (table expected, got number)")
        ]
        for (code, expected) in refusals {
            let message = h.error(code)
            #expect(message.contains(expected), "\(code): \(message)")
            #expect(h.string("haschanges()") == "true", "\(code) lost the pending change")
        }
        #expect(h.string("#history{}") == "0")
        h.run(#"save{ author = "ann" }"#)
        #expect(h.string("history{}[1].author") == "ann")
        #expect(h.error("history{ author = 7 }").contains("history: author must be a string, got number"))
    }

    /// A Core Data store whose root entity's `Z_MAX` is at 2^63-1 (or not an integer) has
    /// no key for a new object: refused naming the entity and Z_MAX, nothing written,
    /// where SQLite's "datatype mismatch" was all it said.
    @Test(arguments: ["9223372036854775807", "'many'"])
    func theLastKeyOfACoreDataStoreIsRefusedByName(_ last: String) throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(last) WHERE Z_NAME = 'Car'") }
        try queue.close()
        let before = try rows(path, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") + rows(path, "SELECT count(*) FROM ZCAR")
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"SportCar:new{ maker = "x", numberPlate = "NEW-1" }; save()"#)
        #expect(message.hasPrefix("t:1: save: Car: no key is left for a new row (Z_PRIMARYKEY.Z_MAX "), "\(message)")
        #expect(message.contains(last.hasPrefix("'") ? "is not an integer" : "is 9223372036854775807"), "\(message)")
        #expect(message.contains("nothing was written"), "\(message)")
        #expect(h.string("haschanges()") == "true")
        // A change that needs no key still saves.
        h.run("rollback()")
        h.run(#"local p = Person:first(); p.firstName = "Zed"; save()"#)
        h.context.close()
        #expect(try rows(path, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") + rows(path, "SELECT count(*) FROM ZCAR") == before)
    }

    /// Persistent history takes its keys from its own entities' `Z_MAX`: at the last key
    /// the save is refused naming the history entity, where the last key was reused and
    /// `Z_MAX` became a real number.
    @Test func theLastKeyOfTheHistoryIsRefusedByName() throws {
        let path = try carsWithHistory(then: "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807 WHERE Z_NAME = 'CHANGE'")
        let before = try rows(path, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") + rows(path, "SELECT count(*) FROM ATRANSACTION")
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"local p = Person:first(); p.firstName = "Zed"; save()"#)
        #expect(message.hasPrefix("t:1: save: history entity CHANGE: no key is left for a new row"), "\(message)")
        #expect(!message.contains("save: save:"), "\(message)")
        h.context.close()
        #expect(try rows(path, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") + rows(path, "SELECT count(*) FROM ATRANSACTION") == before)
        #expect(try rows(path, "SELECT typeof(Z_MAX) FROM Z_PRIMARYKEY WHERE Z_NAME = 'CHANGE'") == [["integer".databaseValue]])
    }

    /// A refusal made inside the save names `save` once, where it read `save: save: …`.
    /// (A store with history whose model was inferred: Quarry cannot record an update's
    /// properties in the model's order, so the save is refused from inside.)
    @Test func aSaveRefusalNamesTheOperationOnce() throws {
        let path = try carsWithHistory(then: "DELETE FROM Z_MODELCACHE")
        let h = try Harness(context: try StoreOpener.open(path))
        let message = h.error(#"local p = Person:first(); p.firstname = "x"; save()"#)
        #expect(message.hasPrefix("t:1: save: this Core Data store's persistent history"), "\(message)")
        #expect(!message.contains("save: save:"), "\(message)")
    }

    /// A `quarry_model` row another program changed names the entity it belongs to.
    @Test func aTamperedModelRowNamesItsEntity() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        let path = folder.appendingPathComponent("store.db").path
        do {
            let h = try Harness(context: try StoreOpener.open(path))
            h.run(#"entity "Item" { n = "int64" }; entity "Other" { s = "string" }; save()"#)
            h.context.close()
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "UPDATE quarry_model SET definition = x'00ff' WHERE name = 'Other'") }
        try queue.close()
        do {
            _ = try StoreOpener.open(path)
            Issue.record("a tampered model row opened")
        } catch {
            let line = String(describing: error)
            #expect(
                line
                    == "the stored model of entity Other: quarry_model.definition holds a blob where text is expected; was the file changed by another program?",
                "\(line)")
        }
    }
}
