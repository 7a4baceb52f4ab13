import CLua
import Foundation
import QuarryLua
import Testing

/// Scripts that try to break the border between Lua and Swift; each case was once a
/// crash or a wrong answer.
@Suite struct HostileScriptTests {
    @Test func boundFunctionsAnswerOnTheCallingCoroutine() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { n = "int64" }; Item:new{ n = 1 }; save()
            local count, kind = coroutine.wrap(function() local r = fetch("Item") return #r, typeof(r) end)()
            assert(count == 1 and kind == "results", tostring(count) .. " " .. tostring(kind))
            coroutine.wrap(function() for i = 1, 20000 do fetch("Item") end end)()
            """#)
        #expect(h.stackTop == 0)
    }

    @Test func aFinalizerCallingQuarryWhileTheStateClosesIsRefused() throws {
        do {
            let h = try Harness()
            h.run("keep = setmetatable({}, { __gc = function() haschanges() end })")
        }
        // Reaching here without a trap is the test: the runtime closed cleanly.
        #expect(Bool(true))
    }

    @Test func aMetatableMovedOntoAnotherUserdataIsNotTrusted() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }"#)
        let message = h.error("local d = date(1); debug.setmetatable(d, debug.getmetatable(Item)); return d.name")
        #expect(message.contains("an entity expected"))
        // Quarry's __gc on a foreign userdata releases nothing.
        h.run("local f = debug.getmetatable(Item).__gc; f(io.stdout); f(date(0)); io.stdout:write('')")
    }

    @Test func theSandboxCannotBeLeftThroughRequireOrBinaryChunks() throws {
        let h = try Harness()
        try h.runtime.enterSandbox()
        h.run(#"assert(require("debug").getupvalue == nil and package.loaded.debug.getupvalue == nil)"#)
        h.run(#"assert(load(string.dump(function() end)) == nil)"#)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-hostile-\(getpid()).luac").path
        _ = FileManager.default.createFile(atPath: path, contents: Data([0x1B, 0x4C, 0x75, 0x61, 0x54, 0x00]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        h.run(#"assert(loadfile("\#(path)") == nil)"#)
        #expect(h.error(#"dofile("\#(path)")"#).contains("attempt to load a binary chunk"))
    }

    /// A script file that is a compiled chunk is refused under --safe naming the file,
    /// known by its first byte (after a byte order mark and a # line) as Lua knows it.
    @Test func aCompiledScriptFileIsRefusedUnderSafeByItsFirstByte() throws {
        let h = try Harness()
        try h.runtime.enterSandbox()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-chunk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiled: [UInt8] = [0x1B, 0x4C, 0x75, 0x61, 0x54, 0x00]
        let shebang = Array("#!/usr/bin/env quarry ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 5000) + [UInt8(ascii: "\n")]
        for (name, bytes) in [("plain.luac", compiled), ("marked.luac", [0xEF, 0xBB, 0xBF] + compiled), ("shebang.luac", shebang + compiled)] {
            let path = folder.appendingPathComponent(name).path
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            #expect(
                h.runtime.loadFile(path) == .failed("\(path): a compiled (binary) chunk cannot run under --safe; give the script as text"), "\(name)")
        }
        // Text after a # line loads; text that does not compile keeps Lua's own words.
        let text = folder.appendingPathComponent("text.lua").path
        _ = FileManager.default.createFile(atPath: text, contents: Data(shebang + Array("return 1\n".utf8)))
        #expect(h.runtime.loadFile(text) == .loaded)
        lua_settop(h.runtime.state, 0)
        let broken = folder.appendingPathComponent("broken.lua").path
        _ = FileManager.default.createFile(atPath: broken, contents: Data("return +\n".utf8))
        guard case .failed(let message) = h.runtime.loadFile(broken) else {
            Issue.record("broken text loaded")
            return
        }
        #expect(!message.contains("compiled (binary)"), "\(message)")
    }

    @Test func datesOutsideTheYearsZeroOneToNineNineNineNineAreErrors() throws {
        let h = try Harness()
        #expect(h.error("date(0/0)").contains("outside the years 0001 to 9999"))
        #expect(h.error("date(1e300)").contains("outside the years 0001 to 9999"))
        #expect(h.error("return date(1) + 1e308") == "t:1: date arithmetic left the years 0001 to 9999")
        #expect(h.string(#"date("9999-12-31T23:59:59Z")"#) == "9999-12-31T23:59:59Z")
        #expect(h.string(#"date("9999-12-31T23:59:59.999Z")"#) == "9999-12-31T23:59:59.999Z")
        // Every instant before 10000-01-01 is a date (the last one printed with its fraction
        // cut, never rounded into the year 10000); the year 10000 itself is refused.
        #expect(h.string(#"date("9999-12-31T23:59:59.9999Z")"#)?.hasPrefix("9999-12-31T23:59:59") == true)
        #expect(h.error(#"date("10000-01-01T00:00:00Z")"#) != "")
    }

    /// `history.prune` without a token names itself and the way to a token, not the
    /// internal binding behind it; it takes one token, and refuses a second argument.
    @Test func historyPruneWithoutATokenNamesItself() throws {
        let h = try Harness()
        let message = h.error("history.prune()")
        #expect(message.contains("bad argument #1 to 'prune'") && message.contains("historytoken()"), "\(message)")
        #expect(!message.contains("__prune"), "\(message)")
        #expect(h.error(#"history.prune("x")"#).contains("got string"))
        // One token: a second argument is refused, not ignored (issue 81).
        let second = h.error("history.prune(1, 2)")
        #expect(second.contains("bad argument #2 to 'prune' (no value expected, got number"), "\(second)")
        #expect(h.error("history.prune(1, nil)").contains("bad argument #2 to 'prune'"))
    }

    @Test func deeplyNestedPredicatesAreAnErrorNotACrash() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }"#)
        #expect(h.error("count('Item', ('('):rep(10000) .. 'n > 1' .. (')'):rep(10000))").contains("nests more than 256 levels"))
        #expect(h.error("count('Item', ('NOT '):rep(100000) .. 'n > 1')").contains("nests more than 256 levels"))
        #expect(h.string("count('Item', ('('):rep(100) .. 'n > 1' .. (')'):rep(100))") == "0")
    }

    /// Long chains of OR and AND run: SQLite refuses an expression tree past 1,000 deep,
    /// and a chain of 1,200 terms was one ("Expression tree is too large"). The answers
    /// agree with the evaluator in memory.
    @Test func longChainsOfOrAndAndRun() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }; for i = 1, 30 do Item:new{ n = i } end; save()"#)
        h.run(
            """
            local ors, ands = {}, {}
            for i = 1, 1200 do ors[#ors + 1] = "n == " .. (i * 7); ands[#ands + 1] = "n != " .. (i * 3) end
            por, pand = table.concat(ors, " OR "), table.concat(ands, " AND ")
            local function inMemory(p) local k = 0; for _, o in ipairs(fetch("Item")) do if predicate(p):matches(o) then k = k + 1 end end; return k end
            memoryOr, memoryAnd = inMemory(por), inMemory(pand)
            """)
        #expect(h.string("count('Item', por)") == "4")
        #expect(h.string("count('Item', pand)") == "20")
        #expect(h.string("memoryOr .. ' ' .. memoryAnd") == "4 20")
        #expect(h.string("#fetch{ 'Item', predicate = '(' .. por .. ') AND (' .. pand .. ')' }") == "3")
    }

    @Test func hugeIndexesAndOffsetsAreEmptyNotATrap() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64" }; Item:new{ n = 1 }; save()"#)
        h.run("assert(fetch{ 'Item', offset = 1000 }[math.maxinteger] == nil)")
        h.run("assert(fetch{ 'Item', offset = math.maxinteger }[1] == nil)")
    }

    @Test func messagesStayOnOneLine() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64?" }"#)
        let message = h.error(#"Item:new{ n = "a\nb" }"#)
        #expect(!message.contains("\n") && message.contains(#"a\nb"#))
    }

    @Test func finalizersCannotRunInsideSwift() throws {
        let h = try Harness(memoryLimit: 64 << 20)
        // A finalizer that allocates a lot would have escaped the cap if it ran while a
        // bound function allocated; now it runs under Lua's own accounting.
        h.run(
            #"""
            setmetatable({}, { __gc = function() local t = {} for i = 1, 2e7 do t[i] = i end filled = #t end })
            for i = 1, 200000 do now() end
            collectgarbage()
            assert(filled == nil, "the finalizer escaped the memory cap")
            """#)
    }
}
