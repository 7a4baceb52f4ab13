import CLua
import Foundation
import QuarryLua
import Testing

/// `--safe` against a script that first rewrites the standard library: every escape the
/// second hostile review found (a mode check through a replaceable `string.match`,
/// `io.tmpfile`, binary chunks), tried after each table a script can modify was tampered
/// with. Each attempt must fail and leave no file behind.
@Suite struct SandboxTamperingTests {
    /// Ways a script rewrites the library before it tries to escape.
    static let tamperings: [(name: String, code: String)] = [
        (
            "string functions",
            #"string.match = function() return "r" end; string.find = function() return nil end; string.sub = function() return "r" end; string.byte = function() return 114 end"#
        ),
        ("the string metatable", #"getmetatable("").__index = setmetatable({}, { __index = function() return function() return "r" end end })"#),
        (
            "base functions",
            #"type = function() return "string" end; tostring = function() return "r" end; rawequal = function() return true end; error = function() end; select = function() return "r" end"#
        ),
        (
            "every function of every library table",
            #"""
            local stub = function() return true end
            for _, name in ipairs({ "string", "table", "math", "io", "os", "package", "coroutine", "utf8" }) do
              local t = _G[name]
              for k, v in next, t do if type(v) == "function" and k ~= "open" and k ~= "tmpfile" then t[k] = stub end end
            end
            for _, k in ipairs({ "type", "tostring", "rawequal", "error", "select", "next", "pairs", "ipairs", "assert", "rawget", "rawset", "setmetatable", "getmetatable" }) do _G[k] = stub end
            """#
        )
    ]

    /// Escapes, each a chunk that must raise or return a falsy value, given a path in
    /// a fresh folder (PATH) and a binary chunk file (BINARY), with the library captured
    /// before tampering as `lib`.
    static let escapes: [(name: String, code: String)] = [
        ("io.open for writing", #"return lib.open(PATH, "w")"#),
        ("io.open for appending", #"return lib.open(PATH, "a")"#),
        ("io.open read and write", #"return lib.open(PATH, "r+")"#),
        ("io.open binary writing", #"return lib.open(PATH, "wb")"#),
        ("io.open with a table for mode", #"return lib.open(PATH, setmetatable({}, { __eq = function() return true end }))"#),
        ("io.tmpfile", #"return lib.tmpfile()"#),
        ("io.output to a path", #"return lib.output(PATH)"#),
        ("os.execute", #"return lib.execute("touch " .. PATH)"#),
        ("io.popen", #"return lib.popen("touch " .. PATH)"#),
        ("os.tmpname", #"return lib.tmpname()"#),
        ("os.rename", #"return lib.rename(BINARY, PATH)"#),
        ("package.loadlib", #"return lib.loadlib("libc.so.6", "system")"#),
        ("load of a binary chunk", #"return lib.load(lib.dump(function() end))"#),
        ("load of a binary chunk in mode b", #"return lib.load(lib.dump(function() end), "x", "b")"#),
        ("loadfile of a binary chunk", #"return lib.loadfile(BINARY)"#),
        ("loadfile of a binary chunk in mode b", #"return lib.loadfile(BINARY, "b")"#),
        ("dofile of a binary chunk", #"return lib.dofile(BINARY)"#),
        ("require of a binary chunk", #"lib.package.path = lib.folder .. "/?.luac"; return lib.require("chunk")"#),
        ("debug library", #"return lib.debug.getupvalue(lib.open, 1)"#)
    ]

    @Test(arguments: 0..<tamperings.count)
    func noEscapeAfterTampering(_ tampering: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-sandbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("written").path
        let binary = folder.appendingPathComponent("chunk.luac").path
        // A real binary chunk, made by a runtime that is not sandboxed.
        let maker = try Harness()
        maker.run("local f = assert(io.open(\(quoted(binary)), 'wb')); f:write(string.dump(function() return 42 end)); f:close()")

        let (name, tamper) = Self.tamperings[tampering]
        for (escape, attempt) in Self.escapes {
            let h = try Harness()
            try h.runtime.enterSandbox()
            let chunk = """
                local lib = { open = io.open, tmpfile = io.tmpfile, output = io.output, execute = os.execute, popen = io.popen,
                  tmpname = os.tmpname, rename = os.rename, loadlib = package.loadlib, load = load, dump = string.dump,
                  loadfile = loadfile, dofile = dofile, require = require, package = package, debug = debug,
                  folder = \(quoted(folder.path)) }
                local pcall = pcall
                local PATH, BINARY = \(quoted(target)), \(quoted(binary))
                \(tamper)
                local ok, result = pcall(function() \(attempt) end)
                if ok and result then __escaped = true end
                """
            _ = h.runtime.run(chunk, chunkName: "=t")
            // Read without calling Lua: the tampering may have replaced tostring.
            lua_getglobal(h.runtime.state, "__escaped")
            let escaped = lua_toboolean(h.runtime.state, -1) != 0
            lua_settop(h.runtime.state, -2)
            #expect(!escaped, "after tampering with \(name), \(escape) succeeded")
            #expect(!FileManager.default.fileExists(atPath: target), "after tampering with \(name), \(escape) wrote \(target)")
            try? FileManager.default.removeItem(atPath: target)
        }
        // The binary chunk is intact (os.rename did not move it) and runs outside --safe.
        #expect(maker.string("dofile(\(quoted(binary)))") == "42")
    }

    @Test func readingStillWorksAfterTampering() throws {
        let h = try Harness()
        try h.runtime.enterSandbox()
        h.run(#"string.match = function() return nil end; getmetatable("").__index = {}"#)
        h.run(#"local f = assert(io.open("/proc/self/status")); f:close(); f = assert(io.open("/proc/self/status", "rb")); f:close()"#)
    }
}

private func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
