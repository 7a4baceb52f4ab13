import CLua
import CQuarryShim
import Foundation
import QuarryModel
import QuarryStore

/// A Lua error that reached Swift: the message, and the traceback when one was taken.
public struct LuaFailure: Error, CustomStringConvertible {
    public var message: String
    public var traceback: String?
    /// The value a Swift function threw, when the failure is that error as it was raised
    /// (a `PredicateTextError`, a `StoreError`, ...); nil for Lua's own errors and for one a
    /// script caught and raised as something else. `message` is its rendered line.
    public var error: Error?
    public var description: String { message }

    public init(message: String, traceback: String? = nil, error: Error? = nil) {
        self.message = message
        self.traceback = traceback
        self.error = error
    }
}

public enum LoadResult: Equatable {
    /// The chunk is on the stack, ready to call.
    case loaded
    /// A syntax error at the end of the input: more lines may complete it.
    case incomplete(String)
    case failed(String)
}

extension QuarryRuntime {
    /// Compiles `code` (text only) and pushes the chunk.
    public func load(_ code: String, chunkName: String) -> LoadResult {
        load(code, chunkName: chunkName, endedLine: false)
    }

    /// `endedLine`: `code` is a line already given its end, so a string still unfinished
    /// (a `\z` swallows the end) is not given another.
    private func load(_ code: String, chunkName: String, endedLine: Bool) -> LoadResult {
        loadedChunks[chunkName] = code
        var code = code
        let status = code.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(state, $0.baseAddress, $0.count, chunkName, "t") }
        }
        let outcome = loadOutcome(status)
        // A quoted string cut off at the end of the input cannot go on at the next line
        // (only after a backslash): said at once, as Lua says it for a string cut off
        // mid-chunk, rather than waiting for a line that would only make it a worse error.
        if !endedLine, case .incomplete(let message) = outcome, message.hasSuffix("unfinished string near <eof>"), !code.hasSuffix("\\") {
            return load(code + "\n", chunkName: chunkName, endedLine: true)
        }
        return outcome
    }

    /// Compiles a script file (a leading `#!` line is skipped) and pushes the chunk;
    /// under `--safe` text only, as `load` and `loadfile` are there.
    public func loadFile(_ path: String) -> LoadResult {
        let outcome = loadOutcome(quarry_loadfile(state, path, isSandboxed ? "t" : "bt"))
        // Lua names no file when it refuses a binary chunk: known by the file's first byte,
        // as Lua knows it, not by Lua's words.
        if case .failed = outcome, isSandboxed, Self.holdsBinaryChunk(path) {
            return .failed("\(path): a compiled (binary) chunk cannot run under --safe; give the script as text")
        }
        return outcome
    }

    /// Whether the file at `path` holds a compiled chunk as `luaL_loadfilex` tells one:
    /// after a UTF-8 byte order mark and a first line starting with `#`, the next byte is
    /// the signature's first (ESC).
    static func holdsBinaryChunk(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        var data = (try? handle.read(upToCount: 4096)) ?? Data()
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        if data.first == UInt8(ascii: "#") {
            // The first line may be longer than one read.
            while data.firstIndex(of: UInt8(ascii: "\n")) == nil {
                guard let more = try? handle.read(upToCount: 4096), !more.isEmpty else { return false }
                data = more
            }
            guard let end = data.firstIndex(of: UInt8(ascii: "\n")) else { return false }
            data = data[data.index(after: end)...]
            if data.isEmpty { data = (try? handle.read(upToCount: 1)) ?? Data() }
        }
        return data.first == 0x1B
    }

    /// Whether `code` is not cut off mid-statement (it compiles, or fails for another
    /// reason than ending too soon); nothing is run or left on the stack.
    public func isFinishedChunk(_ code: String) -> Bool {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        if case .incomplete = load(code, chunkName: "=check") { return false }
        return true
    }

    private func loadOutcome(_ status: Int32) -> LoadResult {
        if status == LUA_OK { return .loaded }
        let message = luaString(state, -1)
        quarry_pop(state, 1)
        if status == LUA_ERRSYNTAX, message.hasSuffix("<eof>") { return .incomplete(message) }
        return .failed(message)
    }

    /// Calls the function below `argumentCount` arguments under `lua_pcall`; results stay
    /// on the stack. Returns the failure, if any, with the stack back as it was.
    public func call(argumentCount: Int32 = 0, resultCount: Int32 = LUA_MULTRET) -> LuaFailure? {
        raisedErrors.clear()
        let status = quarry_pcall(state, argumentCount, resultCount)
        guard status != LUA_OK else { return nil }
        let raw = lua_type(state, -1) == LUA_TSTRING ? luaString(state, -1) : nil
        let thrown = raw.flatMap { raisedErrors.take(raisedAs: $0) }
        // One line whatever Lua put in it (it quotes a field name with its newlines).
        var message = raw.map { ErrorRendering.oneLine($0) } ?? "(error object is not a string)"
        // A refusal inside a C function (string.rep) has Lua's bare message: say why.
        if status == LUA_ERRMEM, memoryLimit > 0 {
            message = "not enough memory: the Lua heap reached the --memory limit (\(memoryLimit >> 20) MB) inside a library call"
        }
        quarry_pop(state, 1)
        if thrown == nil, let suggestion = entitySuggestion(for: message) { message += " (did you mean '\(suggestion)'?)" }
        if thrown == nil, let hint = relationshipHint(for: message) { message += hint }
        if thrown == nil, let hint = hiddenMethodHint(for: message) { message += hint }
        if thrown == nil, let hint = shadowedEntityHint(for: message) { message += hint }
        if thrown == nil, let hint = leftOutHint(for: message) ?? habitHint(for: message) ?? unquotedPredicateHint(for: message) { message += hint }
        let traceback = quarry_last_traceback(state).map { String(cString: $0) }
        return LuaFailure(message: message, traceback: traceback, error: thrown)
    }

    /// Runs `code`, leaving nothing on the stack.
    public func run(_ code: String, chunkName: String = "=(quarry)") -> LuaFailure? {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        switch load(code, chunkName: chunkName) {
        case .loaded: return call(resultCount: 0)
        case .incomplete(let message), .failed(let message): return LuaFailure(message: message, traceback: nil)
        }
    }

    /// Prints the values from `first` to the top the way the REPL shows them
    /// (results and objects as tables, tables as constructors), then pops them.
    public func showValues(from first: Int32) -> LuaFailure? {
        let top = lua_gettop(state)
        guard top >= first else { return nil }
        pushQuarryTable()
        LuaTable.field(state, -1, "show")
        quarry_remove(state, -2)
        quarry_insert(state, first)
        let failure = call(argumentCount: top - first + 1, resultCount: 0)
        lua_settop(state, first - 1)
        return failure
    }

    /// Sets the global `arg` as `lua` does: the script at 0, its arguments from 1.
    public func setScriptArguments(script: String, arguments: [String]) {
        lua_createtable(state, Int32(arguments.count), 2)
        pushString(state, script)
        lua_rawseti(state, -2, 0)
        pushString(state, "quarry")
        lua_rawseti(state, -2, -1)
        for (i, argument) in arguments.enumerated() {
            pushString(state, argument)
            lua_rawseti(state, -2, lua_Integer(i + 1))
        }
        quarry_pushglobaltable(state)
        quarry_insert(state, -2)
        LuaTable.setField(state, -2, "arg")
        quarry_pop(state, 1)
    }

    /// Pushes strings (script arguments as the chunk's `...`); returns how many.
    public func push(strings: [String]) -> Int32 {
        for s in strings { pushString(state, s) }
        return Int32(strings.count)
    }

    /// The table `quarry`, kept in the registry so a script reassigning the global
    /// cannot break the REPL.
    func pushQuarryTable() {
        pushRegistryField(state, "quarry.api")
    }

    func runPrelude() throws {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        guard loadPrecompiledPrelude() || load(prelude, chunkName: "=(quarry prelude)") == .loaded else {
            throw LuaError("Quarry's Lua prelude does not compile")
        }
        pushQuarryTable()
        if let failure = call(argumentCount: 1, resultCount: 1) {
            throw LuaError("Quarry's Lua prelude failed: \(failure.message)")
        }
        setRegistryField(state, "quarry.helpers")
    }

    /// Pushes the prelude as scripts/prelude-bytecode compiled it, when that was compiled
    /// from this very text by this Lua release; false (nothing pushed) otherwise.
    /// Compiling the text was a sixth of a start's instructions (1.0 million of 5.8 for
    /// `quarry -e 'local x = 1'`); loading the bytecode is a tenth of that. The chunk has
    /// its debug information, so messages and tracebacks name the prelude's lines as before.
    private func loadPrecompiledPrelude() -> Bool {
        guard let bytecode = PreludeBytecode.current else { return false }
        if luaL_loadbufferx(state, bytecode.start, bytecode.count, "=(quarry prelude)", "b") == LUA_OK { return true }
        quarry_pop(state, 1)
        return false
    }

    /// Pushes a helper that the prelude defined in Lua (e.g. the `r:objects()` iterator maker).
    func pushHelper(_ name: String) {
        pushHelpers()
        LuaTable.field(state, -1, name)
        quarry_remove(state, -2)
    }

    /// Pushes the table of the helpers the prelude defined, by name.
    func pushHelpers() {
        pushRegistryField(state, "quarry.helpers")
    }
}

/// The prelude's bytecode in `prelude_bytecode.c`, when it is this prelude's.
enum PreludeBytecode {
    /// Nil when the prelude changed since scripts/prelude-bytecode ran, or the bytecode is
    /// another Lua release's (PreludeBytecodeTests checks it is current).
    // Unsafe only in name: the pointer is to constant bytes in the binary, never written.
    nonisolated(unsafe) static let current: (start: UnsafePointer<CChar>, count: Int)? = {
        var size = 0
        var hash: UInt64 = 0
        guard let bytes = quarry_prelude_bytecode(&size, &hash), hash == sourceHash else { return nil }
        return (UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self), size)
    }()

    /// FNV-1a of the prelude's UTF-8, as scripts/prelude-bytecode computes it.
    static var sourceHash: UInt64 {
        var text = prelude
        // Over the contiguous bytes: through the `utf8` view it took 30 instructions a byte.
        return text.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
    }
}

/// Lua-side helpers: printing goes through `tostring`, which may call user
/// metamethods, so it runs in Lua under `pcall`, never in Swift.
private let prelude = #"""
    local quarry = ...
    local writeOnce, filing, page = quarry.__writeonce, quarry.__filing, quarry.__page
    quarry.__writeonce, quarry.__filing, quarry.__page = nil, nil, nil
    local objectTable, rowsTable, explained = quarry.__objecttable, quarry.__rowstable, quarry.__explained
    quarry.__objecttable, quarry.__rowstable, quarry.__explained = nil, nil, nil
    rawset(_G, "__objecttable", nil); rawset(_G, "__rowstable", nil)
    local recordOrder = quarry.__recordorder
    quarry.__recordorder = nil; rawset(_G, "__recordorder", nil)
    -- Keys by name, except a record Quarry made that keeps its columns' order (a diff row:
    -- old before new); keys it does not name come after, by name.
    local function byName(a, b) return tostring(a) < tostring(b) end
    local function ordered(v, keys)
      local order = recordOrder(v)
      if not order then return table.sort(keys, byName) end
      local rank = {}
      for i, name in ipairs(order) do rank[name] = i end
      table.sort(keys, function(a, b)
        local ra, rb = rank[a], rank[b]
        if ra and rb then return ra < rb end
        if ra or rb then return ra ~= nil end
        return byName(a, b)
      end)
    end
    local function repr(v, depth, seen)
      local t = type(v)
      if t == "string" then return string.format("%q", v) end
      if t ~= "table" then return tostring(v) end
      local mt = getmetatable(v)
      if type(mt) == "table" and rawget(mt, "__tostring") then return tostring(v) end
      if seen[v] or depth > 3 then return "{...}" end
      seen[v] = true
      local parts, n = {}, rawlen(v)
      -- A list with its length in n (table.pack's, o:changes()'s pairs): nils shown, `{"a", nil}`.
      local packed = rawget(v, "n")
      if math.type(packed) == "integer" and packed >= n and packed <= 100 then
        for k in next, v do
          if k ~= "n" and not (math.type(k) == "integer" and k >= 1 and k <= packed) then packed = nil break end
        end
      else packed = nil end
      n = packed or n
      for i = 1, math.min(n, 100) do parts[#parts + 1] = repr(rawget(v, i), depth + 1, seen) end
      if n > 100 then parts[#parts + 1] = "... " .. (n - 100) .. " more" end
      local keys = {}
      for k in next, v do
        if not (math.type(k) == "integer" and k >= 1 and k <= n) and not (k == "n" and n == packed) then keys[#keys + 1] = k end
      end
      ordered(v, keys)
      for _, k in ipairs(keys) do
        local key = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and k or "[" .. repr(k, depth + 1, seen) .. "]"
        parts[#parts + 1] = key .. " = " .. repr(rawget(v, k), depth + 1, seen)
      end
      seen[v] = nil
      return "{" .. table.concat(parts, ", ") .. "}"
    end
    function quarry.repr(v)
      if type(v) == "string" then return v end
      return repr(v, 0, {})
    end
    local setTable = quarry.__settable
    quarry.__settable = nil; rawset(_G, "__settable", nil)
    local function shown(out, ...)
      for i = 1, select("#", ...) do
        local v = select(i, ...)
        -- .explain on: the SQL of results and of dictionary rows (properties, group).
        local text = quarry.__explaining and explained(v)
        if text then io.write(text, "\n") end
        -- A list of records (sql(), summarize(), group/having) prints as a table.
        -- A to-many shows its members as results do (print keeps their IDs).
        local kind = quarry.typeof(v)
        out[i] = (kind == "object" or kind == "entity") and objectTable(v) or kind == "set" and setTable(v)
          or (type(v) == "table" and getmetatable(v) == nil and rowsTable(v)) or quarry.repr(v)
      end
    end
    function quarry.show(...)
      local out = {}
      if select("#", ...) > 0 then rawset(_G, "_", (select(1, ...))) end
      local once = quarry.__once
      if once then
        -- .once FILE: this result goes to the file, in the current mode and laid out as a
        -- file takes it (every row, nothing cut to the terminal), then output returns to
        -- the terminal.
        quarry.__once = nil
        filing(true)
        local ok, failure = pcall(shown, out, ...)
        filing(false)
        if not ok then error(failure, 0) end
        writeOnce(once, table.concat(out, "\t") .. "\n")
        return
      end
      shown(out, ...)
      local text = table.concat(out, "\t") .. "\n"
      if page(text) then return end
      io.write(text)
      io.flush()
    end
    -- print as Lua's (tostring of each argument, tabs, a newline, to standard output), except
    -- that rows Quarry made (sql(), summarize(), dictionary results) print as a table, as
    -- results do: in a script, print(sql(...)) shows the rows, not "table: 0x...".
    do
      local stdout, tostring, select, type, getmetatable, concat = io.stdout, tostring, select, type, getmetatable, table.concat
      rawset(_G, "print", function(...)
        local out = {}
        for i = 1, select("#", ...) do
          local v = select(i, ...)
          out[i] = (type(v) == "table" and getmetatable(v) == nil and rowsTable(v, true)) or tostring(v)
        end
        stdout:write(concat(out, "\t"), "\n")
        stdout:flush()
      end)
    end
    -- entity "Item" { ... } as well as entity("Item", { ... }): the curried form is a Lua
    -- closure, so no Swift function is made per call.
    -- entity("Car", { abstract = true }) { ... } and entity("SportCar", { parent = "Car" }, { ... }):
    -- a table of options only (abstract, parent naming no attribute type, uniqueness as a
    -- list of lists, drop as a list of names) is the options, not the definition.
    local define = quarry.entity
    local types = { string = 1, int16 = 1, int32 = 1, int64 = 1, int = 1, double = 1, decimal = 1,
                    bool = 1, date = 1, uuid = 1, binary = 1, json = 1 }
    local function isOptions(t)
      if type(t) ~= "table" or next(t) == nil then return false end
      for k, v in pairs(t) do
        if k == "abstract" then if type(v) ~= "boolean" then return false end
        elseif k == "parent" then
          if type(v) == "string" then
            if types[(v:gsub("%?$", ""))] then return false end
          elseif type(v) ~= "userdata" then return false end
        elseif k == "uniqueness" then if type(v) ~= "table" or type(v[1]) ~= "table" then return false end
        -- drop = { "note" } names columns; an attribute named drop gives a type first.
        elseif k == "drop" then
          if type(v) ~= "table" or type(v[1]) ~= "string" or types[(v[1]:gsub("%?$", ""))] then return false end
        else return false end
      end
      return true
    end
    local function defining(define, name, definition, more)
      if definition == nil and type(name) == "string" then
        return function(d) return define(name, d) end
      end
      if more ~= nil then return define(name, more, definition) end
      if isOptions(definition) then
        return function(d) return define(name, d, definition) end
      end
      return define(name, definition)
    end
    -- entity(b, "Item", { ... }) and entity(b, "Item") { ... }: in the store b that open() gave.
    local typeof = quarry.typeof
    local function entity(name, ...)
      if typeof(name) == "store" then
        local store = name
        return defining(function(...) return define(store, ...) end, ...)
      end
      return defining(define, name, ...)
    end
    quarry.entity = entity
    rawset(_G, "entity", entity)
    -- history{ since = token } and history.prune(token).
    local readHistory, prune = quarry.__history, quarry.__prune
    quarry.__history, quarry.__prune = nil, nil
    rawset(_G, "__history", nil); rawset(_G, "__prune", nil)
    -- The binding's own name (__prune) is no name a person wrote: checked here, as 'prune'.
    -- It takes one token: a second argument is refused, not left unread.
    local history = setmetatable({ prune = function(token, ...)
        if math.type(token) ~= "integer" then
          error("bad argument #1 to 'prune' (a history token expected, got " .. (token == nil and "no value" or type(token))
            .. "; historytoken() gives the current one)", 2)
        end
        if select("#", ...) > 0 then
          error("bad argument #2 to 'prune' (no value expected, got " .. type((...))
            .. ": history.prune(token) takes one token, and removes the history before it)", 2)
        end
        return prune(token)
      end },
      { __call = function(_, options) return readHistory(options) end })
    quarry.history = history
    rawset(_G, "history", history)
    -- Text is a Lua string (the contract's), which has no date parts: `o.arrival_time.hour`
    -- on "13:45" would be Lua's nil, far from the mistake; said at the index instead. Only
    -- the names no string function has, and only when the string table lacks them.
    local dateParts = { year = 1, month = 1, day = 1, hour = 1, minute = 1, second = 1, weekday = 1, yday = 1, date = 1 }
    setmetatable(string, { __index = function(_, key)
      if dateParts[key] then
        error("text has no field '" .. key .. "': a string is no date; date(text)." .. key
          .. " reads ISO 8601 text, and for a time of day such as '13:45' tonumber(text:match(\"^%d+\")) is its hour", 2)
      end
    end })
    local helpers = {}
    local objectAt, walkOf = quarry.__objectat, quarry.__walk
    quarry.__objectat, quarry.__walk = nil, nil
    rawset(_G, "__objectat", nil); rawset(_G, "__walk", nil)
    -- r:objects(): every object in order, sectioned or not, as r held them when the loop
    -- began (a walk, as ipairs(r) takes). Unsectioned, the walk's w[i] (read in batches of
    -- rows, as ipairs(r) is); sectioned, w[i] is a section, so the flat i-th.
    function helpers.objects(r)
      local i, w = 0, walkOf(r)
      if r.section == nil then
        return function()
          i = i + 1
          return w[i]
        end
      end
      return function()
        i = i + 1
        return objectAt(w, i)
      end
    end
    -- coroutine.wrap as Lua's, except that an error message keeps the one position it has
    -- (Lua's own prefixes a second: "x.lua:1: x.lua:1: unknown entity").
    do
      local create, resume, close, raise = coroutine.create, coroutine.resume, coroutine.close, error
      local function finish(co, ok, ...)
        if ok then return ... end
        local message = ...
        close(co)
        raise(message, 0)
      end
      coroutine.wrap = function(f)
        local co = create(f)
        return function(...) return finish(co, resume(co, ...)) end
      end
    end
    return helpers
    """#
