// One input of the Lua fuzz target, shared by the libFuzzer target (Fuzz/) and the
// corpus replay test (Tests/QuarryLuaTests, through a symbolic link).
import CQuarryShim
import CQuarrySignals
import Foundation
import QuarryLua
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftInput

/// Runs the input as a Lua chunk in a fresh runtime over an in-memory store, in safe mode,
/// with the Lua heap capped at 64 MB and a one-second deadline, after a prelude that
/// defines `Item`, `Person` and `Tag` with a few saved objects (globals `items`, `first`,
/// `ann`, `bob`, `red`, `p`). Lua errors are fine; crashes and hangs are the findings.
/// Files go to a private directory: `import`, `export` and `writefile(name, text)` take a
/// bare name there. Returns what went wrong, or nil.
enum LuaFuzzDriver {
    static let directory: String = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-fuzz-lua-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }()

    /// Before the sandbox: file functions confined to `directory`.
    static let host = #"""
    local dir, open, import, export = DIRECTORY, io.open, import, export
    local function inside(path)
      if type(path) ~= "string" then return path end
      return dir .. "/f_" .. (path:gsub("[^%w%._-]", "_"))
    end
    local function confinedImport(path, options)
      if type(path) == "string" and options == nil then
        local base = (path:match("([^/]*)$"):gsub("%.[^.]*$", ""))
        options = { entity = base:sub(1, 1):upper() .. base:sub(2) }
      end
      return import(inside(path), options)
    end
    local function confinedExport(r, path) return export(r, inside(path)) end
    local function writefile(name, text)
      local f = assert(open(inside(name), "wb"))
      f:write(tostring(text))
      f:close()
      return true
    end
    _G.import, quarry.import = confinedImport, confinedImport
    _G.export, quarry.export = confinedExport, confinedExport
    _G.writefile = writefile
    """#

    /// After the sandbox: no standard input or output, no exit, and the fixture.
    static let prelude = #"""
    io, package.loaded.io, os.exit, dofile, loadfile, require = nil, nil, nil, nil, nil, nil
    print = function(...) for i = 1, select("#", ...) do tostring((select(i, ...))) end end
    entity "Item" {
      title = "string?", n = { "int64", default = 0, indexed = true }, x = "double?", flag = "bool?",
      when = "date?", data = "binary?", meta = "json?", uid = "uuid?", code = { "string", unique = true, default = "" },
      owner = { one = "Person", inverse = "items" }, tags = { many = "Tag", inverse = "items" },
    }
    entity "Person" { name = "string", age = "int?", boss = { one = "Person", inverse = "staff", delete = "nullify" } }
    entity "Tag" { name = "string?" }
    ann = Person:new{ name = "Ann", age = 41 }
    bob = Person:new{ name = "Bob", boss = ann }
    red, blue = Tag:new{ name = "red" }, Tag:new{ name = "Blue" }
    for i = 1, 6 do
      local o = Item:new{ title = "item " .. i, n = i, x = i / 2, flag = i % 2 == 0, when = date(1705940772 + i * 86400),
                          owner = i % 2 == 0 and ann or bob, meta = "{\"i\": " .. i .. "}", code = "c" .. i, data = "\0" .. i }
      o.tags:add(i % 3 == 0 and red or blue)
    end
    save()
    items = fetch{ "Item", sort = "n" }
    first = items[1]
    p = predicate("n > %@", 2)
    """#

    /// `storeDeadline` false leaves the deadline to Lua code alone: the process-wide one,
    /// which stops SQL and imports too, would reach other tests running at the same time.
    static func run(_ bytes: [UInt8], storeDeadline: Bool = true) -> String? {
        let code = String(decoding: bytes, as: UTF8.self)
        let runtime: QuarryRuntime
        do {
            runtime = try QuarryRuntime(context: try StoreOpener.open(nil), memoryLimit: 64 << 20, swiftReader: InProcessSwiftReader())
        } catch {
            return "cannot make a runtime: \(error)"
        }
        let quoted = "\"" + directory.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        if let failure = runtime.run(host.replacingOccurrences(of: "DIRECTORY", with: quoted), chunkName: "=(fuzz host)") {
            return "the host chunk failed: \(failure.message)"
        }
        do { try runtime.enterSandbox() } catch { return "the sandbox failed: \(error)" }
        if let failure = runtime.run(prelude, chunkName: "=(fuzz prelude)") { return "the prelude failed: \(failure.message)" }

        // quarry_set_deadline arms SIGALRM for the binary's hard stop, which ends the whole
        // process when a statement outlives the deadline by seconds of CPU: in a process
        // shared with other tests (their CPU counts) or under libFuzzer (which times inputs
        // with SIGALRM) it would end every run at once. The alarm as it was is put back,
        // so only the Lua hook's deadline stops the chunk.
        var handler = sigaction(), timer = itimerval()
        sigaction(SIGALRM, nil, &handler)
        getitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer)
        func restoreAlarm() {
            sigaction(SIGALRM, &handler, nil)
            setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
        }
        quarry_set_deadline(runtime.state, 1)
        if !storeDeadline { quarry_set_process_deadline(0) }
        restoreAlarm()
        _ = runtime.run(code, chunkName: "=fuzz")
        quarry_clear_hooks(runtime.state)
        restoreAlarm()
        return nil
    }
}
