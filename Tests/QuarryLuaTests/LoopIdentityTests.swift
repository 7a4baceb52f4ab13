import CLua
import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A loop in key order records its rows in chunks of array slots rather than by key
/// (see QUARRY_CHUNK_BITS), and `ipairs` steps through results' cached objects in C:
/// neither may change what a script sees. Identity holds across chunks, across the two
/// kinds of record, and for rows written, deleted or made objects in the loop.
@Suite struct LoopIdentityTests {
    /// A file with one table whose keys are `keys`, made by SQLite.
    private func file(keys: ClosedRange<Int64>) throws -> (Harness, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let path = folder.path("keys.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)")
            for key in keys { try db.execute(sql: "INSERT INTO t (id, n) VALUES (?, ?)", arguments: [key, key &* 10]) }
        }
        try queue.close()
        return (try Harness(context: try StoreOpener.open(path)), folder)
    }

    /// Rows kept from a walk in key order over several chunks (512 keys each) are the
    /// values every other way of reaching them gives, after the rest were collected: a
    /// sorted fetch (recorded by key), get(), a second walk, and once one is made.
    @Test func rowsKeptFromAWalkKeepTheirIdentity() throws {
        let (h, folder) = try file(keys: 1...5000)
        defer { withExtendedLifetime(folder) {} }
        h.run(
            #"""
            local wanted = { [1] = true, [2047] = true, [2048] = true, [2049] = true, [4096] = true, [4100] = true, [5000] = true }
            kept = {}
            for i, o in ipairs(fetch("t")) do
              assert(o.n == i * 10, i)
              if wanted[o.id] then kept[o.id] = o end
            end
            collectgarbage(); collectgarbage()
            local sorted = fetch{ "t", sort = { "-n" } }
            for key, o in pairs(kept) do
              assert(rawequal(sorted[5001 - key], o), "sorted " .. key)
              assert(rawequal(t:get(key), o), "get " .. key)
            end
            local seen = 0
            for _, o in ipairs(fetch("t")) do
              if kept[o.id] then seen = seen + 1; assert(rawequal(kept[o.id], o), "second walk " .. o.id) end
            end
            assert(seen == 7, seen)
            kept[2048].n = 1                       -- made into its object: still the same value
            for _, o in ipairs(fetch{ "t", predicate = "id >= 2040 AND id <= 2050" }) do
              if o.id == 2048 then assert(rawequal(o, kept[2048]) and o.n == 1) end
            end
            rollback()
            """#)
    }

    /// Keys below zero and around the ends of the integers fall in their own chunks.
    @Test func keysOfAnySignKeepTheirIdentity() throws {
        let (h, folder) = try file(keys: -2100...(-2040))
        defer { withExtendedLifetime(folder) {} }
        h.run(
            #"""
            kept = {}
            local n = 0
            for _, o in ipairs(fetch("t")) do n = n + 1; kept[o.id] = o end
            assert(n == 61, n)
            collectgarbage(); collectgarbage()
            for _, o in ipairs(fetch{ "t", sort = { "-id" } }) do assert(rawequal(kept[o.id], o), o.id) end
            for key = -2100, -2040 do assert(rawequal(t:get(key), kept[key]), key) end
            """#)
        let (big, bigFolder) = try file(keys: (Int64.max - 5)...Int64.max)
        defer { withExtendedLifetime(bigFolder) {} }
        big.run(
            #"""
            kept = {}
            for _, o in ipairs(fetch("t")) do kept[#kept + 1] = o end
            assert(#kept == 6)
            collectgarbage()
            for i, o in ipairs(fetch{ "t", sort = { "-id" } }) do assert(rawequal(kept[7 - i], o), i) end
            assert(kept[6].id == math.maxinteger)
            """#)
    }

    /// Objects written in a loop are saved; a row deleted in the middle of the loop is
    /// never handed out after, and the loop goes on over the rows that remain.
    @Test func writesAndDeletesInALoop() throws {
        let (h, folder) = try file(keys: 1...3000)
        defer { withExtendedLifetime(folder) {} }
        h.run(
            #"""
            for _, o in ipairs(fetch("t")) do
              if o.id % 100 == 0 then o.n = -o.n end
            end
            local r = save()
            assert(r.updated == 30, r.updated)
            assert(count("t", "n < 0") == 30)
            local seen, after = 0, false
            for i, o in ipairs(fetch("t")) do
              seen = seen + 1
              assert(o.id ~= 2500 or not after, "a deleted row came back")
              if i == 10 then t:get(2500):delete(); save(); after = true end
              assert(not o:isDeleted(), o.id)
            end
            assert(seen == 2999, seen)
            assert(t:get(2500) == nil)
            """#)
    }

    /// ipairs is the standard one for every other value: tables, __index, holes, errors.
    @Test func ipairsStaysStandard() throws {
        let h = try Harness()
        h.run(
            #"""
            local out = {}
            for i, v in ipairs({ "a", "b", nil, "d" }) do out[#out + 1] = i .. v end
            assert(table.concat(out, ",") == "1a,2b")
            local proxy = setmetatable({}, { __index = function(_, i) if i <= 3 then return i * 2 end end })
            local sum = 0
            for _, v in ipairs(proxy) do sum = sum + v end
            assert(sum == 12)
            local ok, message = pcall(ipairs)
            assert(not ok and message:find("bad argument #1 to 'ipairs'"), message)
            local f, s, i = ipairs({ 5 })
            assert(s[1] == 5 and i == 0 and select(2, f(s, i)) == 5)
            entity "E" { n = "int64" }
            for k = 1, 30 do E:new{ n = k } end
            save()
            local r = fetch{ "E", batch = 4 }
            local values = {}
            for j, o in ipairs(r) do values[j] = o.n end
            assert(#values == 30 and values[30] == 30)
            -- The step function called by hand, with results, and with another value.
            local step = ipairs(r)
            local j, o = step(r, 11)
            assert(j == 12 and o.n == 12)
            assert(step(r, 30) == nil)
            assert(select(2, step({ 7 }, 0)) == 7)
            local okStep = pcall(step, r, "x")
            assert(not okStep)
            """#)
    }
}
