import Foundation
import QuarryLua
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `open()`: several stores in one session, each with its own entities, pending changes,
/// saves and observers; objects of one store refused as links of another's, and copied
/// across with `b.Item:new(o)` and `copy()`.
@Suite struct SeveralStoresTests {
    /// A harness over an in-memory store whose `open()` opens through the shell's opener,
    /// and a folder for the files it opens.
    func harness() throws -> (Harness, URL) {
        let h = try Harness()
        h.runtime.settings.openStore = { opening in
            let path = opening.location == ":memory:" ? nil : opening.location
            return (try StoreOpener.open(path, readOnly: opening.readOnly, model: opening.model), opening.location)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-stores-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        h.run(#"entity "Item" { title = "string", n = "int32?" }; Item:new{ title = "a1", n = 1 }; save()"#)
        return (h, folder)
    }

    /// save() with nothing to save in the session's store, while an opened store holds
    /// changes, says which store does and how to save it: "{ inserted = 0 ... }" alone
    /// read as if the change were written.
    @Test func saveWithNothingHereNamesTheStoreThatHasChanges() throws {
        let console = ConsoleAndFailureTests.RecordingConsole()
        let h = try Harness(console: console)
        h.runtime.settings.openStore = { opening in (try StoreOpener.open(nil), opening.location) }
        h.run(#"entity "Item" { title = "string" }; Item:new{ title = "a" }; save()"#)
        h.run(#"b = open(":memory:"); entity(b, "Item", { title = "string" }); save(b); b.Item:new{ title = "b" }"#)
        #expect(console.notes.isEmpty, "\(console.notes)")
        h.run("save()")
        #expect(
            console.notes == [
                "note: the session's store has nothing to save; :memory:, opened with open(), holds unsaved changes: save(b) with its handle writes them"
            ], "\(console.notes)")
        // Saving b, or the session's own changes, says nothing.
        console.notes = []
        h.run("save(b); Item:new{ title = 'c' }; b.Item:new{ title = 'd' }; save()")
        #expect(console.notes.isEmpty, "\(console.notes)")
    }

    @Test func eachStoreKeepsItsOwnEntitiesChangesAndSaves() throws {
        let (h, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("b.sqlite").path
        h.run(
            #"""
            b = open("\#(path)")
            entity(b, "Item", { title = "string", n = "int64?", extra = "string?" })
            b.Item:new{ title = "b1", extra = "x" }
            b.Item:new{ title = "b2" }
            """#)
        #expect(h.string("typeof(b)") == "store")
        #expect(h.string("haschanges(b) and not haschanges()") == "true")
        #expect(h.string("count(b, 'Item') .. ',' .. count('Item') .. ',' .. b.Item:count() .. ',' .. Item:count()") == "2,1,2,1")
        #expect(h.string("save(b).inserted") == "2")
        #expect(h.string("#fetch(b, 'Item', 'title BEGINSWITH %@', 'b') .. ',' .. #fetch('Item', 'title BEGINSWITH %@', 'b')") == "2,0")
        #expect(h.string("b.Item:first('title == %@', 'b1').extra") == "x")
        // The same key in two stores is two objects.
        #expect(h.string("b.Item:get('Item/1').title .. ',' .. Item:get('Item/1').title") == "b1,a1")
        #expect(h.string("rawequal(b.Item:get('Item/1'), Item:get('Item/1'))") == "false")
        #expect(h.string("rawequal(b.Item:get('Item/1'), b.Item:first('title == %@', 'b1'))") == "true")
        // rollback(b) leaves the session's changes; rollback() leaves b's.
        h.run("Item:first().title = 'changed'; b.Item:first('title == %@', 'b2').title = 'b2 changed'; rollback(b)")
        #expect(h.string("haschanges() and not haschanges(b)") == "true")
        #expect(h.string("Item:first().title .. ',' .. b.Item:first('title == %@', 'b2').title") == "changed,b2")
        h.run("rollback()")
        // stores(): the session's first.
        #expect(h.string("#stores() .. ',' .. tostring(rawequal(stores()[2], b))") == "2,true")
        // The file holds what save(b) wrote, and the session's store none of it.
        let other = try Harness(context: try StoreOpener.open(path))
        #expect(other.string("count('Item')") == "2")
    }

    @Test func objectsOfAnotherStoreWorkFully() throws {
        let (h, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("b.sqlite").path
        h.run(
            #"""
            b = open("\#(path)")
            entity(b, "Person", { name = "string", items = { many = "Item", inverse = "owner" } })
            entity(b, "Item", { title = "string", owner = { one = "Person", inverse = "items" } })
            local p = b.Person:new{ name = "ann" }
            b.Item:new{ title = "x", owner = p }
            local y = b.Item:new{ title = "y" }
            p.items:add(y)
            save(b)
            """#)
        #expect(h.string("#b.Person:first().items .. ',' .. b.Item:first('title == %@', 'y').owner.name") == "2,ann")
        // A predicate asked of b's object reads b's model (the session's Item has no owner).
        #expect(h.string("predicate('owner.name == %@', 'ann'):matches(b.Item:first('title == %@', 'x'))") == "true")
        h.run("local o = b.Item:first('title == %@', 'x'); o.title = 'x2'; b.Item:first('title == %@', 'y'):delete(); save(b)")
        #expect(h.string("b.Item:count() .. ',' .. b.Item:first().title .. ',' .. #b.Person:first().items") == "1,x2,1")
        #expect(h.string("b.Item:first():objectID()") == "Item/1")
        #expect(h.string("Item:count()") == "1")
    }

    @Test func aClosedStoreRefusesAndPendingChangesHoldTheClose() throws {
        let (h, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("b.sqlite").path
        h.run(#"b = open("\#(path)"); entity(b, "Item", { title = "string" }); b.Item:new{ title = "z" }"#)
        let pending = h.error("b:close()")
        #expect(pending.contains("1 pending change") && pending.contains("save(b) or rollback(b)"), "\(pending)")
        h.run("save(b); b:close()")
        for code in ["count(b, 'Item')", "local e = b.Item", "save(b)", "fetch(b, 'Item')"] {
            let message = h.error(code)
            #expect(message.contains("b.sqlite is closed") && !message.contains("\n"), "\(code): \(message)")
        }
        #expect(h.string("#stores()") == "1")
        // What was read from it refuses too, naming it.
        h.run(#"c = open("\#(path)"); kept = c.Item:first(); rows = c.Item:fetch(); c:close()"#)
        for code in ["kept.title = 'q'", "kept:delete()", "local n = #rows", "rows:first()"] {
            let message = h.error(code)
            #expect(message.contains("b.sqlite is closed") && !message.contains("\n"), "\(code): \(message)")
        }
        #expect(h.error("open('')").contains("a location is needed"))
        #expect(h.error("stores()[1]:close()").contains("stays open"))
    }

    @Test func objectsOfTwoStoresAreNeverRelated() throws {
        let (h, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("b.sqlite").path
        h.run(
            #"""
            entity "Person" { name = "string", items = { many = "Item", inverse = "owner" } }
            entity "Item" { title = "string", n = "int32?", owner = { one = "Person", inverse = "items" } }
            mine = Person:new{ name = "here" }
            b = open("\#(path)")
            entity(b, "Person", { name = "string", items = { many = "Item", inverse = "owner" } })
            entity(b, "Item", { title = "string", owner = { one = "Person", inverse = "items" } })
            theirs = b.Person:new{ name = "there" }
            other = b.Item:new{ title = "t" }
            """#)
        for code in [
            "Item:first().owner = theirs", "other.owner = mine", "mine.items:add(other)", "theirs.items = { Item:first() }",
            "Item:new{ title = 'n', owner = theirs }"
        ] {
            let message = h.error(code)
            #expect(message.contains("objects of two stores cannot be related") && !message.contains("\n"), "\(code): \(message)")
        }
        #expect(h.string("Item:count() .. ',' .. #mine.items .. ',' .. #theirs.items") == "1,0,0")
    }

    @Test func copiesTakeSharedAttributesAndLinksCopiedTogether() throws {
        let (h, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("b.sqlite").path
        h.run(
            #"""
            entity "Person" { name = "string", age = "int16?", items = { many = "Item", inverse = "owner" } }
            entity "Item" { title = "string", n = "int32?", price = "double?", owner = { one = "Person", inverse = "items" } }
            ann = Person:new{ name = "ann", age = 40 }
            bob = Person:new{ name = "bob" }
            Item:first().owner = ann
            Item:new{ title = "a2", n = 2, price = 1.5, owner = ann }
            Item:new{ title = "a3", owner = bob }
            save()
            b = open("\#(path)")
            entity(b, "Person", { name = "string", items = { many = "Item", inverse = "owner" } })
            entity(b, "Item", { title = "string", n = "int64?", price = "string?", owner = { one = "Person", inverse = "items" } })
            """#)
        // One object: attributes shared by name and type, and what was left out.
        h.run("c, left = b.Item:new(Item:first('title == %@', 'a2'))")
        #expect(h.string("c.title .. ',' .. c.n .. ',' .. tostring(c.price) .. ',' .. tostring(c.owner)") == "a2,2,nil,nil")
        // Each says which side lacks what: the source's store and the target's, by name.
        #expect(
            h.string("table.concat(left, ';')")
                == "Item.price: double in the session's store, string in the target entity Item in b.sqlite;Item.owner: its target was not copied")
        h.run("rollback(b)")
        // Results without their targets: the links are left out, and said.
        h.run("copies, left = copy(fetch('Person', 'name == %@', 'ann'), b)")
        #expect(
            h.string("#copies .. ';' .. table.concat(left, ';')")
                == "1;Person.age: the target entity Person in b.sqlite has no attribute age;Person.items: its targets were not copied")
        // With their targets, in one call: the links follow the copies.
        h.run(
            """
            rollback(b)
            both = {}
            for _, p in ipairs(fetch('Person')) do both[#both + 1] = p end
            for _, i in ipairs(fetch('Item')) do both[#both + 1] = i end
            copied, left = copy(both, b)
            save(b)
            """)
        #expect(h.string("b.Person:count() .. ',' .. b.Item:count() .. ',' .. #b.Person:first('name == %@', 'ann').items") == "2,3,2")
        #expect(h.string("b.Item:first('title == %@', 'a3').owner.name") == "bob")
        #expect(
            h.string("table.concat(left, ';')")
                == "Person.age: the target entity Person in b.sqlite has no attribute age;Item.price: double in the session's store, string in the target entity Item in b.sqlite"
        )
        // The session's objects are as they were.
        #expect(h.string("tostring(haschanges()) .. ',' .. Item:count() .. ',' .. #ann.items") == "false,3,2")
    }

    @Test func sqlObserversAndExportWorkOnTheStoreNamed() throws {
        let (h, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("b.sqlite").path
        let csv = folder.appendingPathComponent("b.csv").path
        h.run(
            #"""
            b = open("\#(path)")
            entity(b, "Item", { title = "string" })
            heardB, heardMine, events = 0, 0, 0
            observe(b.Item, function(ch) heardB = heardB + #ch.inserted end)
            observe("Item", function(ch) heardMine = heardMine + #ch.inserted end)
            r = fetch(b, "Item")
            observe(r, function(ev) events = events + #ev.inserted end)
            b.Item:new{ title = "one" }; b.Item:new{ title = "two" }
            save(b)
            Item:new{ title = "mine" }
            save()
            """#)
        #expect(h.string("heardB .. ',' .. heardMine .. ',' .. events .. ',' .. #r") == "2,1,2,2")
        #expect(h.string("sql(b, 'SELECT count(*) AS n FROM Item')[1].n .. ',' .. sql('SELECT count(*) AS n FROM Item')[1].n") == "2,2")
        #expect(h.string(#"export(fetch(b, { "Item", sort = { "title" } }), "\#(csv)")"#) == "2")
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(text.contains("one") && text.contains("two") && !text.contains("a1") && !text.contains("mine"), "\(text)")
        #expect(h.string(#"export(b, { sql = "SELECT title FROM Item ORDER BY title" }, "\#(csv)")"#) == "2")
        #expect(try String(contentsOfFile: csv, encoding: .utf8).contains("one"))
    }

    @Test func openIsRefusedWhereTheSessionOpensNone() throws {
        let h = try Harness()
        let message = h.error("open('x.sqlite')")
        #expect(message.contains("opens no other store"), "\(message)")
        let (g, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(g.error("open('x.sqlite', { readonly = 1 })").contains("readonly"))
        #expect(g.error("open('x.sqlite', { writable = true })").contains("unknown option 'writable'"))
    }

    /// A Core Data store that carries no model, opened with `model =` (a copy, read-only),
    /// beside the session's: its entities are the model's, and a predicate asked of its
    /// objects reads its relationships.
    @Test func aCoreDataStoreOpensWithTheModelNamed() throws {
        let (h, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try CoreDataFixtures.copyOfStore("surfjournal/SurfJournalModel.sqlite")
        let model = try CoreDataFixtures.path("surfjournal/SurfJournalModel.xcdatamodeld")
        let rows = try sqlAnswer(path, "SELECT count(*) FROM ZJOURNALENTRY")
        h.run(#"cd = open("\#(path)", { model = "\#(model)", readonly = true })"#)
        #expect(h.string("cd.JournalEntry:count() .. ',' .. count(cd, 'JournalEntry') .. ',' .. Item:count()") == "\(rows),\(rows),1")
        #expect(h.string("typeof(cd.JournalEntry:first().location)") == "string")
        #expect(h.string("predicate('location != nil'):matches(cd.JournalEntry:first('location != nil'))") == "true")
        let refused = h.error("cd.JournalEntry:first().location = 'x'; save(cd)")
        #expect(refused.contains("read-only") || refused.contains("readonly"), "\(refused)")
    }

    /// Tab after `b.` offers b's entities, after `b:` its methods, and after `b.Item.` or
    /// an object of b the keys b's entity has.
    @Test func tabCompletesAnotherStoresEntitiesAndKeys() throws {
        let (h, folder) = try harness()
        defer { try? FileManager.default.removeItem(at: folder) }
        h.run(#"b = open(":memory:"); entity(b, "Track", { title = "string", seconds = "int32" }); t = b.Track:new{ title = "x", seconds = 1 }"#)
        #expect(h.runtime.completions(before: "b.", word: "T") == ["Track"])
        #expect(h.runtime.completions(before: "b:", word: "cl") == ["close"])
        #expect(h.runtime.completions(before: "b.Track.", word: "se") == ["seconds"])
        #expect(h.runtime.completions(before: "t.", word: "se") == ["seconds"])
        #expect(h.runtime.completions(before: "b.", word: "It").isEmpty, "the session's Item is not b's")
    }
}
