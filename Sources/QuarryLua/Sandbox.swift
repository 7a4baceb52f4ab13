import CLua

extension QuarryRuntime {
    /// `--safe`: no processes, no C modules, no binary chunks, and no file writes; reading
    /// files stays possible. Done in Lua, where the standard library lives.
    public func enterSandbox() {
        if let failure = run(sandbox, chunkName: "=(quarry sandbox)") {
            fatalError("Quarry's sandbox failed to install: \(failure.message)")
        }
    }
}

private let sandbox = #"""
local function refuse(what)
  return function() error("--safe: " .. what .. " is not allowed", 2) end
end
os.execute = refuse("os.execute")
io.popen = refuse("io.popen")
os.remove = refuse("os.remove")
os.rename = refuse("os.rename")
os.tmpname = refuse("os.tmpname")
package.loadlib = refuse("package.loadlib")
package.cpath = ""
package.searchers[4] = nil
package.searchers[3] = nil
local open, output, load = io.open, io.output, load
io.open = function(path, mode)
  mode = mode or "r"
  if type(mode) ~= "string" or not mode:match("^r") or mode:find("+", 1, true) then
    error("--safe: opening '" .. tostring(path) .. "' for writing is not allowed", 2)
  end
  return open(path, mode)
end
io.output = function(file)
  if file ~= nil then error("--safe: io.output is not allowed", 2) end
  return output()
end
_G.load = function(chunk, name, mode, env)
  return load(chunk, name, "t", env)
end
quarry.load = _G.load
-- debug.getupvalue and friends would reach the functions replaced above.
debug = { traceback = debug.traceback }
"""#
