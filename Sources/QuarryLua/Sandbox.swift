import CLua

extension QuarryRuntime {
    /// `--safe`: no processes, no C modules, no binary chunks, and no file writes; reading
    /// files stays possible. Done in Lua, where the standard library lives; script files
    /// and `.read` are compiled as text only too (`loadFile`).
    public func enterSandbox() throws {
        if let failure = run(sandbox, chunkName: "=(quarry sandbox)") {
            throw LuaError("--safe could not be set up: \(failure.message)")
        }
        settings.safe = true
    }
}

private let sandbox = #"""
    -- Every check below calls only functions captured here, before any script runs: a script
    -- can replace string.match, type or the string metatable, but not these locals.
    local type, tostring, error, rawequal = type, tostring, error, rawequal
    local open, output, load, loadfile = io.open, io.output, load, loadfile
    local searchpath, package = package.searchpath, package
    local function refuse(what)
      return function() error("--safe: " .. what .. " is not allowed", 2) end
    end
    os.execute = refuse("os.execute")
    io.popen = refuse("io.popen")
    io.tmpfile = refuse("io.tmpfile")
    os.remove = refuse("os.remove")
    os.rename = refuse("os.rename")
    os.tmpname = refuse("os.tmpname")
    package.loadlib = refuse("package.loadlib")
    package.cpath = ""
    package.searchers[4] = nil
    package.searchers[3] = nil
    -- Reading only: the two modes that read, compared as whole strings (no pattern matching).
    io.open = function(path, mode)
      if mode == nil then mode = "r" end
      if not (rawequal(mode, "r") or rawequal(mode, "rb")) then
        error("--safe: opening '" .. tostring(path) .. "' for writing is not allowed", 2)
      end
      return open(path, mode)
    end
    io.output = function(file)
      if file ~= nil then error("--safe: io.output is not allowed", 2) end
      return output()
    end
    -- Binary chunks can crash the VM, so every way in takes text only.
    _G.load = function(chunk, name, mode, env)
      return load(chunk, name, "t", env)
    end
    quarry.load = _G.load
    _G.loadfile = function(path, mode, env) return loadfile(path, "t", env) end
    _G.dofile = function(path)
      local chunk, message = loadfile(path, "t")
      if not chunk then error(message, 2) end
      return chunk()
    end
    package.searchers[2] = function(name)
      local path, message = searchpath(name, package.path)
      if not path then return "\n\t" .. tostring(message) end
      local chunk, err = loadfile(path, "t")
      -- Level 3: the script that called require, past require itself (a C function).
      if not chunk then error(err, 3) end
      return chunk, path
    end
    -- debug.getupvalue and friends would reach the functions replaced above, through the
    -- global and through require("debug") alike.
    local restricted = { traceback = debug.traceback }
    debug = restricted
    package.loaded.debug = restricted
    """#
