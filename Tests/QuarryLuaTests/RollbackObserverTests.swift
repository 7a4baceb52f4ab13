import QuarryLua
import Testing

/// Issue 32: `rollback()` tells observers what went back. Results that were read with
/// the unsaved changes in them hear the difference, which applied to what they last
/// heard gives what they hold after the rollback; object, binding and entity observers
/// hear the values that went back; an observer never told of the changes hears nothing.
@Suite struct RollbackObserverTests {
    /// Contents as observers know them: saved objects only (an unsaved one has no key,
    /// and results' events leave it out), by section when sectioned.
    private static let property = #"""
        local function ids(r, sectioned)
          local out = {}
          local function saved(o) return not o:objectID():find("/t", 1, true) end
          if sectioned then
            for s, sec in ipairs(r) do
              local rows = {}
              for _, o in ipairs(sec) do if saved(o) then rows[#rows + 1] = o:objectID() end end
              out[s] = { id = sec.id, rows = rows }
            end
          else
            for _, o in ipairs(r) do if saved(o) then out[#out + 1] = o:objectID() end end
          end
          return out
        end

        \#(ObserverEventLua.applyAndCompare)

        local function change()
          local all = fetch("Item"):totable()
          for _ = 1, math.random(1, 5) do
            local choice = math.random()
            if choice < 0.25 or #all == 0 then
              Item:new{ title = "t" .. math.random(1, 50), n = math.random(0, 6), g = math.random(0, 3) }
            elseif choice < 0.45 then
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
        end

        -- Each step: unsaved changes, then results observed (or reconfigured) while they
        -- hold them, then rollback(); the events must lead from what the observer last heard
        -- to what the results hold, which is the saved contents again.
        function check(request, steps, seed)
          math.randomseed(seed)
          local sectioned = request.section ~= nil
          local events = 0
          for step = 1, steps do
            local saved = ids(fetch(request), sectioned)
            change()
            local r = fetch(request)
            local copy = ids(r, sectioned)
            local heard = 0
            local h = observe(r, function(ev)
              heard = heard + 1
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
            if step % 2 == 0 then
              -- Told of the changes by a reconfiguration instead.
              r.predicate = request.predicate
              change()
              r.predicate = request.predicate
            end
            local before = heard
            rollback()
            assert(heard <= before + 1, "more than one event for one rollback")
            events = events + heard - before
            assert(same(copy, ids(r, sectioned), sectioned), "step " .. step .. ": the events did not lead to the new contents")
            assert(same(saved, ids(r, sectioned), sectioned), "step " .. step .. ": the rollback did not give the saved contents")
            h:cancel()
            if step % 5 == 0 then change(); save() end
          end
          assert(events > 0, "no rollback event at all")
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
        #"{ "Item", predicate = "n >= 0", sort = { "-n" }, limit = 7, offset = 2 }"#,
        #"{ "Item", predicate = "g != 1", sort = { "title" } }"#
    ])
    func flatRollbackEventsReplayToTheNewContents(_ request: String) throws {
        let h = try harness()
        h.run("check(\(request), 60, 5)")
    }

    @Test(arguments: [
        #"{ "Item", predicate = "n >= 0", section = "g", sort = { "g", "n" } }"#,
        #"{ "Item", section = "n", sort = { "-n", "title" }, predicate = "g > 0" }"#,
        #"{ "Item", predicate = "n >= 0", section = "g", sort = { "g", "-n" }, limit = 9, offset = 3 }"#
    ])
    func sectionedRollbackEventsReplayToTheNewContents(_ request: String) throws {
        let h = try harness()
        h.run("check(\(request), 60, 17)")
    }

    /// Results observed before the unsaved changes were never told of them: the rollback
    /// brings back what they last heard, and they hear nothing.
    @Test func resultsNeverToldOfTheChangesHearNothing() throws {
        let h = try harness()
        h.run(
            #"""
            local r = fetch{ "Item", sort = "n" }
            local events = 0
            observe(r, function() events = events + 1 end)
            Item:new{ title = "new", n = 0, g = 0 }; Item:get(3).n = 99; Item:get(4):delete()
            rollback()
            assert(events == 0, events)
            """#)
    }

    /// Object, binding and entity observers hear the values that went back, in the order
    /// they were registered (an object observer once per key); a value set back to its
    /// stored one, or a rollback with nothing pending, is not heard.
    @Test func objectBindingAndEntityObserversHearValuesGoBack() throws {
        let h = try harness()
        h.run(
            #"""
            local heard = {}
            local o = Item:get(1)
            observe(o, { "n" }, function(obj, key, old, new) assert(rawequal(obj, o)); heard[#heard + 1] = "n:" .. key .. ":" .. tostring(old) .. "->" .. tostring(new) end)
            observe(o, function(obj, key, old, new) heard[#heard + 1] = "all:" .. key .. ":" .. tostring(old) .. "->" .. tostring(new) end)
            bind(o, "title"):observe(function(new, old) heard[#heard + 1] = "bind:" .. tostring(old) .. "->" .. tostring(new) end)
            observe("Item", function(ch)
              heard[#heard + 1] = "entity:" .. #ch.inserted .. "/" .. #ch.updated .. "/" .. #ch.deleted
              assert(rawequal(ch.updated[1], o))
            end)
            o.n = 42; o.title = "x"; o.g = o.g
            Item:new{ title = "gone", n = 0, g = 0 }
            Item:get(2):delete()
            rollback()
            local expected = { "n:n:42->1", "all:n:42->1", "all:title:x->t1", "bind:x->t1", "entity:0/1/0" }
            assert(#heard == #expected, table.concat(heard, ","))
            for i, line in ipairs(expected) do assert(heard[i] == line, table.concat(heard, ",")) end
            assert(o.n == 1 and o.title == "t1")
            rollback()
            assert(#heard == #expected, "an empty rollback was heard")
            """#)
    }

    /// An observer that fails on a rollback is noticed and counted (the shell makes a
    /// batch run's status 1 from the count); the other observers still hear it.
    @Test func aFailingRollbackObserverIsCounted() throws {
        let h = try harness()
        #expect(h.runtime.observerFailures == 0)
        h.run(
            #"""
            local o = Item:get(1)
            local heard = 0
            observe(o, function() error("boom") end)
            observe(o, function() heard = heard + 1 end)
            o.n = 50
            rollback()
            assert(heard == 1 and o.n == 1)
            """#)
        #expect(h.runtime.observerFailures == 1)
    }
}
