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
-- Binary chunks can crash the VM, so every way in takes text only.
local loadfile = loadfile
_G.loadfile = function(path, mode, env) return loadfile(path, "t", env) end
_G.dofile = function(path)
  local chunk, message = loadfile(path, "t")
  if not chunk then error(message, 2) end
  return chunk()
end
package.searchers[2] = function(name)
  local path, message = package.searchpath(name, package.path)
  if not path then return "\n\t" .. message end
  local chunk, err = loadfile(path, "t")
  if not chunk then error(err, 2) end
  return chunk, path
end
-- debug.getupvalue and friends would reach the functions replaced above, through the
-- global and through require("debug") alike.
local restricted = { traceback = debug.traceback }
debug = restricted
package.loaded.debug = restricted
"""#
