import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// What an independent review of the collector's loan (shim.c) and of objects kept across
/// a model change found: a collector a callback restarts or stops, the snapshot a save
/// compares with, what observers hear, and the link of an inserted row.
@Suite struct CollectorAndModelChangeTests {
    /// The script stopped the collector before save(), and an observer restarts it and
    /// makes garbage with finalizers: afterwards the collector is running, every loan
    /// Swift took meanwhile has been given back (the heap keeps its usual pace), and
    /// every finalizer has run. (A finalizer that ran while Swift ran would have met
    /// Swift's state mid-call; where a finalizer runs is not visible from Lua more
    /// precisely than this: save's frame is on the stack until its trampoline returns.)
    @Test func anObserverThatRestartsTheCollectorLeavesItRunningAtItsPace() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "T" { n = "int64", s = "string" }
            finalized = 0
            local fmt = { __gc = function() finalized = finalized + 1 end }
            collectgarbage("stop")
            for k = 1, 20 do
              observe("T", function(ch)
                if k == 1 then
                  collectgarbage("restart")
                  for i = 1, 2000 do setmetatable({}, fmt) end
                end
              end)
            end
            for i = 1, 2000 do T:new{ n = i, s = string.rep("x", 100) } end
            save()
            running = collectgarbage("isrunning")
            collectgarbage(); collectgarbage()
            local live = collectgarbage("count")
            local peak = 0
            for i = 1, 20000 do local _ = now(); local t = { i }; peak = math.max(peak, collectgarbage("count")) end
            grown = peak / live
            """#)
        #expect(h.string("running") == "true")
        #expect(h.string("finalized") == "2000")
        let grown = Double(h.string("grown") ?? "") ?? .infinity
        #expect(grown < 4, "the heap peaked at \(grown)x its live size: a loan was not given back")
    }

    /// A collector an observer stops stays stopped: nothing is finalized after that.
    @Test func aCollectorStoppedInAnObserverStaysStopped() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "T" { n = "int64", s = "string" }
            stopped, after, total = false, 0, 0
            local mt = { __gc = function() total = total + 1; if stopped then after = after + 1 end end }
            for k = 1, 10 do
              observe("T", function(ch) if k == 1 then collectgarbage("stop"); stopped = true end end)
            end
            for i = 1, 3000 do T:new{ n = i, s = string.rep("x", 100) } end
            for i = 1, 3000 do setmetatable({}, mt) end
            save()
            """#)
        #expect(h.string(#"collectgarbage("isrunning")"#) == "false")
        #expect(h.string("after") == "0")
        h.run(#"collectgarbage("restart"); collectgarbage(); collectgarbage()"#)
        #expect(h.string("total") == "3000")
    }

    /// relate() keeps the values a save compares with the store: another connection's
    /// change is still a conflict, and still heard by the object's observer.
    @Test func aModelChangeKeepsWhatASaveComparesAndWhatObserversHear() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            entity "P" { b = "string", n = "int64" }; entity "Q" { b = "string", c = "int64" }
            kept = P:new{ b = "x", n = 1 }; other = P:new{ b = "y", n = 1 }; Q:new{ b = "x", c = 2 }; save()
            kept.n = 5
            heard = 0
            observe(other, { "n" }, function() heard = heard + 1 end)
            """#)
        let outside = try DatabaseQueue(path: path)
        try outside.write { db in try db.execute(sql: #"UPDATE "P" SET n = 100"#) }
        try outside.close()
        h.run(#"relate("P", "b", "Q", "b", "target", "sources")"#)
        #expect(h.string(#"kept:changes().n[1]"#) == "1")
        #expect(h.error("save()").contains("conflict"))
        h.run("rollback(); refresh()")
        #expect(h.string("other.n") == "100")
        #expect(h.string("heard") == "1")
        #expect(h.string("kept.target.c") == "2")
    }

    /// An inserted row whose link was set through its column has the link once saved,
    /// and its next save is no conflict: on a foreign file, and through relate().
    @Test func anInsertedRowsLinkColumnIsItsLinkOnceSaved() throws {
        let path = try foreignFile(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, author_id INTEGER REFERENCES author(id));
            INSERT INTO author VALUES (1, 'Ann');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"kept = {}; for i = 1, 20 do kept[i] = book:new{ title = "T" .. i, author_id = 1 } end; save()"#)
        #expect(h.string(#"book:first("title == 'T7'").author.name"#) == "Ann")
        h.run(#"book:first("title == 'T7'").title = "U"; save()"#)
        #expect(h.string(#"count("book", "title == 'U'")"#) == "1")

        let own = try Harness()
        own.run(
            #"""
            entity "P" { b = "string", n = "int64" }; entity "Q" { b = "string", c = "int64" }
            Q:new{ b = "x", c = 2 }; save()
            relate("P", "b", "Q", "b", "target", "sources")
            kept = P:new{ b = "x", n = 1 }; save()
            """#)
        #expect(own.string("kept.target and kept.target.c") == "2")
        own.run(#"kept.n = 2; save()"#)
        #expect(own.string(#"count("P", "n == 2")"#) == "1")
    }
}

extension CollectorAndModelChangeTests {
    /// Results kept across a migration that drops an attribute read by the new model:
    /// rows, counts and walks answer in it.
    @Test func resultsKeptAcrossAMigrationStillRead() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "P" { b = "string", n = "int64" }
            for i = 1, 30 do P:new{ b = string.format("x%02d", i), n = i } end
            save()
            collectgarbage(); collectgarbage()
            r = fetch{ "P", sort = { "b" }, batch = 10 }
            assert(r[2].n == 2)
            entity "P" { b = "string", m = { "int64", default = 7 } }
            """#)
        h.run(
            #"""
            assert(r[2].m == 7 and r[25].b == "x25" and #r == 30)
            local walked = 0
            for _, p in ipairs(r) do walked = walked + p.m end
            assert(walked == 210)
            """#)
    }
}

extension CollectorAndModelChangeTests {
    /// Results and rows kept from a store `.open` replaced say so in one line, rather
    /// than SQLite's message for a closed handle ("out of memory").
    @Test func resultsOfAStoreOpenReplacedSaySo() throws {
        let folder = try TemporaryFolder()
        let h = try Harness(context: StoreOpener.open(folder.path("a.sqlite")))
        h.run(
            #"""
            entity "P" { n = "int64" }
            for i = 1, 30 do P:new{ n = i } end
            save()
            collectgarbage(); collectgarbage()
            r = fetch{ "P", batch = 10 }
            first = r[1]
            """#)
        h.runtime.use(try StoreOpener.open(folder.path("b.sqlite")))
        for code in ["local x = r[25].n", "local t = r:totable()", "for _, p in ipairs(r) do local x = p.n end"] {
            let message = h.error(code)
            #expect(message.contains("its store is closed (.open replaced it)"), "\(code): \(message)")
            #expect(!message.contains("out of memory"), "\(code): \(message)")
        }
        #expect(h.string("first.n") == "1")
    }
}
