import CLua
import QuarryLua
import QuarryStore
import Testing

/// The Lua/Swift border: Swift errors become clean Lua errors raised by the C
/// trampoline, never a longjmp through Swift; the stack stays balanced.
@Suite struct BoundaryTests {
    @Test func argumentErrorsReadAsLauxlibsAndCarryThePosition() throws {
        let h = try Harness()
        #expect(h.error("fetch(1)") == "t:1: bad argument #1 to 'fetch' (string expected, got number)")
        #expect(h.error("\n\ncount()") == "t:3: bad argument #1 to 'count' (string expected, got no value)")
        #expect(h.error("date({})") == "t:1: bad argument #1 to 'date' (ISO 8601 string or number expected, got table)")
        #expect(h.stackTop == 0)
    }

    /// Every bound function, called thousands of times with arguments of the wrong
    /// types, raises an ordinary Lua error that pcall catches, and the state stays usable.
    @Test func wrongArgumentsThousandsOfTimesGiveCleanErrors() throws {
        let h = try Harness()
        h.run(#"entity "Item" { title = "string", n = "int64" }; o = Item:new{ title = "x", n = 1 }; save(); r = fetch("Item")"#)
        h.run(
            #"""
            local targets = {
              fetch, count, entity, save, rollback, haschanges, date, now, typeof, predicate, entities, decimal,
              quarry.delete, quarry.objectID, quarry.changes, quarry.isInserted, quarry.isDeleted,
              Item.new, Item.fetch, Item.count, Item.first, Item.get,
              r.first, r.ids, r.totable,
              function(a, b) return o[a] end, function(a, b) o[a] = b end,
              function(a) return r[a] end, function(a, b) r[a] = b end,
              function(a) return #r end, function(a) return Item[a] end,
              function(a, b) return date(0) < a end, function(a) return date(0) - a end,
              function(a, b) return decimal("1.5") + a end, function(a) return decimal("1.5") < a end,
              function(a) return decimal("1") / a end, function(a) return a .. decimal("2") end,
            }
            local junk = { 1, 2.5, -1, 0, math.huge, "", "x", "Item", "n > ", "%K", {}, { "Item" }, true, false,
                           print, coroutine.create(print), io.stdout, date(0), decimal("1.50") }
            local errors, calls = 0, 0
            math.randomseed(42)
            for round = 1, 4000 do
              local f = targets[math.random(#targets)]
              local a, b = junk[math.random(#junk)], junk[math.random(#junk)]
              local ok, message = pcall(f, a, b)
              calls = calls + 1
              if not ok then
                errors = errors + 1
                assert(type(message) == "string", "error is not a string: " .. tostring(message))
                assert(not message:find("\n"), "error spans lines: " .. message)
              end
            end
            assert(calls == 4000)
            assert(errors > 1000, "expected most junk calls to fail, got " .. errors)
            rollback()
            assert(count("Item") == 1, "the store changed: " .. count("Item"))
            """#)
        #expect(h.stackTop == 0)
        #expect(h.string("fetch('Item')[1].title") == "x")
    }

    @Test func errorsInsideMetamethodsAndCallbacksStayCatchable() throws {
        let h = try Harness()
        h.run(#"entity "Item" { title = "string" }; o = Item:new{ title = "x" }"#)
        #expect(h.error("o.titel = 1") == "t:1: unknown key 'titel' on entity Item (did you mean 'title'?)")
        #expect(h.error("return o.nope") == "t:1: unknown key 'nope' on entity Item")
        #expect(h.error("o.title = {}") == "t:1: Item.title cannot hold a table")
        #expect(h.error("o.title = 5") == #"t:1: Item.title expects string, got integer (5)"#)
        h.run(#"local ok, e = pcall(function() o.title = 5 end); assert(not ok and e:find("expects string"))"#)
        #expect(h.string("o.title") == "x")
    }

    @Test func theMemoryCapIsALuaErrorNotACrash() throws {
        let h = try Harness(memoryLimit: 16 << 20)
        let message = h.error("local t = {} for i = 1, 1e8 do t[i] = ('x'):rep(100) .. i end")
        #expect(message.contains("not enough memory"))
        h.run("collectgarbage()")
        #expect(h.string("1 + 1") == "2")
    }

    @Test func deepRecursionIsAStackOverflowError() throws {
        let h = try Harness()
        let message = h.error("local function f() return 1 + f() end return f()")
        #expect(message.contains("stack overflow"))
    }
}
