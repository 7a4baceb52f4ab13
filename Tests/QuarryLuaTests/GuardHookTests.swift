import QuarryLua
import Testing

/// Lua runs without a count hook unless something must be checked from inside it (in
/// Lua 5.4 any count hook slows every instruction): the main thread has the guard only
/// under a deadline or a memory limit, coroutines always (SIGINT cannot find them), and
/// the small blocks the allocator keeps for reuse hide nothing from `--memory`. Ctrl-C
/// itself is tried on the real binary (LoopInterruptTests).
@Suite struct GuardHookTests {
    @Test func theMainThreadIsGuardedOnlyWhenSomethingNeedsChecking() throws {
        let plain = try Harness()
        #expect(plain.string("debug.gethook()") == "nil", "no deadline, no limit: no hook")
        plain.runtime.setDeadline(seconds: 60)
        #expect(plain.string("debug.gethook()") == "external hook", "a deadline is checked by the hook")
        plain.runtime.clearStopRequests()
        #expect(plain.string("debug.gethook()") == "nil", "cleared with the deadline")

        let capped = try Harness(memoryLimit: 8 << 20)
        #expect(capped.string("debug.gethook()") == "external hook", "a memory limit is checked by the hook")
        capped.runtime.clearStopRequests()
        #expect(capped.string("debug.gethook()") == "external hook", "the limit outlives the batch part")
    }

    @Test func coroutinesAreAlwaysGuarded() throws {
        let h = try Harness()
        h.run(
            """
            co = coroutine.create(function() coroutine.yield(debug.gethook()) end)
            wrapped = coroutine.wrap(function() return debug.gethook() end)
            """)
        #expect(h.string("debug.gethook(co)") == "external hook")
        #expect(h.string("select(2, coroutine.resume(co))") == "external hook", "inside the coroutine")
        #expect(h.string("wrapped()") == "external hook", "coroutine.wrap's thread too")
        #expect(h.string("debug.gethook()") == "nil", "the main thread is still unguarded")
    }

    /// Many small values past the limit are refused; as many made and dropped over and
    /// over are not, and the heap goes back to where it was.
    @Test func smallBlocksKeptForReuseCountAsBefore() throws {
        let h = try Harness(memoryLimit: 4 << 20)
        let message = h.error("local t = {} for i = 1, 1e6 do t[i] = {} end")
        #expect(message.contains("not enough memory"), "\(message)")
        h.run(
            """
            collectgarbage(); collectgarbage()
            base = collectgarbage("count")
            for k = 1, 100 do local t = {} for i = 1, 5000 do t[i] = { i } end end
            collectgarbage(); collectgarbage()
            grown = collectgarbage("count") - base
            """)
        let grown = Double(h.string("grown") ?? "") ?? .infinity
        #expect(grown < 64, "the heap grew by \(grown) KB")
    }
}
