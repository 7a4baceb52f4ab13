import CLua
import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Fetched objects that are still rows (their attributes read in C from the batch's
/// cells) behave exactly as made objects do: the same values, the same identity, fresh
/// after every change.
@Suite struct RowObjectTests {
    /// A runtime over a file whose table stores values in every storage class, matching
    /// its declared types or not (as files written by other programs do).
    private func mixedFile() throws -> (Harness, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let path = folder.path("mixed.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BOOLEAN, d DATETIME, x BLOB);
                    INSERT INTO t (i, r, s, b, d, x) VALUES
                      (1, 1.5, 'plain', 1, '2024-01-22T16:26:12Z', x'00ff'),
                      (NULL, NULL, NULL, NULL, NULL, NULL),
                      ('text', 3, 42, 0, 1700000000, 'text in a blob column'),
                      (2.5, -0.0, 'héllo wörld ✓', 2, 1700000000.5, NULL),
                      (-9223372036854775808, 1e308, CAST(x'ff41' AS TEXT), 0.0, 'not a date', x''),
                      (9223372036854775807, 'nan?', 'a' || char(0) || 'b', 'yes', 0, x'41'),
                      (0, 0, '', -1, -1, 0);
                    """)
            // More rows than one batch of 7, so later batches read the columns learned.
            for n in 0..<30 {
                try db.execute(
                    sql: "INSERT INTO t (i, r, s, b, d, x) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [n, Double(n) / 4, "row \(n)", n % 2, 1_600_000_000 + n, Data([UInt8(n)])])
            }
        }
        try queue.close()
        let context = try StoreOpener.open(path)
        return (try Harness(context: context), folder)
    }

    /// For each attribute alone, every row's value read from the cells equals the value
    /// the same object gives once made (a Swift read), including type (integer or float).
    @Test func cellsReadAsObjectsDo() throws {
        let (h, folder) = try mixedFile()
        defer { withExtendedLifetime(folder) {} }
        h.run(Self.compareEveryRead + #"compareEveryRead("t", { "id", "i", "r", "s", "b", "d", "x" }, 37)"#)
    }

    /// The same for every attribute type of Quarry's own entities.
    @Test func cellsOfEveryTypeReadAsObjectsDo() throws {
        let h = try Harness()
        h.run(
            Self.compareEveryRead + #"""
                entity "All" { s = "string?", i16 = "int16?", i32 = "int32?", i64 = "int64?", d = "double?", m = "decimal?",
                               b = "bool?", t = "date?", u = "uuid?", x = "binary?", j = "json?" }
                All:new{}
                All:new{ s = "", i16 = -32768, i32 = 2147483647, i64 = math.mininteger, d = -0.0, m = 1e300, b = false,
                         t = date(0), u = "123e4567-e89b-12d3-a456-426614174000", x = "\0\1\255", j = { a = { 1, 2 }, b = "c" } }
                All:new{ s = "ünïcødé ✓", i16 = 7, i32 = -7, i64 = math.maxinteger, d = 1/3, m = 2, b = true,
                         t = date("2024-01-22T16:26:12Z"), x = "", j = { 1, "two", true } }
                for n = 1, 20 do All:new{ s = "s" .. n, i64 = n, d = n + 0.5, b = n % 2 == 0, t = date(n * 86400), j = { n = n } } end
                save()
                compareEveryRead("All", { "s", "i16", "i32", "i64", "d", "m", "b", "t", "u", "x", "j" }, 23)
                """#)
    }

    /// Defines compareEveryRead(entity, keys, rows): for each key alone, on rows that are
    /// not yet objects, the value read (from the cells) and the value the made object
    /// gives must be the same (deep for tables, by kind for numbers).
    private static let compareEveryRead = #"""
        local function same(a, b)
          if type(a) == "table" and type(b) == "table" then
            for k, v in pairs(a) do if not same(v, b[k]) then return false end end
            for k in pairs(b) do if a[k] == nil then return false end end
            return true
          end
          if type(a) == "number" and type(b) == "number" then
            return math.type(a) == math.type(b) and (a == b or (a ~= a and b ~= b))
          end
          if typeof(a) == "date" and typeof(b) == "date" then return a == b end
          if typeof(a) == "decimal" and typeof(b) == "decimal" then return a == b end
          return rawequal(a, b)
        end
        function compareEveryRead(entity, keys, rows)
          for _, key in ipairs(keys) do
            collectgarbage(); collectgarbage()
            local r = fetch{ entity, batch = 7 }
            local n = 0
            for _, o in ipairs(r) do
              local fast = o[key]
              o:objectID()  -- makes the object: the next read is Swift's
              local slow = o[key]
              assert(same(fast, slow), string.format("%s.%s: %s (%s) from the cells, %s (%s) from the object",
                o:objectID(), key, tostring(fast), typeof(fast), tostring(slow), typeof(slow)))
              n = n + 1
            end
            assert(n == rows, "rows walked: " .. n)
            r = nil
          end
        end

        """#

    /// A walk reading plain attributes makes no ManagedObject at all.
    @Test func readingAttributesMakesNoObjects() throws {
        let (h, folder) = try mixedFile()
        defer { withExtendedLifetime(folder) {} }
        h.run(
            #"""
            held = {}
            local total = 0
            for i, o in ipairs(fetch{ "t", batch = 7 }) do
              held[i] = o
              assert(o.id == i)
              total = total + (math.type(o.i) == "integer" and 1 or 0)
            end
            assert(total > 30, total)
            """#)
        for key in 1...37 { #expect(h.context.registeredObject(entity: "t", primaryKey: Int64(key)) == nil, "t/\(key) was made") }
        h.run("assert(held[3]:objectID() == 't/3')")
        #expect(h.context.registeredObject(entity: "t", primaryKey: 3) != nil)
    }

    /// An attribute first read after the first batch (so not among the columns read) is
    /// still right, and is read from the next batch on.
    @Test func attributesReadLateAreLearned() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "N" { n = "int64", half = "double", name = "string", odd = "bool" }
            for i = 1, 1000 do N:new{ n = i, half = i / 2, name = "n" .. i, odd = i % 2 == 1 } end
            save()
            local sum, names, odds = 0, 0, 0
            for i, o in ipairs(fetch{ "N", sort = { "-n" }, batch = 50 }) do
              sum = sum + o.n
              assert(o.n == 1001 - i)
              if i > 300 then
                assert(o.name == "n" .. o.n, o.name)
                assert(o.half == o.n / 2 and math.type(o.half) == "float")
                names = names + 1
              end
              if i > 600 and o.odd then odds = odds + 1 end
            end
            assert(sum == 500500 and names == 700 and odds == 200, sum .. " " .. names .. " " .. odds)
            """#)
    }

    @Test func rowsKeepTheirIdentity() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "N" { n = "int64" }
            for i = 1, 100 do N:new{ n = i } end
            save()
            local r = fetch{ "N", batch = 10 }
            local a = r[15]
            assert(rawequal(a, r[15]))
            assert(rawequal(a, fetch{ "N", sort = { "-n" } }[86]))  -- another results, another batch
            assert(rawequal(a, N:get(15)), "the made object is the row's value")
            assert(rawequal(a, fetch("N", "n == 15")[1]))
            local b = r[40]                       -- still a row: found by its key
            assert(rawequal(fetch{ "N", sort = { "-n" }, batch = 3 }[61], b))
            local kept = {}
            for i, o in ipairs(r) do kept[i] = o end
            collectgarbage(); collectgarbage()
            for i, o in ipairs(fetch{ "N", batch = 7 }) do assert(rawequal(kept[i], o), i) end
            """#)
    }

    /// Sections hand out rows too: the same values and values as the flat results, no
    /// row of a neighbouring section, and nothing stale after a save.
    @Test func sectionsHandOutRows() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "N" { n = "int64", g = "int64" }
            for i = 1, 300 do N:new{ n = i, g = i % 7 } end
            save()
            collectgarbage(); collectgarbage()  -- the objects new() made: fetches then meet rows
            local flat = fetch{ "N", sort = { "g", "n" }, batch = 20 }
            local r = fetch{ "N", section = "g", sort = { "g", "n" }, batch = 20 }
            local k = 0
            for s = 1, #r do
              local sec = r[s]
              for j, o in ipairs(sec) do
                k = k + 1
                assert(rawequal(o, flat[k]), "section " .. s .. " row " .. j)
                assert(o.g == sec.id and o.n == flat[k].n)
              end
              assert(sec[0] == nil and sec[#sec + 1] == nil and rawequal(sec[1], flat[k - #sec + 1]))
            end
            assert(k == 300)
            """#)
        for key in 1...300 { #expect(h.context.registeredObject(entity: "N", primaryKey: Int64(key)) == nil, "N/\(key) was made") }
        h.run(
            #"""
            local r = fetch{ "N", section = "g", sort = { "g", "n" }, batch = 20 }
            local sec = r[3]
            local o = sec[2]
            o.n = 1000
            save()
            sec = r[3]
            assert(sec[#sec].n == 1000 and rawequal(sec[#sec], o))
            assert(r[3][2].n ~= 1000)
            """#)
    }

    /// Every change to the store (an unsaved edit, a save, a rollback, a batch update, a
    /// delete) is seen by rows read before it, and by the results' cached batch.
    @Test func rowsAreNeverStale() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "N" { n = "int64", tag = "string" }
            for i = 1, 30 do N:new{ n = i, tag = "a" } end
            save()
            local r = fetch{ "N", batch = 10 }
            local a, b = r[5], r[25]
            assert(a.n == 5 and b.tag == "a")
            a.n = 500
            assert(a.n == 500 and r[5].n == 500)
            rollback()
            assert(a.n == 5 and r[5].n == 5)
            N:updateall("n > 20", {}, { tag = "b" })
            assert(b.tag == "b" and r[25].tag == "b" and r[5].tag == "a")
            local c = r[12]
            N:deleteall("n == 12", {})
            assert(tostring(c):find("(deleted)", 1, true) and not c:isDeleted(), "a row deleted by deleteall says so; no delete is pending")
            assert(#r == 29 and r[12].n == 13)
            local d = r[3]
            d.tag = "c"; save()
            assert(fetch("N", "tag == 'c'")[1].n == 3 and rawequal(fetch("N", "tag == 'c'")[1], d))
            r.predicate = "n > 25"
            assert(r[1].n == 26, "the cached batch of the old request answered")
            """#)
    }

    /// A change through the row that holds its object looks for no other row of it while
    /// there is none (issue 84): once a row whose object was made is fetched again (a
    /// second userdata, still reading cells), a change through either reaches the other,
    /// and so does one made through the object another way (`N:get`).
    @Test func aRowFetchedAgainSeesAChangeMadeThroughTheFirst() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "N" { n = "int64", tag = "string" }
            for i = 1, 30 do N:new{ n = i, tag = "a" } end
            save()
            local r = fetch{ "N", batch = 10 }
            local a = r[5]
            a.tag = "b"
            assert(a.tag == "b" and r[5].tag == "b")
            a.tag = "a"
            local again = fetch{ "N", batch = 10 }
            local b = again[5]
            assert(b.tag == "a")
            a.tag = "c"
            assert(b.tag == "c" and again[5].tag == "c" and r[5].tag == "c", "the second row reads the change")
            b.tag = "d"
            assert(a.tag == "d")
            N:get(a:objectID()).tag = "e"
            assert(a.tag == "e" and b.tag == "e")
            rollback()
            assert(a.tag == "a" and b.tag == "a")
            -- A deleted row's number given to a new row: every userdata of it reads its changes.
            local last = r[30]
            last:delete(); save()
            local fresh = N:new{ n = 31, tag = "f" }; save()
            local r3 = fetch{ "N", batch = 10 }
            local f = r3[#r3]
            assert(f.n == 31 and f.tag == "f")
            f.tag = "g"
            assert(fresh.tag == "g" and r3[#r3].tag == "g")
            fresh.tag = "h"
            assert(f.tag == "h" and fetch{ "N", batch = 10 }[#r3].tag == "h")
            """#)
    }

    /// A commit by another connection is seen once noticed.
    @Test func anotherConnectionsCommitIsSeen() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            entity "N" { n = "int64" }
            for i = 1, 30 do N:new{ n = i } end
            save()
            r = fetch{ "N", batch = 10 }
            a = r[5]
            assert(a.n == 5)
            """#)
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: #"UPDATE "N" SET n = 50 WHERE n = 5"#) }
        try other.close()
        h.run(#"refresh(); assert(a.n == 50, a.n); assert(r[5].n == 50)"#)
    }

    /// Two runtimes over one context (as tests make) both hear its changes.
    @Test func everyRuntimeOverAContextHearsItsChanges() throws {
        let h = try Harness()
        h.run(#"entity "N" { n = "int64" }; for i = 1, 3 do N:new{ n = i } end; save(); a = fetch("N")[1]; assert(a.n == 1)"#)
        let second = try Harness(context: h.context)
        second.run(#"local b = fetch("N")[1]; assert(b.n == 1); b.n = 5"#)
        h.run("assert(a.n == 5, a.n)")
        second.run("rollback()")
        h.run("assert(a.n == 1, a.n)")
    }

    /// Objects read as rows write, relate and delete as made objects do.
    @Test func rowsBecomeObjectsWhenWrittenOrRelated() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Owner" { name = "string", pets = { many = "Pet", inverse = "owner" } }
            entity "Pet" { name = "string", owner = { one = "Owner", inverse = "pets" } }
            local o = Owner:new{ name = "o" }
            for i = 1, 25 do Pet:new{ name = "p" .. i, owner = o } end
            save()
            local names = {}
            for i, p in ipairs(fetch{ "Pet", batch = 10 }) do
              assert(rawequal(p.owner, o))
              names[#names + 1] = p.name
            end
            assert(#names == 25 and #o.pets == 25)
            local p = fetch{ "Pet", batch = 10 }[20]
            p.name = "renamed"
            assert(p:hasChanges() and p.name == "renamed")
            save()
            assert(Pet:first("name == 'renamed'"):objectID() == p:objectID())
            fetch{ "Pet", batch = 10 }[21]:delete()
            save()
            assert(Pet:count() == 24)
            """#)
    }

    /// A commit by a writer that keeps no history (the sqlite3 shell) is told to observers
    /// for rows read as rows, as for made objects: they are compared with what was read.
    /// (A row of a batch that read some columns only is compared on those; a change to
    /// another column is heard because an entity observer makes Quarry hash every row.)
    @Test func outsideCommitsReachObserversOfRows() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            entity "Item" { title = "string?", n = "int64" }
            for i = 1, 40 do Item:new{ title = "t" .. i, n = i } end
            save()
            r = fetch{ "Item", batch = 10 }
            held = {}
            for i, o in ipairs(r) do held[i] = o; local _ = o.title end  -- batches after the first read title alone
            heard = {}
            observe(r, function(ev) for _, u in ipairs(ev.updated) do heard[#heard + 1] = "r:" .. u.object.title end end)
            observe("Item", function(ch) for _, o in ipairs(ch.updated) do heard[#heard + 1] = "e:" .. o.title end end)
            """#)
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: #"UPDATE "Item" SET title = 'EXT' || n WHERE n IN (1, 25)"#) }
        try other.write { db in try db.execute(sql: #"UPDATE "Item" SET n = n + 100 WHERE n IN (5, 30)"#) }
        try other.close()
        h.run(
            #"""
            refresh()
            table.sort(heard)
            assert(table.concat(heard, " ") == "e:EXT1 e:EXT25 e:t30 e:t5 r:EXT1 r:EXT25 r:t30 r:t5", table.concat(heard, " "))
            assert(held[1].title == "EXT1" and held[25].title == "EXT25" and held[5].n == 105 and held[30].n == 130)
            """#)
    }

    /// Objects of several entities of one hierarchy changed by another process are heard
    /// by an observer of their parent in one order, by entity name then key, in every run
    /// (it followed the identity map's dictionary, another order in each process).
    @Test func outsideChangesToSeveralEntitiesAreHeardInOneOrder() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("cars.sqlite")
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            entity "Car" { name = "string", speed = "int" }
            for _, e in ipairs({ "Van", "Truck", "SportCar", "Bus" }) do entity(e, { parent = "Car" }) {} end
            for i, e in ipairs({ Car, Van, Truck, SportCar, Bus, Car, Truck }) do e:new{ name = "c" .. i, speed = i } end
            save()
            held = {}
            for _, o in ipairs(fetch{ "Car", sort = "speed" }) do held[#held + 1] = o end
            heard = {}
            observe("Car", function(ch) for _, o in ipairs(ch.updated) do heard[#heard + 1] = o:objectID() end end)
            """#)
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: #"UPDATE "Car" SET speed = speed + 10"#) }
        try other.close()
        h.run(
            #"""
            refresh()
            local said = table.concat(heard, " ")
            assert(said == "Bus/5 Car/1 Car/6 SportCar/4 Truck/3 Truck/7 Van/2", said)
            """#)
    }

    /// A runtime whose entity `Item` holds `count` saved rows titled `title 1...`, none of
    /// them an object any more (collected), so the first fetch hands out rows.
    private func savedItems(_ count: Int) throws -> Harness {
        let h = try Harness()
        h.run(
            """
            entity "Item" { title = "string" }
            for i = 1, \(count) do Item:new{ title = "title " .. i } end
            save()
            collectgarbage(); collectgarbage()
            """)
        return h
    }

    /// A row made an object holds it while the row is in use, and lets it go with the row
    /// (the object is owned by a userdata of its own, not by the row's finalizer).
    @Test func objectsMadeFromRowsLiveAsLongAsTheirRows() throws {
        let h = try savedItems(300)
        h.run(
            #"""
            kept = {}
            for i, o in ipairs(fetch("Item")) do
              assert(o:objectID() == "Item/" .. i)   -- made an object
              if i % 100 == 0 then kept[#kept + 1] = o end
            end
            collectgarbage(); collectgarbage()
            for _, o in ipairs(kept) do o.title = o.title .. "!" end
            """#)
        #expect(try h.context.registeredObject(entity: "Item", primaryKey: 200)?.value(forKey: "title") == .text("title 200!"))
        #expect(h.context.registeredObject(entity: "Item", primaryKey: 201) == nil)
        h.run("save(); kept = nil; collectgarbage(); collectgarbage()")
        #expect(h.context.registeredObject(entity: "Item", primaryKey: 200) == nil)
        h.run(#"assert(count("Item", "title ENDSWITH '!'") == 3)"#)
    }

    /// A finalizer that revives a row made an object, run after the object's keeper and
    /// the row's batch were collected (finalizers run in the reverse order of their
    /// setting), gets an error when reading it, never memory the row no longer owns.
    @Test func rowsRevivedAfterTheirObjectWentSaySo() throws {
        let h = try savedItems(3)
        h.run(
            #"""
            results = {}
            do
              local holder = setmetatable({}, { __gc = function(t)
                local ok, v = pcall(function() return t.o.title end)
                results[#results + 1] = tostring(v)
              end })
              holder.o = fetch("Item")[2]
              assert(holder.o:objectID() == "Item/2")   -- made after the holder's finalizer was set
            end
            collectgarbage(); collectgarbage(); collectgarbage()
            assert(#results == 1 and results[1]:find("can no longer be read"), results[1])
            """#)
    }

    /// A row made an object stays the same Lua value however it is reached again, after
    /// collections that leave it the only row of its batch in use.
    @Test func rowsMadeObjectsKeepTheirIdentity() throws {
        let h = try savedItems(20)
        h.run(
            #"""
            local o = fetch("Item")[3]
            assert(o:objectID() == "Item/3")
            collectgarbage(); collectgarbage()
            local again = fetch("Item")[3]
            assert(rawequal(o, again))
            local t = { [o] = "kept" }
            collectgarbage(); collectgarbage()
            assert(t[fetch("Item", "title == 'title 3'")[1]] == "kept")
            """#)
    }

    /// The debug library can take a made row's user values away: the row then reads as a
    /// row again, or says it can no longer be read; it never reads freed memory.
    @Test func tamperedKeepersLeaveNothingDangling() throws {
        let h = try savedItems(3)
        h.run(
            #"""
            local o = fetch("Item")[2]
            assert(o:objectID() == "Item/2")
            debug.setuservalue(o, nil, 2)   -- the keeper
            collectgarbage(); collectgarbage()
            assert(o.title == "title 2")
            o.title = "changed"
            save()
            local p = fetch("Item")[3]
            assert(p:objectID() == "Item/3")
            debug.setuservalue(p, nil, 1); debug.setuservalue(p, nil, 2)
            collectgarbage(); collectgarbage()
            local ok, message = pcall(function() return p.title end)
            assert(not ok and message:find("can no longer be read"), message)
            assert(count("Item", "title == 'changed'") == 1)
            """#)
    }

    /// The debug library can put the object metatable (with its `__gc`) on made rows, or
    /// move one row's keeper to another: the object is released once, by its keeper, and a
    /// row never takes another row's object.
    @Test func movedMetatablesAndKeepersNeitherReleaseTwiceNorCrossRows() throws {
        let h = try savedItems(50)
        h.run(
            #"""
            local mt = debug.getmetatable(Item:new{ title = "unsaved" })
            rollback()
            do
              local r = fetch("Item")
              for i = 1, 50 do
                local o = r[i]
                assert(o:objectID() == "Item/" .. i)
                debug.setmetatable(o, mt)
              end
            end
            collectgarbage(); collectgarbage(); collectgarbage()
            local r = fetch("Item")
            local a, b = r[1], r[2]
            assert(a:objectID() == "Item/1" and b:objectID() == "Item/2")
            debug.setuservalue(a, (debug.getuservalue(b, 2)), 2)
            assert(a:objectID() == "Item/1", a:objectID())
            a.title = "changed"
            save()
            assert(fetch("Item", "title == 'changed'")[1]:objectID() == "Item/1")
            assert(count("Item", "title == 'title 2'") == 1)
            """#)
    }

    /// A keeper kept after its row was dropped is not believed by a row of another entity
    /// with the same key, wherever that row is made (a keeper holds its own row, so no
    /// other row takes its address).
    @Test func aKeeperIsBelievedOnlyByItsOwnRow() throws {
        let h = try savedItems(3)
        h.run(
            #"""
            entity "Person" { name = "string" }
            Person:new{ name = "p1" }
            save()
            collectgarbage(); collectgarbage()
            local keeper, address
            do
              local a = fetch("Item")[1]
              assert(a:objectID() == "Item/1")
              keeper, address = debug.getuservalue(a, 2), string.format("%p", a)
            end
            collectgarbage(); collectgarbage()
            local b
            for _ = 1, 500 do
              b = fetch("Person")[1]
              if string.format("%p", b) == address then break end
            end
            assert(b:objectID() == "Person/1")
            debug.setuservalue(b, keeper, 2)
            assert(b:objectID() == "Person/1", b:objectID())
            b.name = "changed"
            save()
            assert(fetch("Item")[1].title == "title 1" and fetch("Person")[1].name == "changed")
            """#)
    }

    /// Keys at the ends of the integers, and views that repeat a key.
    @Test func unusualKeysReadAsObjectsDo() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("keys.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE high (id INTEGER PRIMARY KEY, v TEXT);
                    INSERT INTO high VALUES (9223372036854775806, 'a'), (9223372036854775807, 'b');
                    CREATE TABLE wide (id INTEGER PRIMARY KEY, v TEXT);
                    INSERT INTO wide VALUES (-9223372036854775808, 'low'), (1, 'one'), (9223372036854775807, 'high');
                    CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INT, title TEXT);
                    INSERT INTO a VALUES (1, 'x'), (2, 'y');
                    INSERT INTO b VALUES (1, 1, 'b1'), (2, 1, 'b2'), (3, 2, 'b3');
                    CREATE VIEW v AS SELECT a.id AS id, a.name AS name, b.title AS title FROM a JOIN b ON b.a_id = a.id;
                    CREATE TABLE named (rowid TEXT, v TEXT);
                    INSERT INTO named VALUES ('r1', 'first'), ('r2', 'second');
                    """)
        }
        try queue.close()
        let h = try Harness(context: StoreOpener.open(path))
        h.run(
            #"""
            local r = fetch("high")
            assert(#r == 2 and r[1].v == "a" and r[2].v == "b" and r[3] == nil)
            assert(fetch{ "high", offset = 1 }[1].v == "b")
            local w = fetch("wide")
            assert(w[1].v == "low" and w[2].v == "one" and w[3].v == "high")
            assert(fetch{ "wide", predicate = "v != %@", args = { "zz" } }[3].v == "high")
            for _, sort in ipairs{ {}, { "-title" } } do
              local views = fetch{ "v", sort = sort }
              local walked = 0
              for i = 1, #views do assert(views[i] ~= nil, i); walked = walked + 1 end
              for _ in ipairs(views) do walked = walked - 1 end
              assert(#views == 3 and walked == 0)
            end
            -- A text column named rowid: the rowid goes by another of its names.
            local named = fetch("named")
            assert(#named == 2 and named[1].rowid == "r1" and named[2].v == "second" and named[2]:objectID() == "named/2")
            """#)
    }

    /// An object whose rows were released (a finalizer revived it) says so; it never
    /// reads memory the rows no longer own.
    @Test func objectsWhoseRowsAreGoneSaySo() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string?" }
            for i = 1, 3 do Item:new{ title = "title " .. i } end
            save()
            collectgarbage(); collectgarbage()  -- the objects new() made: r[2] is then a row
            local r = fetch("Item")
            local o = r[2]
            assert(o.title == "title 2")
            local rows = debug.getuservalue(o)
            debug.getmetatable(rows).__gc(rows)   -- as the collector would at exit
            local ok, message = pcall(function() return o.title end)
            assert(not ok and message:find("can no longer be read"), message)
            ok, message = pcall(function() return r[2].title end)
            assert(not ok or r[2].title == "title 2", message)
            """#)
    }

    /// A script with the debug library cannot make a row read memory it does not own.
    @Test func tamperedRowsFallBackToSwift() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "N" { n = "int64" }
            for i = 1, 30 do N:new{ n = i } end
            save()
            local r = fetch{ "N", batch = 10 }
            local a, b = r[1], r[25]
            debug.setuservalue(a, (debug.getuservalue(b)))  -- another batch
            local ok, n = pcall(function() return a.n end)
            assert(not ok or n == 1, n)
            debug.setuservalue(b, io.stdout)                -- not a batch at all
            assert(not pcall(function() return b.n end) or b.n == 25)
            local c = r[2]
            debug.setmetatable(io.stdout, debug.getmetatable(c))
            assert(not pcall(function() return io.stdout.n end))
            debug.setuservalue(r, { "not objects" })
            assert(r[3].n == 3)
            """#)
    }

    /// Keys that are no short name (a name too long for Lua to intern, a number, a
    /// boolean) read from a row as from the object it becomes: C matches short names by
    /// their interned string, and sends anything else to the field table or to Swift.
    @Test func keysOtherThanShortNamesReadAsObjectsDo() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "L" { an_attribute_whose_name_is_longer_than_forty_bytes = "int64?", n = "int64" }
            for i = 1, 5 do L:new{ an_attribute_whose_name_is_longer_than_forty_bytes = i * 10, n = i } end
            save()
            collectgarbage(); collectgarbage()
            local long = "an_attribute_whose_name_is_longer_" .. "than_forty_bytes"
            -- One line for every read, so errors name the same position.
            local function reads(o)
              local results = {}
              for k, key in ipairs({ long, "n", 1, true, 2.5 }) do results[k] = { pcall(function() return o[key] end) } end
              return results
            end
            local walked = 0
            for i, o in ipairs(fetch("L")) do
              local fromRow = reads(o)
              o:objectID()  -- makes the object: the reads below are Swift's
              local fromObject = reads(o)
              assert(fromRow[1][1] and fromRow[1][2] == i * 10, tostring(fromRow[1][2]))
              assert(fromRow[2][1] and fromRow[2][2] == i)
              for k = 1, 5 do
                assert(fromRow[k][1] == fromObject[k][1] and fromRow[k][2] == fromObject[k][2],
                  k .. ": " .. tostring(fromRow[k][2]) .. " / " .. tostring(fromObject[k][2]))
              end
              walked = walked + 1
            end
            assert(walked == 5)
            """#)
    }
}

/// A folder of a test's own for its files, removed when the test lets go of it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-rows-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
