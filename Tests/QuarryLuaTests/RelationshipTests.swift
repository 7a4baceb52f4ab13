import QuarryLua
import Testing

/// To-one, to-many and many-to-many relationships with inverses kept in step, saved,
/// reopened, and deleted by their rules.
@Suite struct RelationshipTests {
    private func model() throws -> Harness {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", owner = { one = "Person", inverse = "items" }, tags = { many = "Tag", inverse = "items" } }
            entity "Person" { name = "string" }
            entity "Tag" { name = "string" }
            """#)
        return h
    }

    @Test func inversesFollowAtOnceInMemory() throws {
        let h = try model()
        h.run(
            #"""
            local ann, bob = Person:new{ name = "Ann" }, Person:new{ name = "Bob" }
            local a = Item:new{ title = "a", owner = ann }
            assert(#ann.items == 1 and rawequal(ann.items[1], a) and rawequal(a.owner, ann))
            a.owner = bob
            assert(#ann.items == 0 and #bob.items == 1)
            bob.items:remove(a)
            assert(a.owner == nil)
            ann.items:add(a)
            assert(rawequal(a.owner, ann))
            local red = Tag:new{ name = "red" }
            a.tags:add(red)
            assert(#red.items == 1 and red.items:contains(a) and a.tags:contains(red))
            red.items:remove(a)
            assert(#a.tags == 0)
            a.tags = { red }
            assert(#red.items == 1)
            assert(typeof(a.tags) == "set")
            """#)
    }

    @Test func relationshipsSaveAndComeBack() throws {
        let h = try model()
        h.run(
            #"""
            local ann = Person:new{ name = "Ann" }
            local red, blue = Tag:new{ name = "red" }, Tag:new{ name = "blue" }
            Item:new{ title = "a", owner = ann, tags = { red, blue } }
            Item:new{ title = "b", owner = ann, tags = { red } }
            assert(save().inserted == 5)
            """#)
        // Forget every object, then read the graph back from the store.
        h.run("collectgarbage(); collectgarbage()")
        h.run(
            #"""
            local ann = Person:first("name == 'Ann'")
            assert(#ann.items == 2, #ann.items)
            local red = Tag:first("name == 'red'")
            assert(#red.items == 2)
            local a = Item:first("title == 'a'")
            assert(a.owner.name == "Ann" and #a.tags == 2)
            a.tags:remove(red)
            save()
            assert(#Tag:first("name == 'red'").items == 1)
            """#)
    }

    @Test func prefetchReadsRelationshipsAhead() throws {
        let h = try model()
        h.run(
            #"""
            local ann, bob = Person:new{ name = "Ann" }, Person:new{ name = "Bob" }
            local red = Tag:new{ name = "red" }
            for i = 1, 30 do Item:new{ title = string.format("i%02d", i), owner = i % 2 == 0 and ann or bob, tags = { red } } end
            save()
            collectgarbage(); collectgarbage()
            local names = {}
            for _, o in ipairs(fetch{ "Item", sort = "title", prefetch = { "owner", "tags" }, batch = 8 }) do
              names[#names + 1] = o.owner.name .. #o.tags
            end
            assert(#names == 30 and names[1] == "Bob1" and names[2] == "Ann1", table.concat(names, ","))
            local ok, message = pcall(fetch, { "Item", prefetch = { "ownr" } })
            assert(not ok and message:find("prefetch: 'ownr' is not a relationship of entity Item %(did you mean 'owner'%?%)"), message)
            """#)
    }

    @Test func deleteRules() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Folder" { name = "string", notes = { many = "Note", inverse = "folder", delete = "cascade" } }
            entity "Note" { text = "string", folder = { one = "Folder", inverse = "notes" } }
            entity "Owner" { name = "string", pets = { many = "Pet", inverse = "owner", delete = "deny" } }
            entity "Pet" { name = "string", owner = { one = "Owner", inverse = "pets" } }
            local f = Folder:new{ name = "f" }
            Note:new{ text = "1", folder = f }; Note:new{ text = "2", folder = f }
            local o = Owner:new{ name = "o" }
            local p = Pet:new{ name = "p", owner = o }
            save()
            f:delete()
            assert(save().deleted == 3)
            assert(count("Note") == 0)
            """#)
        #expect(h.error("Owner:first():delete()").contains("cannot be deleted: 'pets' denies it while it holds Pet/1"))
        h.run(
            #"""
            assert(not haschanges())
            Pet:first():delete()
            Owner:first():delete()
            assert(save().deleted == 2)
            """#)
    }

    @Test func nullifyClearsTheWayBack() throws {
        let h = try model()
        h.run(
            #"""
            local ann = Person:new{ name = "Ann" }
            local a = Item:new{ title = "a", owner = ann }
            save()
            ann:delete()
            assert(a.owner == nil)
            save()
            assert(Item:first().owner == nil)
            """#)
    }

    @Test func wrongTargetsAreErrors() throws {
        let h = try model()
        h.run(#"p = Person:new{ name = "p" }; t = Tag:new{ name = "t" }; i = Item:new{ title = "i" }"#)
        #expect(h.error("i.owner = t") == "t:1: Item.owner expects Person object, got Tag object")
        #expect(h.error("i.owner = 5") == "t:1: Item.owner expects a Person object or nil, got number")
        #expect(h.error("i.tags = p").contains("takes a table of Tag objects"))
        #expect(h.error("Item:new{ title = 'x', owner = t }").contains("expects Person object"))
        #expect(h.string("count('Item')") == "1", "only i: the failed insert is not pending")
        h.run("rollback(); assert(not haschanges())")
    }
}

/// Predicates and sort keys through relationships: SQL and in-memory answers agree.
@Suite struct RelationshipPredicateTests {
    @Test func sqlAndMatchesAgreeAcrossRelationships() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", n = "int64?", owner = { one = "Person", inverse = "items" }, tags = { many = "Tag", inverse = "items" } }
            entity "Person" { name = "string?", age = "int64?", boss = { one = "Person", inverse = "reports" } }
            entity "Tag" { name = "string" }
            math.randomseed(7)
            local people, tags = {}, {}
            local names = { "Ann", "bob", "Céline", nil, "Dan" }
            for i = 1, 6 do people[i] = Person:new{ name = names[i % 5 + 1], age = (i % 3 == 0) and nil or i * 10 } end
            for i = 2, 6 do people[i].boss = people[math.random(1, i - 1)] end
            for i, t in ipairs{ "red", "green", "blue", "Red" } do tags[i] = Tag:new{ name = t } end
            for i = 1, 40 do
              local item = Item:new{ title = "item" .. i, n = (i % 7 == 0) and nil or i % 5 }
              if i % 4 ~= 0 then item.owner = people[math.random(1, #people)] end
              for _, t in ipairs(tags) do if math.random() < 0.4 then item.tags:add(t) end end
            end
            save()
            local formats = {
              "owner.name == 'Ann'", "owner.name ==[c] 'BOB'", "owner.name ==[cd] 'celine'", "owner.name == nil", "owner.age > 20",
              "owner.boss.name BEGINSWITH 'A'", "NOT owner.age < 30", "ANY tags.name == 'red'", "ANY tags.name ==[c] 'red'",
              "ALL tags.name != 'blue'", "NONE tags.name IN {'red', 'green'}", "tags.@count == 0", "tags.@count >= 2 AND n > 1",
              "owner.items.@count > 5", "owner.reports.@count >= 1", "ANY owner.reports.name == 'Dan'", "owner.items.@sum.n > 10",
              "owner.items.@avg.n < 2.5", "owner.items.@max.n == 4", "owner.items.@min.title == 'item1'", "ANY tags.name LIKE[c] 'r*'",
              "n == nil OR ALL tags.name BEGINSWITH 'g'",
              "SUBQUERY(tags, $t, $t.name BEGINSWITH 'r').@count > 0", "SUBQUERY(tags, $t, $t.name ==[c] 'red' OR $t.name == 'blue').@count == 2",
              "SUBQUERY(owner.items, $i, $i.n > 2 AND $i.title ENDSWITH '1').@count >= 1",
              -- Nested: the inner collection is the outer member's to-many, written either way.
              "SUBQUERY(owner.reports, $r, SUBQUERY($r.items, $i, $i.n > 2).@count > 0).@count > 0",
              "SUBQUERY(tags, $t, SUBQUERY($t.items, $j, $j.n == 4).@count >= 2).@count > 0",
              "SUBQUERY(tags, $t, SUBQUERY(items, $j, $j.owner.name == 'Ann').@count > 3).@count == 1",
              -- `SELF.key` is `key`, as in Apple's grammar.
              "SELF.owner.name == 'Ann'", "SELF.n > 2 AND SELF.tags.@count > 1",
            }
            for _, f in ipairs(formats) do
              local p = predicate(f)
              local inMemory = 0
              for _, o in ipairs(fetch("Item")) do if p:matches(o) then inMemory = inMemory + 1 end end
              local bySQL = count("Item", f)
              assert(inMemory == bySQL, f .. ": memory " .. inMemory .. ", SQL " .. bySQL)
            end
            local p = predicate("SUBQUERY(tags, $t, $t.name BEGINSWITH 'r').@count > 0")
            assert(tostring(p) == "SUBQUERY(tags, $t, $t.name BEGINSWITH \"r\").@count > 0", tostring(p))
            assert(not pcall(count, "Item", "SUBQUERY(title, $t, $t.name == 'x').@count > 0"))
            -- An outer member's keys inside an inner SUBQUERY are refused, not read as the inner member's.
            local ok, why = pcall(count, "Item", "SUBQUERY(tags, $t, SUBQUERY($t.items, $j, $t.name == 'red').@count > 0).@count > 0")
            assert(not ok and tostring(why):find("outer SUBQUERY", 1, true), tostring(why))
            local sorted = fetch{ "Item", predicate = "owner != nil", sort = { "owner.name", "-title" } }
            local last
            for _, o in ipairs(sorted) do
              local key = (o.owner.name or "") .. "\0" .. o.title
              if last then assert(o.owner.name == nil or last.name == nil or last.name <= o.owner.name, "sorted by owner.name") end
              last = { name = o.owner.name }
            end
            """#)
    }
}

/// updateall and deleteall: one statement each, rules applied in SQL, observers told.
@Suite struct BatchChangeTests {
    @Test func batchChangesApplyRulesAndNotify() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Folder" { name = "string", notes = { many = "Note", inverse = "folder", delete = "cascade" } }
            entity "Note" { text = "string", n = "int64", folder = { one = "Folder", inverse = "notes" } }
            entity "Owner" { name = "string", pets = { many = "Pet", inverse = "owner", delete = "deny" } }
            entity "Pet" { name = "string", owner = { one = "Owner", inverse = "pets" } }
            local f = Folder:new{ name = "f" }
            for i = 1, 10 do Note:new{ text = "n" .. i, n = i, folder = (i <= 6) and f or nil } end
            local o = Owner:new{ name = "o" }; Pet:new{ name = "p", owner = o }
            save()
            local held = Note:get(9)
            local r = fetch{ "Note", sort = "n" }
            local events = {}
            observe(r, function(ev) events[#events + 1] = #ev.updated .. "/" .. #ev.deleted end)
            assert(Note:updateall("n > %@", { 7 }, { text = "big" }) == 3)
            assert(held.text == "big" and count("Note", "text == 'big'") == 3)
            assert(Folder:deleteall("name == 'f'", {}) == 1)
            assert(count("Note") == 4 and count("Folder") == 0)
            assert(table.concat(events, ",") == "3/0,0/6", table.concat(events, ","))
            """#)
        #expect(h.error("Owner:deleteall()").contains("'pets' denies deleting Owner rows while they hold Pet/1"))
        #expect(h.string("count('Owner')") == "1")
        #expect(h.error("Note:updateall(nil, {}, { n = 'x' })") == #"t:1: Note.n expects int64, got string ("x")"#)
    }
}

/// Objects as predicate arguments: `owner == %@`, `SELF IN %@`.
@Suite struct ObjectArgumentTests {
    @Test func objectsCompareByIdentitySavedOrNot() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string", owner = { one = "Person", inverse = "items" } }
            entity "Person" { name = "string" }
            local ann, bob = Person:new{ name = "Ann" }, Person:new{ name = "Bob" }
            local a = Item:new{ title = "a", owner = ann }
            Item:new{ title = "b", owner = bob }
            Item:new{ title = "c", owner = ann }
            Item:new{ title = "d" }
            assert(count("Item", "owner == %@", ann) == 2, "unsaved, in memory")
            save()
            assert(count("Item", "owner == %@", ann) == 2)
            assert(count("Item", "owner != %@", ann) == 2, "b, and d with no owner")
            assert(count("Item", "owner IN %@", { ann, bob }) == 3)
            assert(count("Item", "SELF == %@", a) == 1 and count("Item", "SELF IN %@", { a }) == 1)
            assert(count("Person", "SELF != %@", ann) == 1)
            assert(predicate("owner == %@", ann):matches(a) and not predicate("owner == %@", bob):matches(a))
            local fresh = Person:new{ name = "Cy" }
            assert(count("Item", "owner == %@", fresh) == 0)
            a.owner = fresh
            assert(count("Item", "owner == %@", fresh) == 1, "pending link to an unsaved object")
            """#)
        #expect(h.error(#"count("Item", "owner == %@", Item:first())"#).contains("'owner' holds Person objects, not Item"))
        #expect(
            h.error(#"count("Item", "owner == 'Ann'")"#).contains(
                "'owner' is a relationship to Person: it compares with an object (%@) or nil, not a string; compare one of its attributes, such as owner.name"
            ))
    }
}
