import Testing

/// `deleteall` runs as SQL without loading objects, yet an entity's observers hear every
/// row it deleted: held objects as they are, the others by their IDs (deleted objects).
struct BatchDeleteObserverTests {
    @Test func entityObserversHearEveryRowABatchDeleteRemoved() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Owner" { name = "string", pets = { many = "Pet", inverse = "owner", delete = "cascade" } }
            entity "Pet" { name = "string", owner = { one = "Owner", inverse = "pets" } }
            local a = Owner:new{ name = "a" }
            for i = 1, 3 do Pet:new{ name = "p" .. i, owner = a } end
            Owner:new{ name = "b" }
            save()
            local held = Pet:first("name == %@", "p2")
            local heard = {}
            observe("Pet", function(ch)
              for _, o in ipairs(ch.deleted) do heard[#heard + 1] = o:objectID() .. (tostring(o):find("(deleted)", 1, true) and " deleted" or "") end
            end)
            local owners = {}
            observe("Owner", function(ch) for _, o in ipairs(ch.deleted) do owners[#owners + 1] = o:objectID() end end)
            assert(Owner:deleteall("name == %@", { "a" }) == 1)
            table.sort(heard)
            assert(table.concat(heard, ",") == "Pet/1 deleted,Pet/2 deleted,Pet/3 deleted", table.concat(heard, ","))
            assert(table.concat(owners, ",") == "Owner/1", table.concat(owners, ","))
            assert(tostring(held):find("(deleted)", 1, true) and not held:isDeleted() and count("Pet") == 0 and count("Owner") == 1)
            """#)
    }
}
