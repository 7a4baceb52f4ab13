import Foundation
import QuarryLua
import Testing

/// Bound functions live in the runtime's `BoundFunctions` block and reach the runtime
/// through an unowned pointer; the methods of each kind of userdata are bound when first
/// asked for. These pin down the paths that changed with that.
@Suite struct BoundFunctionTests {
    /// A method table first made inside a coroutine (its closures pushed on that thread's
    /// stack) serves the coroutine and, afterwards, the main thread.
    @Test func methodsFirstUsedInACoroutineWorkThereAndAfter() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Item" { title = "string" }
            Item:new{ title = "a" }
            save()
            local co = coroutine.wrap(function()
              local r = fetch("Item")
              coroutine.yield(r:first().title)
              return #r:totable()
            end)
            first = co()
            n = co()
            """#)
        #expect(h.string("first") == "a")
        #expect(h.string("n") == "1")
        #expect(h.string(#"fetch("Item"):first().title"#) == "a")
        #expect(h.error(#"fetch("Item"):nosuchmethod()"#).contains("nosuchmethod"))
        #expect(h.stackTop == 0)
    }

    /// A user `__gc` that runs while the runtime closes the state may call a bound
    /// function: it gets an ordinary error (the runtime is going away), not a crash.
    @Test func aBoundFunctionCalledWhileTheStateClosesRefuses() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-closing-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let h = try Harness()
            h.run(
                #"""
                entity "Item" { title = "string" }
                keep = setmetatable({}, { __gc = function()
                  local ok, message = pcall(count, "Item")
                  local f = io.open("\#(path)", "w")
                  f:write(tostring(ok), " ", tostring(message))
                  f:close()
                end })
                """#)
        }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == "false t:3: quarry is closing; 'count' cannot run now")
    }
}
