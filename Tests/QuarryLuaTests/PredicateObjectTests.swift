import Testing

/// lua-api.md, "Fetch requests and results": wherever a format string is taken, a
/// predicate object from `predicate(...)` is taken too.
@Suite struct PredicateObjectTests {
    @Test func aPredicateObjectStandsWhereverAFormatStringDoes() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", qty = "int", price = "double" }
            for i = 1, 6 do Item:new{ title = "t" .. i, qty = i, price = i % 2 } end
            save()
            local p = predicate("qty > %@", 3)
            local function titles(r) local t = {} for _, o in ipairs(r) do t[#t + 1] = o.title end return table.concat(t, ",") end
            assert(titles(fetch{ "Item", predicate = p, sort = "qty" }) == "t4,t5,t6", "fetch{ predicate = p }")
            assert(titles(Item:fetch(p)) == titles(fetch("Item", p)), "Item:fetch(p)")
            assert(#fetch("Item", p) == 3)
            assert(count("Item", p) == 3, "count")
            assert(Item:first(p) ~= nil and Item:first(p).qty > 3, "first")
            local r = fetch{ "Item", sort = "qty" }
            r.predicate = predicate("qty <= 2")
            assert(titles(r) == "t1,t2", "r.predicate = p: " .. titles(r))
            assert(typeof(r.predicate) == "predicate")
            r.predicate = { "qty == %@", 4 }
            r.args = { 5 }
            assert(titles(r) == "t5", "a format again after an object")
            local rows = fetch{ "Item", properties = { "price", "count(*)" }, group = { "price" }, having = predicate("count > 2") }
            assert(#rows == 2, "having = p: " .. #rows)
            assert(Item:updateall(predicate("qty == 1"), { title = "one" }) == 1, "updateall")
            assert(count("Item", "title == 'one'") == 1)
            assert(Item:deleteall(predicate("qty >= %@", 5)) == 2, "deleteall")
            assert(count("Item") == 4)
            """#)
        #expect(h.error(#"fetch("Item", predicate("qty > 1"), 3)"#).contains("holds its arguments"))
        #expect(h.error(#"fetch{ "Item", predicate = predicate("qty > %@", 1), args = { 2 } }"#).contains("holds its arguments"))
        #expect(h.error(#"local r = fetch{ "Item", predicate = predicate("qty > 1") } r.args = { 1 }"#).contains("assign r.predicate"))
        #expect(h.error(#"fetch{ "Item", predicate = 3 }"#).contains("predicate(...) object"))
    }

    /// lua-api.md: `null` (also `quarry.null`) stands for nil in `args` and `vars`.
    @Test func nullIsNilInArgumentsAndVariables() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string?", qty = "int" }
            Item:new{ title = "a", qty = 1 }; Item:new{ qty = 2 }; Item:new{ title = "c", qty = 3 }
            save()
            assert(rawequal(null, quarry.null) and tostring(null) == "null")
            assert(count("Item", "title == %@", nil) == 1, "nil vararg")
            assert(count{ "Item", predicate = "title == %@ OR qty == %@", args = { null, 3 } } == 2, "null in args")
            assert(count{ "Item", predicate = "title != $T", vars = { T = null } } == 2, "null in vars")
            assert(count{ "Item", predicate = "title IN %@", args = { { "a", null } } } == 1, "null in a list")
            """#)
    }
}
