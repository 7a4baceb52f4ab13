import Foundation
import Testing

/// Two processes on one file: what one saves, the other's observers hear, and so do
/// changes made with the sqlite3 shell, which keeps no history.
@Suite struct OtherProcessTests {
    private func sqlite3() throws -> URL {
        for path in ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"] where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        throw HarnessError("the sqlite3 shell is not installed (scripts/test installs it)")
    }

    @Test func observersHearAnotherQuarryAndTheSqlite3Shell() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry([
            "store.db", "-e", #"entity "Item" { title = "string", n = "int64" }; for i = 1, 3 do Item:new{ title = "t" .. i, n = i } end; save()"#
        ])
        let sqlite = try sqlite3()
        let quarry = try QuarryBinary.url()
        let result = try await sandbox.quarry([
            "store.db", "-e",
            """
            local r = fetch{ "Item", sort = "n" }
            observe(r, function(ev) print("results", #ev.inserted, #ev.updated, #ev.deleted, #ev.moved) end)
            observe("Item", function(ch) print("entity", #ch.inserted, #ch.updated, #ch.deleted) end)
            local before = historytoken()
            os.execute([[\(quarry.path) store.db -e 'Item:new{ title = "other", n = 0 }; Item:get(2).title = "changed"; save{ author = "other" }']])
            print("noticed", refresh())
            os.execute([[\(sqlite.path) store.db "UPDATE Item SET n = 10 WHERE _pk = 1"]])
            print("noticed", refresh())
            print("noticed", refresh())
            local tx = history{ since = before }
            print(#tx, tx[1].author, tx[1].inserted[1], tx[1].updated[1])
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                results\t1\t1\t0\t0
                entity\t1\t1\t0
                noticed\ttrue
                results\t0\t0\t0\t1
                entity\t0\t1\t0
                noticed\ttrue
                noticed\tfalse
                1\tother\tItem/4\tItem/2

                """, "\(result)")
    }

    /// A save that only links objects records a transaction naming both ends (it recorded
    /// none, so another session heard nothing); a to-one moved names the owners it left
    /// and joined. The other session's observers hear them as updated.
    @Test func anotherProcessesLinksAreRecordedAndHeard() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry([
            "store.db", "-e",
            #"""
            entity "Tag" { name = "string", posts = { many = "Post", inverse = "tags" } }
            entity "Author" { name = "string", posts = { many = "Post", inverse = "author" } }
            entity "Post" { title = "string", tags = { many = "Tag", inverse = "posts" }, author = { one = "Author", inverse = "posts" } }
            local a = Author:new{ name = "a" }; Author:new{ name = "b" }; Tag:new{ name = "t" }
            Post:new{ title = "p", author = a }
            save()
            """#
        ])
        let quarry = try QuarryBinary.url()
        let result = try await sandbox.quarry([
            "store.db", "-e",
            """
            observe("Tag", function(ch) for _, o in ipairs(ch.updated) do print("tag", o.name, #o.posts) end end)
            observe("Author", function(ch) for _, o in ipairs(ch.updated) do print("author", o.name, #o.posts) end end)
            local before = historytoken()
            os.execute([[\(quarry.path) store.db -e 'Post:get(1).tags:add(Tag:get(1)); print(save().updated)']])
            print("noticed", refresh())
            os.execute([[\(quarry.path) store.db -e 'Post:get(1).author = Author:get(2); print(save().updated)']])
            print("noticed", refresh())
            for _, tx in ipairs(history{ since = before }) do table.sort(tx.updated); print(table.concat(tx.updated, " ")) end
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "2", "tag\tt\t1", "noticed\ttrue",
                // save() counts the post, whose row it writes; observers and history also
                // have the authors it left and joined.
                "1", "author\ta\t0", "author\tb\t1", "noticed\ttrue",
                "Post/1 Tag/1", "Author/1 Author/2 Post/1"
            ], "\(result)")
    }

    /// A sandbox whose `cars.db` holds a Car, a SportCar and a Truck (keys 1, 2, 3).
    private func threeCars() async throws -> Sandbox {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "cars.db", "-e",
            #"""
            entity "Car" { name = "string" }
            entity("SportCar", { parent = "Car" }) { turbo = "bool" }
            entity("Truck", { parent = "Car" }) { load = "int64" }
            Car:new{ name = "plain" } SportCar:new{ name = "fast", turbo = true } Truck:new{ name = "big", load = 3 }
            save()
            """#
        ])
        #expect(made.status == 0, "\(made)")
        return sandbox
    }

    /// Rows of a parent's results that another program deletes before their objects were
    /// made are heard as the entity each row was: the batch read each row's entity column
    /// (the row is gone when the object is made, so a query for it finds nothing).
    @Test func rowsDeletedOutsideAreHeardAsTheirOwnEntity() async throws {
        let sandbox = try await threeCars()
        let sqlite = try sqlite3()
        let result = try await sandbox.quarry([
            "cars.db", "-e",
            """
            local held = {}
            for _, o in ipairs(fetch("Car")) do held[#held + 1] = o end
            local heard = {}
            observe("Car", function(ch) for _, o in ipairs(ch.deleted) do heard[#heard + 1] = o:objectID() end end)
            os.execute([[\(sqlite.path) cars.db 'DELETE FROM Car']])
            refresh()
            table.sort(heard)
            print(table.concat(heard, " "))
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Car/1 SportCar/2 Truck/3\n", "\(result)")
    }

    /// Rows another program deletes before anything here read them (results counted, never
    /// indexed) are still heard with an object each, as the entity each row was: the
    /// results event's `object` (the contract's `{index=i, object=o}`) and the entity
    /// observer's, never the abstract parent nor a missing object.
    @Test func rowsNeverReadAndDeletedOutsideAreHeardAsTheirOwnEntity() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "v.db", "-e",
            #"""
            entity("Vehicle", { abstract = true }) { name = "string" }
            entity("Car", { parent = "Vehicle" }) { doors = "int64" }
            entity("Truck", { parent = "Vehicle" }) { load = "int64" }
            entity "Item" { name = "string" }
            Car:new{ name = "a", doors = 2 } Truck:new{ name = "b", load = 3 } Car:new{ name = "c", doors = 4 }
            for i = 1, 3 do Item:new{ name = "i" .. i } end
            save()
            """#
        ])
        #expect(made.status == 0, "\(made)")
        let sqlite = try sqlite3()
        let result = try await sandbox.quarry([
            "v.db", "-e",
            """
            local heard = {}
            local function listen(r, label)
              observe(r, function(ev)
                for _, d in ipairs(ev.deleted) do heard[#heard + 1] = label .. " " .. d.index .. " " .. d.object:objectID() .. " " .. d.object:entity().name end
              end)
            end
            local vehicles, items = fetch{ "Vehicle", sort = { "name" } }, fetch{ "Item", sort = { "name" } }
            print(#vehicles, #items)
            listen(vehicles, "results")
            listen(items, "items")
            observe("Vehicle", function(ch) for _, o in ipairs(ch.deleted) do heard[#heard + 1] = "entity " .. o:objectID() end end)
            os.execute([[\(sqlite.path) v.db 'DELETE FROM Vehicle WHERE _pk IN (2, 3); DELETE FROM Item WHERE _pk = 2']])
            refresh()
            table.sort(heard)
            print(table.concat(heard, "\\n"))
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                3\t3
                entity Car/3
                entity Truck/2
                items 2 Item/2 Item
                results 2 Truck/2 Truck
                results 3 Car/3 Car

                """, "\(result)")
    }

    /// The same holds for results with a window over unsaved changes (the stored rows they
    /// show are not the stored query's window), and each such row is one Lua value for
    /// every observer that hears it, as a row read here is.
    @Test func rowsNeverReadAndDeletedOutsideAreOneObjectOfTheirOwnEntity() async throws {
        let sandbox = try await threeCars()
        let sqlite = try sqlite3()
        let result = try await sandbox.quarry([
            "cars.db", "-e",
            """
            -- The window shows "fast" (a SportCar) where the stored rows' first is "big".
            Car:first("name == 'big'"):delete()
            local window = fetch{ "Car", sort = { "name" }, limit = 1 }
            local whole = fetch{ "Car", sort = { "name" } }
            local got = {}
            observe(window, function(ev) for _, d in ipairs(ev.deleted) do got[#got + 1] = d.object end end)
            observe(whole, function(ev) for _, d in ipairs(ev.deleted) do got[#got + 1] = d.object end end)
            observe("Car", function(ch) for _, o in ipairs(ch.deleted) do got[#got + 1] = o end end)
            os.execute([[\(sqlite.path) cars.db 'DELETE FROM Car WHERE _pk = 2']])
            refresh()
            print(#got, got[1]:objectID(), rawequal(got[1], got[2]), rawequal(got[1], got[3]))
            rollback()
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "3\tSportCar/2\ttrue\ttrue\n", "\(result)")
    }

    /// A row of a parent's results whose entity another program changed, before its object
    /// was made, is made as the entity it is now, not as the one it was read as.
    @Test func rowsWhoseEntityChangedOutsideAreMadeAsTheirNewEntity() async throws {
        let sandbox = try await threeCars()
        let sqlite = try sqlite3()
        let result = try await sandbox.quarry([
            "cars.db", "-e",
            """
            local r = fetch("Car")
            local o = r[2]
            local heard = {}
            observe("Car", function(ch) for _, x in ipairs(ch.deleted) do heard[#heard + 1] = "deleted " .. x:objectID() end end)
            os.execute([[\(sqlite.path) cars.db "UPDATE Car SET _entity = 'Truck' WHERE _pk = 2"]])
            refresh()
            print(o:objectID(), fetch("Truck", "name == 'fast'")[1]:objectID(), #heard)
            """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Truck/2\tTruck/2\t0\n", "\(result)")
    }

    @Test func theREPLShowsAnotherProcessesChangeWhileWaiting() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", #"entity "Item" { title = "string", n = "int64" }; Item:new{ title = "a", n = 1 }; save()"#])
        let repl = try await TmuxSession(sandbox, arguments: ["store.db"])
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"observe(fetch("Item", "n > 5"), function(ev) print("live:", #ev.inserted) end)"#)
        try await repl.type("count(")
        _ = try await sandbox.run(try sqlite3(), ["store.db", "UPDATE Item SET n = 20"])
        let screen = try await repl.waitUntil("the observer's output") { lines in lines.contains { $0.hasPrefix("live:") } }
        #expect(screen.contains { $0.hasPrefix("live:") && $0.hasSuffix("1") }, "\(screen)")
        #expect(screen.last { !$0.isEmpty } == "> count(", "the line being typed is redrawn: \(screen)")
    }
}

/// A long SQLite statement stops at the deadline too, not only Lua code.
@Suite struct LongStatementTests {
    @Test func timeoutStopsALongQuery() async throws {
        let sandbox = try Sandbox()
        let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
        try #require(FileManager.default.isExecutableFile(atPath: sqlite.path), "the sqlite3 shell is not installed")
        _ = try await sandbox.run(
            sqlite,
            [
                "big.db",
                "CREATE TABLE t (x TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400000) INSERT INTO t SELECT 'row ' || i FROM n;"
            ])
        let result = try await sandbox.quarry([
            "--timeout", "0.5", "big.db", "-e", #"print(count("t", "x MATCHES %@", ".*9.*9.*9.*9.*"))"#
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "(command line):1: timeout: the script ran past its time limit\n", "\(result)")
        // A query that never ends is stopped inside SQLite, not only between statements:
        // without that this run would go on until the harness gave up on it, whatever the
        // machine's speed (no clock is read here).
        let endless = try await sandbox.quarry([
            "--timeout", "0.5", "big.db", "-e",
            #"print(sql("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"))"#
        ])
        #expect(endless.status == 1, "\(endless)")
        #expect(endless.stderr == "(command line):1: sql: timeout: the script ran past its time limit\n", "\(endless)")
    }
}

/// Several processes saving into one file at once: no "database is locked", nothing lost.
@Suite struct ConcurrentWriterTests {
    @Test func threeWritersLoseNothing() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", #"entity "Hit" { writer = "int64", i = "int64" }"#])
        let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
            for writer in 1...3 {
                group.addTask {
                    try await sandbox.quarry(["store.db", "-e", "for i = 1, 40 do Hit:new{ writer = \(writer), i = i }; save() end"], timeout: 60)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results { #expect(result.status == 0, "\(result)") }
        let counted = try await sandbox.quarry(["store.db", "-e", #"print(count("Hit"), #history())"#])
        #expect(counted.stdout == "120\t120\n", "one transaction per save: \(counted)")
    }
}

/// Killed with SIGKILL while saving in a loop: every save it reported is there, no save
/// is there in part, and the file passes SQLite's integrity check.
@Suite struct CrashSafetyTests {
    @Test func killedMidSaveLosesNothingReported() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", #"entity "Row" { batch = "int64", i = "int64" }"#])
        try sandbox.write(
            "saver.lua",
            """
            local batch = count("Row") // 3
            while true do
              batch = batch + 1
              for i = 1, 3 do Row:new{ batch = batch, i = i } end
              save()
              io.write("saved ", batch, "\\n"); io.flush()
            end
            """)
        let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
        for round in 1...5 {
            let out = sandbox.path("saver-\(round).out")
            let pid = try ChildProcess.spawn(
                try QuarryBinary.url().path, ["store.db", "saver.lua"], environment: sandbox.environment(),
                directory: sandbox.directory.path, stdin: "/dev/null", stdout: out, stderr: "/dev/null")
            try await Task.sleep(nanoseconds: UInt64(150 + 70 * round) * 1_000_000)
            kill(pid, SIGKILL)
            _ = try await ChildProcess.wait(pid, timeout: 10)
            let reported =
                (try String(contentsOfFile: out, encoding: .utf8)).split(separator: "\n").last.flatMap { Int($0.split(separator: " ").last ?? "") }
                ?? 0
            let check = try await sandbox.quarry(["store.db", "-e", #"print(count("Row"), count("Row", "i == 3"))"#])
            let numbers = check.stdout.split(whereSeparator: { $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
            try #require(numbers.count == 2, "\(check)")
            #expect(numbers[0] % 3 == 0 && numbers[0] / 3 == numbers[1], "no partial save: \(numbers)")
            #expect(numbers[1] >= reported, "round \(round): reported \(reported) saves, found \(numbers[1])")
            if FileManager.default.isExecutableFile(atPath: sqlite.path) {
                let integrity = try await sandbox.run(sqlite, ["-cmd", ".timeout 5000", "store.db", "PRAGMA integrity_check"])
                #expect(integrity.stdout == "ok\n", "\(integrity)")
            }
        }
        let total = try await sandbox.quarry(["store.db", "-e", #"print(count("Row") > 0)"#])
        #expect(total.stdout == "true\n", "the saver saved before it was killed: \(total)")
    }
}
