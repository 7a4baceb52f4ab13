import QuarryLua
import QuarryStore
import Testing

/// A script's loop over results that changes, deletes and inserts objects as it walks
/// them: the walk starts on rows (nothing pending) and goes on over objects merged with
/// the changes; what it visits, and the results after it, must be what saving gives.
@Suite struct PendingLoopTests {
    @Test func aLoopChangingWhatItWalksSeesWhatSavingGives() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { n = "int64", tag = "string?" }
            for i = 1, 500 do Item:new{ n = i % 17, tag = (i % 3 == 0) and "a" or nil } end
            save()
            function describe(r)
              local t = {}
              for _, o in ipairs(r) do t[#t + 1] = tostring(o.n) .. "/" .. tostring(o.tag) end
              return #r .. ":" .. table.concat(t, ",")
            end
            local walked, i = 0, 0
            local r = fetch{ "Item", predicate = "n != 5", sort = { "tag", "-n" } }
            for _, o in ipairs(r) do
              i = i + 1
              walked = walked + 1
              if i % 7 == 0 then o:delete()
              elseif i % 13 == 0 then Item:new{ n = i % 11, tag = "b" }
              elseif i % 2 == 0 then o.n = (o.n * 3) % 17 end
            end
            walkedCount = walked
            function sections(s)
              local t = {}
              for k = 1, #s do t[#t + 1] = s[k].name .. "=" .. #s[k] end
              return table.concat(t, ",")
            end
            pending = describe(r) .. "|" .. describe(fetch{ "Item", sort = { "n" }, limit = 40, offset = 30 })
              .. "|" .. sections(fetch{ "Item", section = "tag", sort = { "n" } })
            pendingCount = count("Item", "n != 5")
            save()
            saved = describe(r) .. "|" .. describe(fetch{ "Item", sort = { "n" }, limit = 40, offset = 30 })
              .. "|" .. sections(fetch{ "Item", section = "tag", sort = { "n" } })
            savedCount = count("Item", "n != 5")
            """#)
        #expect(h.string("pending") == h.string("saved"))
        #expect(h.string("pendingCount") == h.string("savedCount"))
        #expect((Int(h.string("walkedCount") ?? "") ?? 0) > 300)
    }
}
