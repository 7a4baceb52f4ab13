import GRDB
import QuarryLua
import QuarrySQLite
import QuarryStore
import Testing

/// The Lua surface of the contract, through a runtime (no process).
@Suite struct APITests {
    @Test func objectsReadWriteSaveAndRollBack() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", n = "int64", when = "date?" }
            local o = Item:new{ title = "a", n = 1 }
            assert(haschanges())
            local s = save()
            assert(s.inserted == 1 and s.updated == 0 and s.deleted == 0)
            assert(not haschanges())
            o.title = "b"
            local c = o:changes()
            assert(c.title[1] == "a" and c.title[2] == "b")
            rollback()
            assert(o.title == "a" and not haschanges())
            o.n = 2.0
            assert(math.type(o.n) == "integer" and o.n == 2)
            o.when = "2024-01-22T16:26:12Z"
            assert(tostring(o.when) == "2024-01-22T16:26:12Z")
            assert(save().updated == 1)
            o:delete()
            assert(o:isDeleted())
            assert(save().deleted == 1)
            assert(not o:isDeleted() and tostring(o):find("(deleted)", 1, true), "saved: no longer pending, as Core Data's isDeleted")
            assert(count("Item") == 0)
            """#)
    }

    /// A save that only links or unlinks objects updated both ends, as Core Data's
    /// `updatedObjects` and Quarry's observers have it; `save()` said 0.
    @Test func aSaveOfLinksOnlyCountsTheObjectsItUpdated() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Tag" { name = "string", posts = { many = "Post", inverse = "tags" } }
            entity "Post" { title = "string", tags = { many = "Tag", inverse = "posts" } }
            local t, u, p = Tag:new{ name = "a" }, Tag:new{ name = "b" }, Post:new{ title = "x" }
            assert(save().inserted == 3)
            local heard = 0
            observe("Tag", function(ch) heard = heard + #ch.updated end)
            p.tags:add(t); p.tags:add(u)
            local s = save()
            assert(s.inserted == 0 and s.updated == 3 and s.deleted == 0, s.updated)
            assert(heard == 2, heard)
            p.tags:remove(t)
            s = save()
            assert(s.updated == 2 and heard == 3, s.updated)
            """#)
    }

    /// Setting, giving or deleting a to-one changes its inverse to-many, as Core Data keeps
    /// inverses: the owners it left and joined are updated, their observers hear the
    /// to-many's key. `save()` counts the objects `.changes` lists, whose rows it writes:
    /// the member, not its owners (it said 3 where `.changes` listed 1).
    @Test func aToOnesOwnersLeftAndJoinedAreUpdated() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Author" { name = "string", posts = { many = "Post", inverse = "author" } }
            entity "Post" { title = "string", author = { one = "Author", inverse = "posts" } }
            local a, b = Author:new{ name = "a" }, Author:new{ name = "b" }
            local p = Post:new{ title = "x", author = a }
            save()
            local heard, keys = {}, {}
            observe("Author", function(ch) for _, o in ipairs(ch.updated) do heard[#heard + 1] = o.name end end)
            observe(b, { "posts" }, function(o, key) keys[#keys + 1] = key end)
            p.author = b
            local s = save()
            assert(s.updated == 1, s.updated)
            table.sort(heard)
            assert(table.concat(heard, ",") == "a,b", table.concat(heard, ","))
            assert(#keys == 1 and keys[1] == "posts")
            heard = {}
            Post:new{ title = "y", author = b }
            s = save()
            assert(s.inserted == 1 and s.updated == 0 and heard[1] == "b" and #heard == 1, s.updated)
            heard = {}
            p:delete()
            s = save()
            assert(s.deleted == 1 and s.updated == 0 and heard[1] == "b" and #heard == 1, s.updated)
            heard = {}
            p = fetch("Post")[1]
            p.title = "z"
            s = save()
            assert(s.updated == 1 and #heard == 0, s.updated)
            """#)
    }

    @Test func requiredAttributesAreCheckedAtSaveAndNothingIsWritten() throws {
        let h = try Harness()
        h.run(#"entity "Item" { title = "string", n = "int64" }; Item:new{ title = "ok", n = 1 }; save()"#)
        h.run(#"x = Item:new{ title = "missing n" }"#)
        #expect(h.error("save()") == "t:1: save: Item/t2.n is required but nil")
        // The store still holds one row; counts include the unsaved insert, as Core Data's do.
        #expect(try h.context.connection.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Item") } == 1)
        #expect(h.string("count('Item')") == "2")
        #expect(h.string("haschanges()") == "true")
        h.run("x.n = 5; save()")
        #expect(h.string("count('Item')") == "2")
    }

    @Test func fetchFiltersSortsAndPages() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", n = "int64" }
            for i = 1, 10 do Item:new{ title = "t" .. i, n = i } end
            save()
            local r = fetch("Item", "n > %@ AND NOT (n == %d)", 3, 5)
            assert(#r == 6, #r)
            local seen = {}
            for i, o in ipairs(r) do seen[#seen + 1] = o.n end
            assert(table.concat(seen, ",") == "4,6,7,8,9,10", table.concat(seen, ","))
            local s = fetch{ "Item", predicate = "n <= %@ OR title == %@", args = { 2, "t9" }, sort = { "-n" } }
            assert(#s == 3 and s[1].n == 9 and s[3].n == 1)
            local page = fetch{ "Item", sort = "n", limit = 3, offset = 4 }
            assert(#page == 3 and page[1].n == 5 and page[3].n == 7 and page[4] == nil)
            page.limit = 2
            assert(#page == 2)
            page.predicate = { "n > %@", 7 }
            assert(#page == 0)
            page.args = { 8 }
            assert(#page == 0 and page.args[1] == 8)
            page.offset = 0
            assert(#page == 2 and page[1].n == 9)
            assert(Item:count("n >= %@", 9) == 2)
            assert(Item:first("title == %@", "t3").n == 3)
            assert(Item:fetch{ sort = "-n", limit = 1 }[1].n == 10)
            """#)
    }

    @Test func badPredicatesAndRequestsGiveOneLineErrors() throws {
        let h = try Harness()
        h.run(
            #"entity "Person" { age = "int64", name = "string" }; entity "Item" { title = "string", n = "int64", owner = { one = "Person", inverse = "items" } }"#
        )
        // A relationship where a key of values goes: one of its keys is shown.
        #expect(
            h.error(#"fetch{ "Item", sort = "owner" }"#)
                == "t:1: sort: 'owner' is a relationship of entity Item, not a key of values; name one of its keys, as owner.name")
        #expect(h.error(#"fetch{ "Item", section = "owner" }"#).hasPrefix("t:1: section: 'owner' is a relationship of entity Item"))
        // A to-many has no key to show: none has one value per object.
        #expect(
            h.error(#"fetch{ "Person", sort = "items" }"#)
                == "t:1: sort: 'items' is a to-many relationship of entity Person: sort takes one value per object")
        #expect(
            h.error(#"fetch("Item", "titel == 'a'")"#)
                == "t:1: predicate: unknown key path 'titel' on entity Item (did you mean 'title'?) at column 1")
        #expect(h.error(#"fetch("Item", "n > ")"#) == "t:1: predicate: expected a key path or a value, found the end of the predicate at column 5")
        #expect(h.error(#"fetch("Item", "%K == 1", "title; DROP TABLE Item")"#).contains("unknown key path 'title; DROP TABLE Item' on entity Item"))
        #expect(h.error(#"fetch("Item", "n > %@", "abc")"#) == #"t:1: predicate: 'n' is int64 and cannot be compared with string "abc" at column 5"#)
        #expect(h.error(#"fetch("Itme")"#) == "t:1: unknown entity 'Itme' (did you mean 'Item'?)")
        #expect(h.error(#"fetch{ "Item", sort = "nn" }"#) == "t:1: sort: unknown key 'nn' on entity Item (did you mean 'n'?)")
        #expect(h.error(#"fetch{ "Item", limt = 3 }"#) == "t:1: fetch: unknown option 'limt' (did you mean 'limit'?)")
        // As close to `args` as to `vars`: the first of the options as they are listed, in every run.
        #expect(h.error(#"fetch{ "Item", vargs = {} }"#) == "t:1: fetch: unknown option 'vargs' (did you mean 'args'?)")
    }

    @Test func entityDefinitionsAreCheckedAndBoundAsGlobals() throws {
        let h = try Harness()
        #expect(h.error(#"entity "Item" { title = "strin" }"#).contains("unknown type 'strin' for 'title' (did you mean 'string'?)"))
        // Types as SQL and Core Data name them get the name that is read here.
        #expect(h.error(#"entity "Item" { n = "integer" }"#).contains("unknown type 'integer' for 'n' (did you mean 'int64'?)"))
        #expect(h.error(#"entity "Item" { on = "Boolean" }"#).contains("(did you mean 'bool'?)"))
        h.run(#"local E = entity("Thing", { n = { "int16", default = 7, indexed = true } }); assert(E == Thing)"#)
        h.run(#"local t = Thing:new{}; assert(t.n == 7); save()"#)
        #expect(h.error("Thing:new{ n = 40000 }") == "t:1: Thing.n expects int16, got integer (40000)")
        h.run("Other = 1; entity \"Other\" { x = \"string?\" }; assert(Other == 1); assert(#entities() == 2)")
        #expect(h.error("Thing.new{}").contains("calling 'new' on bad self"))
    }

    @Test func everyFunctionIsAlsoInTheQuarryTable() throws {
        let h = try Harness()
        h.run(
            #"""
            for _, name in ipairs{ "entity", "entities", "fetch", "count", "save", "rollback", "haschanges",
                                    "date", "now", "typeof", "predicate", "delete", "objectID", "changes" } do
              assert(type(quarry[name]) == "function", name)
            end
            entity "Item" { title = "string" }
            local o = Item:new{ title = "x" }
            assert(quarry.objectID(o) == "Item/t1")
            """#)
    }

    @Test func datesCompareSubtractAndPrint() throws {
        let h = try Harness()
        h.run(
            #"""
            local a, b = date("2024-01-22T16:26:12Z"), date(1705940772 + 60)
            assert(a < b and a <= b and not (b < a))
            assert(b - a == 60)
            assert(a + 60 == b)
            assert(tostring(a) == "2024-01-22T16:26:12Z")
            assert(date(tostring(a)) == a)
            """#)
        #expect(h.error(#"date("yesterday")"#).contains("'yesterday' is not an ISO 8601 date"))
    }

    @Test func predicatesMatchInMemoryAsSQLiteDoes() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string?", n = "int64?" }
            for _, v in ipairs{ {"a", 1}, {"B", 2}, {nil, 3}, {"café", nil} } do Item:new{ title = v[1], n = v[2] } end
            save()
            for _, f in ipairs{ "n > 1", "NOT (n > 1)", "title == nil", "title != 'a'", "title ==[cd] 'CAFE'",
                                "n >= 2 OR title == 'a'", "TRUEPREDICATE", "FALSEPREDICATE" } do
              local p = predicate(f)
              local inMemory = 0
              for _, o in ipairs(fetch("Item")) do if p:matches(o) then inMemory = inMemory + 1 end end
              assert(inMemory == count("Item", f), f .. ": memory " .. inMemory .. ", SQL " .. count("Item", f))
            end
            assert(tostring(predicate("a = 1 and (b < 2 or not c > 3)")) == "a == 1 AND (b < 2 OR NOT c > 3)")
            """#)
    }
}
