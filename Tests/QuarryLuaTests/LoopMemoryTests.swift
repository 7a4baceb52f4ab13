import CLua
import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A loop over every row keeps a batch or two in memory, whichever form it takes, and
/// what Quarry builds for Lua in one call counts against `--memory`.
@Suite struct LoopMemoryTests {
    /// Objects of `t` the context has registered and still alive.
    private func registered(_ h: Harness) -> Int {
        h.context.registrations(of: "t")?.values.filter { $0.object != nil }.count ?? 0
    }

    /// A file with one table of `rows` rows (keys 1...rows, no gaps), made by SQLite.
    private func bigFile(rows: Int, memoryLimit: Int = 0) throws -> (Harness, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let path = folder.path("big.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, s TEXT);
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(rows))
                    INSERT INTO t (n, s) SELECT x % 7, 'row ' || x FROM c;
                    """)
        }
        try queue.close()
        let context = try StoreOpener.open(path)
        let h = try Harness(context: context, memoryLimit: memoryLimit)
        return (h, folder)
    }

    /// The largest Lua heap seen during each form of loop over 100,000 rows, less the
    /// heap before it, stays under a few batches' worth; afterwards, with the results
    /// still referenced, only a bounded number of objects is registered in the context.
    @Test func loopsOverEveryRowStayFlat() throws {
        let (h, folder) = try bigFile(rows: 100_000)
        defer { withExtendedLifetime(folder) {} }
        let loops = [
            "for _, o in ipairs(r) do visit(o) end",
            "for o in r:objects() do visit(o) end",
            "for i = 1, #r do visit(r[i]) end",
            "local f = r:first(); for o in r:objects() do visit(o); local _ = o:objectID() end"
        ]
        for (form, loop) in loops.enumerated() {
            h.run(
                """
                collectgarbage(); collectgarbage()
                base, peak, seen, sum = collectgarbage("count"), 0, 0, 0
                function visit(o)
                  seen = seen + 1; sum = sum + o.n
                  if seen % 1000 == 0 then peak = math.max(peak, collectgarbage("count") - base) end
                end
                r = fetch("t")
                \(loop)
                """)
            #expect(h.string("seen") == "100000", "form \(form)")
            #expect(h.string("sum") == "\((1...100_000).reduce(0) { $0 + $1 % 7 })", "form \(form)")
            let peak = Double(h.string("peak") ?? "") ?? .infinity
            // 100,000 rows held at once would be over 10 MB (userdata, identity entries).
            #expect(peak < 4096, "form \(form): the Lua heap grew by \(peak) KB during the loop")
            h.run("collectgarbage(); collectgarbage()")
            let registered = registered(h)
            #expect(registered < 10_000, "form \(form): \(registered) objects still registered after the loop")
            h.run("r = nil; visit = nil; collectgarbage(); collectgarbage()")
        }
    }

    /// The same for a sectioned result, whose r:objects() makes each object.
    @Test func sectionedObjectsAreCollected() throws {
        let (h, folder) = try bigFile(rows: 50_000)
        defer { withExtendedLifetime(folder) {} }
        h.run(
            """
            collectgarbage(); collectgarbage()
            local base, peak, seen = collectgarbage("count"), 0, 0
            r = fetch{ "t", section = "n" }
            for o in r:objects() do
              seen = seen + 1
              if seen % 1000 == 0 then peak = math.max(peak, collectgarbage("count") - base) end
            end
            assert(seen == 50000, seen)
            sectionedPeak = peak
            collectgarbage(); collectgarbage()
            """)
        // Each object costs Swift ~512 bytes the collector is told of; untold, the heap
        // reached about 3 MB by 50,000 objects, and kept growing.
        let peak = Double(h.string("sectionedPeak") ?? "") ?? .infinity
        #expect(peak < 1024, "the Lua heap grew by \(peak) KB")
        #expect(registered(h) < 10_000)
    }

    /// totable(), ids and dictionary results past --memory are refused with the one
    /// memory message, whether refused up front or after being built; a script that
    /// catches it goes on under the limit. Whatever passes leaves the heap under it.
    @Test func valuesBuiltForLuaCountAgainstTheLimit() throws {
        let limit = 10 << 20
        let (h, folder) = try bigFile(rows: 300_000, memoryLimit: limit)
        defer { withExtendedLifetime(folder) {} }
        for call in [
            #"fetch("t"):totable()"#, #"fetch{ "t", result = "ids" }"#, #"fetch("t"):ids()"#,
            #"fetch{ "t", properties = { "n", "s" } }"#, #"sql("SELECT * FROM t")"#
        ] {
            let message = h.error("local t = \(call)")
            #expect(message.hasPrefix("t:1: not enough memory:") && message.contains("--memory limit (10 MB)"), "\(call): \(message)")
            #expect(!message.contains("\n"))
        }
        // Sizes around what the up-front estimate lets through: each either fits (and the
        // heap is then under the limit, the table still referenced) or raises the message.
        var refused = 0
        for n in stride(from: 40_000, through: 100_000, by: 10_000) {
            h.run(
                """
                ok, err = pcall(function() local t = fetch{ "t", limit = \(n) }:totable(); return collectgarbage("count") * 1024 end)
                small = #fetch{ "t", limit = 100 }:totable()
                """)
            if h.string("ok") == "true" {
                let used = Double(h.string("err") ?? "") ?? .infinity
                #expect(used <= Double(limit), "\(n) rows: the heap is at \(used) bytes, over the limit")
            } else {
                refused += 1
                #expect(h.string("err")?.contains("not enough memory") == true)
            }
            #expect(h.string("small") == "100", "the script goes on after the error")
        }
        #expect(refused > 0)
    }

    /// Swift source is read by swift-syntax, whose memory is not Lua's: a `#Predicate` or
    /// a sort key whose reading would pass --memory is refused before it is read, with the
    /// one memory line, and the script goes on; the same text as a format string, and a
    /// small #Predicate, still read under the same limit.
    @Test func swiftSourceIsRefusedBeforeItsReadingPassesTheLimit() throws {
        let limit = 10 << 20
        let (h, folder) = try bigFile(rows: 10, memoryLimit: limit)
        defer { withExtendedLifetime(folder) {} }
        // 60,000 terms: about 0.9 MB of text, some 160 MB to read as Swift.
        h.run(
            """
            terms = {}
            for i = 1, 60000 do terms[i] = "$0.n == " .. i end
            big = "#Predicate<t> { " .. table.concat(terms, " || ") .. " }"
            keys = {}
            for i = 1, 30000 do keys[i] = "\\\\.n" end
            bigSort = "[" .. table.concat(keys, ", ") .. "]"
            """)
        for call in ["fetch{ \"t\", predicate = big }", "count(\"t\", big)", "fetch{ \"t\", sort = bigSort }"] {
            let message = h.error("local r = \(call)")
            #expect(message.contains("not enough memory: reading a") && message.contains("--memory limit (10 MB)"), "\(call): \(message)")
            #expect(!message.contains("\n"))
        }
        h.run(
            #"""
            n = count("t", "#Predicate<t> { $0.n > 3 }")
            m = count("t", "n > 3")
            """#)
        #expect(h.string("n") == "3" && h.string("m") == "3", "\(h.string("n") ?? "nil") \(h.string("m") ?? "nil")")
    }

    /// A call into Quarry leaves the collector's pace as `collectgarbage` set it: with a
    /// pause of 1000 the heap grows to several times its live size between cycles, even
    /// though every turn of the loop calls a Quarry function. (It used to be held off by
    /// stopping it, and restarting it set its debt to zero: every call ended its pause,
    /// and the loop collected on every turn, a hundred times slower.) With the default
    /// pause, objects made meanwhile are finalized as the loop goes.
    @Test func callsIntoQuarryKeepTheCollectorsPace() throws {
        let h = try Harness()
        h.run(
            """
            collectgarbage(); collectgarbage()
            local keep = {}
            for i = 1, 2000 do keep[i] = { i } end
            collectgarbage(); collectgarbage()
            local live = collectgarbage("count")
            collectgarbage("incremental", 1000)
            local peak = 0
            for i = 1, 50000 do
              local _ = now()
              local t = { i }
              peak = math.max(peak, collectgarbage("count"))
            end
            grown = peak / live
            collectgarbage("incremental", 200)
            collectgarbage(); collectgarbage()
            after = collectgarbage("count") / live
            finalized = 0
            local mt = { __gc = function() finalized = finalized + 1 end }
            for i = 1, 50000 do
              local _ = now()
              local t = setmetatable({ i }, mt)
            end
            during = finalized
            """)
        let grown = Double(h.string("grown") ?? "") ?? 0
        #expect(grown > 3, "the heap peaked at \(grown)x its live size: the pause of 1000 was cut short")
        #expect(grown < 15, "the heap peaked at \(grown)x its live size")
        let after = Double(h.string("after") ?? "") ?? .infinity
        #expect(after < 1.5, "after a full collection the heap is \(after)x its live size")
        #expect(Int(h.string("during") ?? "") ?? 0 > 40_000, "\(h.string("during") ?? "-") of 50,000 finalized during the loop")
    }
}
