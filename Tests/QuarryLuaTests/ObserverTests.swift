import QuarryLua
import Testing

/// Observers: applying each event to a copy of the old contents, in the contract's
/// order, gives exactly the new contents, through random changes.
@Suite struct ObserverTests {
    /// A Lua harness that checks events against fetches after every random step.
    private static let property = #"""
        local function ids(r, sectioned)
          local out = {}
          if sectioned then
            for s, sec in ipairs(r) do
              local rows = {}
              for j, o in ipairs(sec) do rows[j] = o:objectID() end
              out[s] = { id = sec.id, rows = rows }
            end
          else
            for i, o in ipairs(r) do out[i] = o:objectID() end
          end
          return out
        end

        \#(ObserverEventLua.applyAndCompare)

        function check(request, steps, seed)
          math.randomseed(seed)
          local sectioned = request.section ~= nil
          local r = fetch(request)
          local copy = ids(r, sectioned)
          local events = 0
          observe(r, function(ev)
            events = events + 1
            local seen = {}
            for _, k in ipairs{ "deleted", "inserted", "moved", "updated" } do
              for _, e in ipairs(ev[k]) do
                local id = e.object:objectID()
                assert(not seen[id], id .. " appears twice in one event")
                seen[id] = true
              end
            end
            copy = apply(copy, ev, sectioned)
          end)
          for step = 1, steps do
            local all = fetch("Item"):totable()
            for _ = 1, math.random(1, 4) do
              local choice = math.random()
              if choice < 0.3 or #all == 0 then
                Item:new{ title = "t" .. math.random(1, 50), n = math.random(0, 6), g = math.random(0, 3) }
              elseif choice < 0.5 then
                local o = all[math.random(#all)]
                if not o:isDeleted() then o:delete() end
              else
                local o = all[math.random(#all)]
                if not o:isDeleted() then
                  if math.random() < 0.5 then o.n = math.random(0, 6) else o.g = math.random(0, 3) end
                  if math.random() < 0.3 then o.title = "t" .. math.random(1, 50) end
                end
              end
            end
            save()
            assert(same(copy, ids(r, sectioned), sectioned), "step " .. step .. ": the events did not lead to the new contents")
          end
          assert(events > 0)
        end
        """#

    private func harness() throws -> Harness {
        let h = try Harness()
        h.run(
            #"entity "Item" { title = "string", n = "int64", g = "int64" }; for i = 1, 20 do Item:new{ title = "t" .. i, n = i % 7, g = i % 4 } end; save()"#
        )
        h.run(Self.property)
        return h
    }

    @Test(arguments: [
        #"{ "Item", predicate = "n > 2", sort = { "n", "-title" } }"#,
        #"{ "Item", sort = { "-n" }, limit = 7, offset = 2 }"#,
        #"{ "Item", predicate = "g != 1", sort = { "title" } }"#
    ])
    func flatEventsReplayToTheNewContents(_ request: String) throws {
        let h = try harness()
        h.run("check(\(request), 150, 11)")
    }

    @Test(arguments: [
        #"{ "Item", section = "g", sort = { "g", "n" } }"#,
        #"{ "Item", section = "n", sort = { "-n", "title" }, predicate = "g > 0" }"#,
        #"{ "Item", section = "g", sort = { "g", "-n" }, limit = 9, offset = 3 }"#
    ])
    func sectionedEventsReplayToTheNewContents(_ request: String) throws {
        let h = try harness()
        h.run("check(\(request), 150, 23)")
    }

    @Test func objectEntityAndReconfigurationEvents() throws {
        let h = try harness()
        h.run(
            #"""
            local heard = {}
            local o = Item:get(1)
            local ns = namespace()
            observe(o, { "n" }, function(obj, key, old, new) heard[#heard + 1] = key .. ":" .. tostring(old) .. "->" .. tostring(new) end, { namespace = ns })
            observe("Item", function(ch) heard[#heard + 1] = "entity:" .. #ch.inserted .. "/" .. #ch.updated .. "/" .. #ch.deleted end, { namespace = ns })
            o.n = 42; o.title = "x"
            save()
            assert(heard[1] == "n:1->42" and heard[2] == "entity:0/1/0", table.concat(heard, ","))
            ns:cancel()
            o.n = 43; save()
            assert(#heard == 2)
            local r = fetch{ "Item", predicate = "n == 3", sort = "title" }
            local events = 0
            local h = observe(r, function(ev) events = events + 1; assert(#ev.inserted > 0 or #ev.deleted > 0) end)
            r.predicate = "n == 4"
            assert(events == 1)
            h:cancel()
            r.predicate = "n == 5"
            assert(events == 1)
            """#)
    }

    /// An object observer hears a relationship as `o:changes()` gives it: a to-one's
    /// object and a to-many's members, before and after, on a save and on a rollback (it
    /// heard a to-one's stored key and nil, and nil and nil for a to-many).
    @Test func objectObserversHearRelationshipsAsObjects() throws {
        let h = try harness()
        h.run(
            #"""
            entity "P" { name = "string" }
            entity "R" { x = "int64?", p = { one = "P", inverse = "rs" } }
            entity "T" { label = "string", ps = { many = "P", inverse = "ts" } }
            local p1, p2 = P:new{ name = "a" }, P:new{ name = "b" }
            local r, t = R:new{ x = 1, p = p1 }, T:new{ label = "t" }
            save()
            local function show(v)
              if type(v) == "userdata" then return v:objectID() end
              if type(v) ~= "table" then return tostring(v) end
              local ids = {}
              for _, m in ipairs(v) do ids[#ids + 1] = m:objectID() end
              return "{" .. table.concat(ids, ",") .. "}"
            end
            local heard = {}
            local function hear(name) return function(o, key, old, new) heard[#heard + 1] = name .. "." .. key .. ":" .. show(old) .. "->" .. show(new) end end
            observe(r, { "p", "x" }, hear("r"))
            observe(p1, hear("p1"))
            observe(t, hear("t"))
            r.p = p2; r.x = 2; t.ps:add(p1)
            save()
            local want = { "r.p:P/1->P/2", "r.x:1->2", "p1.rs:{R/1}->{}", "p1.ts:{}->{T/1}", "t.ps:{}->{P/1}" }
            assert(table.concat(heard, " ") == table.concat(want, " "), table.concat(heard, " "))
            heard = {}
            r.p = p1
            rollback()
            assert(table.concat(heard, " ") == "r.p:P/1->P/2", table.concat(heard, " "))
            """#)
    }

    @Test func onlyRealMovesAreReported() throws {
        let h = try harness()
        h.run(
            #"""
            local r = fetch{ "Item", sort = { "title" } }
            local last
            observe(r, function(ev) last = ev end)
            r[1]:delete(); save()
            assert(#last.deleted == 1 and #last.moved == 0 and #last.inserted == 0)
            local o = r[3]
            o.title = "zzz"; save()
            assert(#last.moved == 1 and rawequal(last.moved[1].object, o) and last.moved[1].from == 3 and last.moved[1].to == #r)
            assert(#last.updated == 0 and #last.deleted == 0)
            -- A move its own change caused says what changed (the contract's `keys`).
            assert(last.moved[1].keys and #last.moved[1].keys == 1 and last.moved[1].keys[1] == "title", "moved keys")
            r[2].n = 99; save()
            assert(#last.updated == 1 and last.updated[1].index == 2 and #last.moved == 0)
            local p = r[1]
            p.title, p.n = "zzzz", 7; save()
            assert(#last.moved == 1 and table.concat(last.moved[1].keys, ",") == "n,title", "moved keys: n and title")
            """#)
    }

    @Test func bindingsAndStatesDriveRequests() throws {
        let h = try harness()
        h.run(
            #"""
            local o = Item:get(2)
            local b = bind(o, "title")
            assert(typeof(b) == "binding" and b.value == o.title)
            local heard = {}
            b:observe(function(new, old) heard[#heard + 1] = old .. "->" .. new end)
            b.value = "renamed"
            assert(o.title == "renamed" and #heard == 0, "heard before save")
            save()
            assert(heard[1] == "t2->renamed", heard[1])
            local q = state(2)
            assert(typeof(q) == "state" and q.value == 2)
            local r = fetch("Item", "n == %@", 2)
            local before = #r
            local events = 0
            observe(r, function() events = events + 1 end)
            q:observe(function(v, old) assert(old == 2 and v == 3); r.args = { v } end)
            q.value = 3
            assert(events == 1 and #r == count("Item", "n == 3") and #r ~= 0)
            """#)
    }

    @Test func aFailingCallbackDoesNotStopTheSaveOrOthers() throws {
        let h = try harness()
        h.run(
            #"""
            local r = fetch("Item")
            local second = 0
            observe(r, function() error("first fails") end)
            observe(r, function() second = second + 1 end)
            Item:new{ title = "new", n = 1, g = 1 }
            assert(save().inserted == 1)
            assert(second == 1)
            """#)
    }

    @Test func aCallbackThatSavesIsHeardAfterwardsNotReentrantly() throws {
        let h = try harness()
        h.run(
            #"""
            local order = {}
            local depth = 0
            observe("Item", function(ch)
              depth = depth + 1
              assert(depth == 1, "reentrant delivery")
              order[#order + 1] = #ch.inserted
              if #order == 1 then Item:new{ title = "from callback", n = 0, g = 0 }; save() end
              depth = depth - 1
            end)
            Item:new{ title = "a", n = 0, g = 0 }; Item:new{ title = "b", n = 0, g = 0 }
            save()
            assert(#order == 2 and order[1] == 2 and order[2] == 1, table.concat(order, ","))
            """#)
    }
}

/// A results event hands out the objects of its own entity: a key names rows of several
/// entities, and a link change made the event carry a Tag for Book/1 (found by review).
@Suite struct ResultsEventObjectTests {
    @Test func anEventsObjectIsOfTheResultsEntity() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Tag" { name = "string", books = { many = "Book", inverse = "tags" } }
            entity "Book" { title = "string", tags = { many = "Tag", inverse = "books" } }
            local t = Tag:new{ name = "t" }; local b = Book:new{ title = "b" }; b.tags:add(t); save()
            r = fetch{ "Book", sort = { "title" } }; seen = {}
            observe(r, function(ev) for _, u in ipairs(ev.updated) do seen[#seen + 1] = u.object:objectID() end end)
            r[1].tags:remove(t); save()
            """#)
        #expect(h.string(#"table.concat(seen, ",")"#) == "Book/1")
    }
}
