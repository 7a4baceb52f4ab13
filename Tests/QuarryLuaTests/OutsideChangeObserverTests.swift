import GRDB
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Entity observers hear another process's commits to rows no object holds, as they
/// hear a local save: the rows it updated, inserted and deleted, and nothing of the
/// changes saved here.
@Suite struct OutsideChangeObserverTests {
    @Test func entityObserversHearAWriterThatKeepsNoHistory() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            entity("Vehicle") { make = "string" }
            entity("Lorry", { parent = "Vehicle" }) { load = "double?" }
            entity "Other" { n = "int64" }
            for i = 1, 20 do Vehicle:new{ make = "m" .. i } end
            Lorry:new{ make = "l1", load = 1 }
            Other:new{ n = 1 }
            save()
            heard = {}
            local function names(list) local t = {} for _, o in ipairs(list) do t[#t + 1] = o:objectID() end table.sort(t) return table.concat(t, " ") end
            observe("Vehicle", function(ch) heard[#heard + 1] = "V i[" .. names(ch.inserted) .. "] u[" .. names(ch.updated) .. "] d[" .. names(ch.deleted) .. "]" end)
            observe("Lorry", function(ch) heard[#heard + 1] = "L u[" .. names(ch.updated) .. "]" end)
            -- A local save is heard once, as itself, and is not taken for an outside change later.
            Vehicle:first("make == 'm2'").make = "local"; save()
            """#)
        #expect(h.string(#"table.concat(heard, ";")"#) == "V i[] u[Vehicle/2] d[]")
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: #"UPDATE "Vehicle" SET make = 'outside' WHERE make = 'm3'"#)
            try db.execute(sql: #"UPDATE "Vehicle" SET load = 2 WHERE make = 'l1'"#)
            try db.execute(sql: #"DELETE FROM "Vehicle" WHERE make = 'm4'"#)
            try db.execute(sql: #"INSERT INTO "Vehicle" (make, _entity) VALUES ('new', 'Vehicle')"#)
        }
        try other.close()
        h.run(#"heard = {}; refresh()"#)
        #expect(h.string(#"table.concat(heard, ";")"#) == "V i[Vehicle/22] u[Lorry/21 Vehicle/3] d[Vehicle/4];L u[Lorry/21]")
        // Nothing changed outside since: refresh hears nothing.
        h.run(#"heard = {}; refresh()"#)
        #expect(h.string("#heard") == "0")
    }

    /// A column of a row no object holds, changed from NULL to 0 or to '' and back, is heard
    /// each time: such rows are watched by their hashes, and NULL hashed as the number 0
    /// did, so a change from NULL to 0 went unheard.
    @Test func aChangeFromNullToZeroIsHeard() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            entity "Item" { n = "int64?", s = "string?" }
            Item:new{ n = nil }
            save()
            collectgarbage(); collectgarbage()
            heard = {}
            observe("Item", function(ch) for _, o in ipairs(ch.updated) do heard[#heard + 1] = tostring(o.n) .. "/" .. tostring(o.s) end end)
            """#)
        let other = try DatabaseQueue(path: path)
        for sql in [#"UPDATE "Item" SET n = 0"#, #"UPDATE "Item" SET n = NULL, s = ''"#, #"UPDATE "Item" SET s = NULL"#] {
            try other.write { db in try db.execute(sql: sql) }
            h.run("refresh(); collectgarbage(); collectgarbage()")
        }
        try other.close()
        #expect(h.string(#"table.concat(heard, ";")"#) == "0/nil;nil/;nil/nil")
    }
}
