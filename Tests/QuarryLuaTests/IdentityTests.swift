import CLua
import QuarryFetch
import QuarryLua
import QuarrySQLite
import QuarryStore
import Testing

/// One Lua value per stored row while referenced; Swift objects released by __gc.
@Suite struct IdentityTests {
    @Test func theSameRowIsTheSameLuaValue() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string" }
            local a = Item:new{ title = "a" }
            save()
            local first = fetch("Item")[1]
            assert(rawequal(first, a), "fetch gave another value for the same row")
            assert(rawequal(Item:get(1), a))
            assert(rawequal(Item:get("Item/1"), a))
            assert(rawequal(fetch{ "Item", sort = "-title" }[1], first))
            """#)
    }

    @Test func luaReleasesSwiftObjectsWhenCollected() throws {
        let h = try Harness()
        h.run(#"entity "Item" { title = "string" }; Item:new{ title = "a" }; save(); held = Item:get(1)"#)
        weak let object = try h.context.object(entityName: "Item", primaryKey: 1)
        #expect(object != nil)
        h.run("held = nil; collectgarbage(); collectgarbage()")
        #expect(object == nil, "the object outlived every Lua reference")
    }

    @Test func unsavedObjectsKeepTheirIdentityThroughSave() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string" }
            local o = Item:new{ title = "a" }
            assert(o:objectID() == "Item/t1")
            assert(o:isInserted())
            save()
            assert(o:objectID() == "Item/1" and not o:isInserted())
            assert(rawequal(Item:first(), o))
            """#)
    }

    @Test func typeofNamesQuarrysKinds() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string" }
            local o = Item:new{ title = "a" }
            assert(typeof(o) == "object")
            assert(typeof(fetch("Item")) == "results")
            assert(typeof(Item) == "entity")
            assert(typeof(date(0)) == "date")
            assert(typeof(predicate("title == 'a'")) == "predicate")
            assert(typeof(1) == "number" and typeof(nil) == "nil" and typeof({}) == "table")
            """#)
    }
}

/// Closing a runtime releases every Swift object its Lua values held.
@Suite struct CloseTests {
    @Test func closingTheStateReleasesWhatLuaHeld() throws {
        weak var results: AnyObject?
        weak var object: ManagedObject?
        do {
            let h = try Harness()
            h.run(#"entity "Item" { n = "int64" }; Item:new{ n = 1 }; save(); kept = fetch("Item"); one = Item:get(1)"#)
            object = try h.context.object(entityName: "Item", primaryKey: 1)
            results = object // the object is held by Lua through `one` and `kept`
            #expect(object != nil)
        }
        #expect(object == nil, "lua_close ran every __gc")
        #expect(results == nil)
    }
}

/// `o:refresh()`: Core Data's refresh(_:mergeChanges: false) for one object.
@Suite struct ObjectRefreshTests {
    @Test func refreshDropsUnsavedChangesAndRereadsTheRow() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", n = "int" }
            local a, b = Item:new{ title = "a", n = 1 }, Item:new{ title = "b", n = 2 }
            save()
            a.title = "changed"; a.n = 10; b.n = 20
            assert(a:refresh() == true and a.title == "a" and a.n == 1 and not a:hasChanges())
            assert(haschanges() and b.n == 20, "other objects keep their changes")
            assert(refresh(b) == true and b.n == 2 and not haschanges())
            local fresh = Item:new{ title = "new", n = 3 }
            assert(fresh:refresh() == false and fresh.title == "new" and fresh:isInserted())
            rollback()
            assert(type(refresh()) == "boolean", "refresh() with no object still notices other processes")
            local ok, message = pcall(fetch, { "Item", batch = -1 })
            assert(not ok and message:find("batch must be 0 or more, got %-1"), message)
            """#)
        // A row deleted behind the context's back: refresh finds it gone (no delete pending
        // here, so isDeleted is false, as Core Data's; the object prints as deleted).
        h.run(#"local a = Item:first("title == 'a'"); _G.kept = a"#)
        try h.context.connection.database.write { db in try db.execute(sql: "DELETE FROM Item WHERE title = 'a'") }
        h.run(#"assert(kept:refresh() == true and not kept:isDeleted() and tostring(kept):find("(deleted)", 1, true))"#)
    }
}

/// `json` attributes hold Lua tables (the contract: "json is a Lua table").
@Suite struct JSONAttributeTests {
    @Test func tablesGoInAndComeBackOut() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { meta = "json?" }
            local o = Item:new{ meta = { name = "x", tags = { "a", "b" }, n = 2, ratio = 0.5, ok = true } }
            save()
            collectgarbage(); collectgarbage()
            local back = Item:first().meta
            assert(type(back) == "table" and back.name == "x" and back.tags[2] == "b" and #back.tags == 2)
            assert(math.type(back.n) == "integer" and back.ratio == 0.5 and back.ok == true)
            local b = bind(Item:first(), "meta")
            b.value = { 1, 2, 3 }
            assert(#b.value == 3 and b.value[3] == 3)
            Item:updateall("TRUEPREDICATE", {}, { meta = { batch = true } })
            rollback()
            assert(Item:first().meta.batch == true)
            local t = {}; t.self = t
            local ok, message = pcall(function() Item:first().meta = t end)
            assert(not ok and message:find("json: the table nests more than 200 levels") and not message:find("\n"), message)
            ok, message = pcall(function() Item:first().meta = { f = print } end)
            assert(not ok and message:find("json: a function has no JSON form"), message)
            assert(not haschanges())
            """#)
    }
}
