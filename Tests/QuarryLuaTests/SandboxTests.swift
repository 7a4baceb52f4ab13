import QuarryLua
import Testing

/// `--safe`: scripts someone else wrote cannot run programs, load C, or write files.
@Suite struct SandboxTests {
    @Test func dangerousFunctionsRaiseAndReadingStillWorks() throws {
        let h = try Harness()
        try h.runtime.enterSandbox()
        #expect(h.error(#"os.execute("true")"#) == "t:1: --safe: os.execute is not allowed")
        #expect(h.error(#"io.popen("ls")"#) == "t:1: --safe: io.popen is not allowed")
        #expect(h.error(#"io.open("/tmp/quarry-sandbox-test", "w")"#) == "t:1: --safe: opening '/tmp/quarry-sandbox-test' for writing is not allowed")
        #expect(h.error(#"io.open("/tmp/quarry-sandbox-test", "r+")"#).contains("for writing is not allowed"))
        #expect(h.error(#"os.remove("/tmp/x")"#) == "t:1: --safe: os.remove is not allowed")
        #expect(h.error(#"package.loadlib("libc.so.6", "puts")"#) == "t:1: --safe: package.loadlib is not allowed")
        #expect(h.error("debug.getupvalue(print, 1)").contains("attempt to call a nil value"))
        h.run(#"assert(load(string.dump(function() end)) == nil)"#)
        h.run(#"assert(io.open("/proc/self/status", "r")):close()"#)
        h.run(#"entity "Item" { n = "int64" }; Item:new{ n = 1 }; save(); assert(count("Item") == 1)"#)
    }
}
