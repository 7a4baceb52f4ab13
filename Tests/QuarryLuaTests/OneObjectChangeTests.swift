import GRDB
import QuarryLua
import QuarryShell
import QuarryStore
import Testing

/// An unsaved change to one object's values leaves the rows of every other object read
/// from their cells (only the changed object's row reads through its object), and a saved
/// object keeps its row as read with the values written in it: neither shows a stale
/// value, and a save still meets another connection's change as a conflict.
@Suite struct OneObjectChangeTests {
    /// Rows read before and after a change to another object, the results holding it,
    /// and a loop changing each object it walks, saved twice.
    @Test func otherRowsAndTheResultsStayRight() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "N" { n = "int64", tag = "string" }
            for i = 1, 30 do N:new{ n = i, tag = "a" } end
            save()
            local r = fetch{ "N", "tag == 'a'", batch = 10 }
            local a, b, c = r[5], r[6], r[25]
            assert(a.n == 5 and b.tag == "a" and c.tag == "a")
            a.tag = "b"
            assert(a.tag == "b" and b.tag == "a" and c.n == 25 and c.tag == "a")
            assert(#r == 29 and r[5].n == 6 and rawequal(r[5], b), "the results hold the change")
            local seen = 0
            for _, o in ipairs(fetch{ "N", batch = 10 }) do seen = seen + 1; o.n = o.n + 100 end
            assert(seen == 30 and a.n == 105 and b.n == 106 and c.n == 125)
            assert(#r == 29 and r[1].n == 101)
            save()
            assert(N:count("n > 100") == 30 and N:count("tag == 'b'") == 1 and a.tag == "b" and a.n == 105)
            for _, o in ipairs(fetch("N")) do o.n = o.n + 1 end
            save()
            assert(N:count("n > 101") == 30 and a.n == 106 and not a:hasChanges())
            """#)
    }

    /// A row another runtime over the same context made its object and changed reads
    /// the change, while the rows beside it still read from their cells.
    @Test func aRowChangedThroughAnotherRuntimeReadsTheChange() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "N" { n = "int64" }
            for i = 1, 30 do N:new{ n = i } end
            save()
            r = fetch{ "N", batch = 10 }
            a, b = r[5], r[6]
            assert(a.n == 5 and b.n == 6)
            """#)
        let second = try Harness(context: h.context)
        second.run(#"fetch("N")[5].n = 50"#)
        h.run(#"assert(a.n == 50, a.n); assert(b.n == 6); assert(r[5].n == 50 and rawequal(r[5], a))"#)
        second.run("rollback()")
        h.run("assert(a.n == 5, a.n)")
    }

    /// An object saved, then changed by another connection, then changed and saved again
    /// here: the second save meets the other connection's change as a conflict, and with
    /// the store's policy keeps theirs; values of every kind read back after a save as
    /// they were written.
    @Test func aSecondSaveStillMeetsAnotherConnectionsChange() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            entity "N" { n = "int64", tag = "string", d = "double?", when = "date?", ok = "bool?", m = "decimal?" }
            for i = 1, 3 do N:new{ n = i, tag = "a" } end
            save()
            o = fetch("N")[2]
            o.tag = "mine"; o.d = 2.5; o.when = date("2024-01-22T16:26:12Z"); o.ok = true; o.m = decimal("0.10")
            save()
            assert(o.tag == "mine" and o.d == 2.5 and o.ok == true and tostring(o.m) == "0.10" and not o:hasChanges())
            assert(o.when == date("2024-01-22T16:26:12Z"))
            """#)
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: #"UPDATE "N" SET tag = 'theirs' WHERE n = 2"#) }
        try other.close()
        h.run(#"o.tag = "again""#)
        let message = h.error("save()")
        #expect(message.contains("conflict") && message.contains("N/2"), "\(message)")
        let stored = try DatabaseQueue(path: path)
        #expect(try stored.read { db in try String.fetchOne(db, sql: #"SELECT tag FROM "N" WHERE n = 2"#) } == "theirs")
        try stored.close()
        h.run(#"save{ merge = "store" }; assert(o.tag == "theirs", o.tag)"#)
    }
}
